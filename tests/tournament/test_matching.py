"""euchre.tournament.matching against brute force on small random graphs."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from euchre.tournament.matching import matching_size, pair_in_order


def brute_size(vertices: list[int], edges: set[frozenset[int]]) -> int:
    """The largest matching by trying everything."""
    if len(vertices) < 2:
        return 0
    top, rest = vertices[0], vertices[1:]
    best = brute_size(rest, edges)  # top unmatched
    for other in rest:
        if frozenset((top, other)) in edges:
            best = max(best, 1 + brute_size([v for v in rest if v != other], edges))
    return best


def brute_in_order(order: list[int], edges: set[frozenset[int]]) -> list[tuple[int, int]] | None:
    """The first pairing in order (the front takes the first partner that still works)."""
    if not order:
        return []
    top, rest = order[0], order[1:]
    for other in rest:
        if frozenset((top, other)) in edges:
            tail = brute_in_order([v for v in rest if v != other], edges)
            if tail is not None:
                return [(top, other), *tail]
    return None


graphs = st.integers(min_value=0, max_value=10).flatmap(
    lambda n: st.tuples(st.permutations(list(range(n))),
                        st.sets(st.tuples(st.integers(0, max(n - 1, 0)),
                                          st.integers(0, max(n - 1, 0))))))


@settings(max_examples=300, deadline=None)
@given(graph=graphs)
def test_matching_size_and_pairing_agree_with_brute_force(
        graph: tuple[list[int], set[tuple[int, int]]]) -> None:
    order, raw = graph
    edges = {frozenset(e) for e in raw if e[0] != e[1]}

    def allowed(a: int, b: int) -> bool:
        return frozenset((a, b)) in edges

    assert matching_size(order, allowed) == brute_size(order, edges)
    expected = brute_in_order(order, edges) if len(order) % 2 == 0 else None
    assert pair_in_order(order, allowed) == expected
