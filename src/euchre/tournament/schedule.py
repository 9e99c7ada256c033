"""Progressive tournaments' pairings: who partners whom, against whom, in every round.

The partnerships come from the round-robin ("circle") movement of whist drives: person
``people - 1`` stays put and everyone else moves one place round a circle each round, so the
partnerships of rounds ``0 .. people - 2`` are a 1-factorisation of the complete graph: no two
people are partners twice until everyone has partnered everyone. Past ``people - 1`` rounds the
movement starts again, so a pair partners at most ``ceil(rounds / (people - 1))`` times, the
least any schedule can manage.

Which two partnerships meet at a table is chosen round by round to keep opponents fresh: the
pairing of partnerships with the fewest earlier meetings (greedy, then improved by swapping
opponents between tables until no swap helps). It depends only on the earlier rounds, so the
first ``k`` rounds of a longer schedule are the schedule of ``k`` rounds. Standard library only,
no randomness: the same arguments give the same schedule.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

Pair = tuple[int, int]
"""Two partners, the first in seat 0 (or 1), the second in seat 2 (or 3)."""
Table = tuple[Pair, Pair]
"""``((a, c), (b, d))``: a and c (seats 0 and 2) against b and d (seats 1 and 3)."""
Round = list[Table]
"""The tables of one round; everyone sits at exactly one."""

MAX_PEOPLE = 64
"""The largest field :func:`schedule` takes (16 tables)."""
MAX_ROUNDS = 64
"""The most rounds :func:`schedule` takes."""


def schedule(people: int, rounds: int) -> list[Round]:
    """Every round's tables for ``people`` (a multiple of four, 4 to 64) over ``rounds`` rounds.

    People are numbered from 0. Nobody sits out; nobody is at two tables in a round; each person
    has ``min(rounds, people - 1)`` different partners, and no two people partner more than
    ``ceil(rounds / (people - 1))`` times (never twice while ``rounds < people``). Raises
    :class:`ValueError` for any other count.
    """
    _check_count("people", people, 4, MAX_PEOPLE)
    if people % 4:
        raise ValueError(
            f"people must be a multiple of four (fill the rest with computers), not {people}"
        )
    _check_count("rounds", rounds, 1, MAX_ROUNDS)
    met = [[0] * people for _ in range(people)]
    out: list[Round] = []
    for number in range(rounds):
        pairs = partnerships(people, number)
        tables = _seat_tables(pairs, met)
        for (a, c), (b, d) in tables:
            for x in (a, c):
                for y in (b, d):
                    met[x][y] += 1
                    met[y][x] += 1
        out.append(tables)
    return out


def partnerships(people: int, number: int) -> list[Pair]:
    """The partnerships of round ``number`` of the circle movement for an even ``people``.

    Person ``people - 1`` stays; in round ``i`` they partner ``i`` and person ``i + j`` partners
    ``i - j`` (counting round the circle of the other ``people - 1``).
    """
    if people < 2 or people % 2:
        raise ValueError(f"the circle movement needs an even number of people, not {people}")
    circle = people - 1
    i = number % circle
    pairs = [(circle, i)]
    for j in range(1, people // 2):
        pairs.append(((i + j) % circle, (i - j) % circle))
    return [(min(p), max(p)) for p in pairs]


def _seat_tables(pairs: list[Pair], met: list[list[int]]) -> Round:
    """Pairs of partnerships as tables, fewest earlier opponent meetings first."""

    def cost(p: Pair, q: Pair) -> int:
        # A third meeting costs far more than two second ones: spread the repeats.
        return sum(4 ** met[x][y] for x in p for y in q)

    # Greedy: the cheapest meeting of two still free partnerships, ties by their order.
    candidates = sorted(
        (cost(pairs[i], pairs[j]), i, j) for i, j in combinations(range(len(pairs)), 2)
    )
    taken: set[int] = set()
    matched: list[list[int]] = []
    for _, i, j in candidates:
        if i not in taken and j not in taken:
            taken.update((i, j))
            matched.append([i, j])
    # Then swap opponents between two tables while that lowers the total.
    improved = True
    while improved:
        improved = False
        for s, t in combinations(range(len(matched)), 2):
            (p, q), (r, u) = matched[s], matched[t]
            now = cost(pairs[p], pairs[q]) + cost(pairs[r], pairs[u])
            for new_s, new_t in (([p, r], [q, u]), ([p, u], [q, r])):
                if cost(pairs[new_s[0]], pairs[new_s[1]]) + cost(
                    pairs[new_t[0]], pairs[new_t[1]]
                ) < now:
                    matched[s], matched[t] = new_s, new_t
                    improved = True
                    break
    # A plain order to read: each table's lower pair first, tables by their lowest person.
    tables = [(min(pairs[i], pairs[j]), max(pairs[i], pairs[j])) for i, j in matched]
    return sorted(tables)


def kings_table(tables: Sequence[Table], winners: Sequence[int]) -> Round:
    """The next round's tables by king's table movement, from this round's and who won.

    ``tables[0]`` is the king's table. ``winners[k]`` is 0 if table ``k``'s first pair (seats
    0 and 2) won the round there, 1 if the second did (the caller breaks ties). The winners move
    up a table (at the king's table they stay), the losers move down (at the last table they
    stay). The two pairs that meet at a table split: each partnership joins one person from each,
    so nobody partners the same person two rounds running.
    """
    if not tables:
        raise ValueError("king's table needs at least one table")
    if len(winners) != len(tables):
        raise ValueError(f"{len(tables)} tables but {len(winners)} winners")
    if any(w not in (0, 1) for w in winners):
        raise ValueError("each winner must be 0 (seats 0 and 2) or 1 (seats 1 and 3)")
    everyone = [x for (p, q) in tables for x in (*p, *q)]
    if len(set(everyone)) != len(everyone):
        raise ValueError("someone sits at two tables")
    won = [tables[k][w] for k, w in enumerate(winners)]
    lost = [tables[k][1 - w] for k, w in enumerate(winners)]
    last = len(tables) - 1
    out: Round = []
    for k in range(len(tables)):
        if last == 0:
            first, second = won[0], lost[0]
        elif k == 0:
            first, second = won[0], won[1]  # the king's winners stay; the winners below come up
        elif k == last:
            first, second = lost[k - 1], lost[k]  # the losers above come down; the foot's stay
        else:
            first, second = lost[k - 1], won[k + 1]
        # The arriving pairs split: one from each forms a partnership.
        out.append(((first[0], second[0]), (first[1], second[1])))
    return out


def _check_count(name: str, value: object, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, not {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be from {low} to {high}, not {value}")
