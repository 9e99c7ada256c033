"""The import structure: no module imports itself through others (no cycles).

The layer contracts (engine <- bots <- table <- server <- cli, and the table's rooms:
hosting <- kinds <- actor) are in ``pyproject.toml`` and checked by ``lint-imports``; this
test adds what import-linter does not check: cycles, including those hidden in imports
inside functions, and that the actor's parts never import the actor they work for.
"""

from __future__ import annotations

import grimp


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles_in_the_package() -> None:
    graph = grimp.build_graph("euchre")
    edges = {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    assert _cycles(edges) == []


def test_the_rooms_are_the_contracts_and_no_part_imports_the_actor() -> None:
    """The table's three rooms are what the layers contract names, and no module of the
    actor's room but the actor imports ``actor.py``: a part hands back what it makes (a
    part that imported the actor could call it back)."""
    graph = grimp.build_graph("euchre")
    rooms = {m.split(".")[2] for m in graph.modules if m.count(".") >= 3
             and m.startswith("euchre.table.")}
    assert rooms == {"actor", "kinds", "hosting"}
    importers = graph.find_modules_that_directly_import("euchre.table.actor.actor")
    parts = {m for m in importers if m.startswith("euchre.table.actor.")}
    assert parts == set(), f"parts that import the actor: {sorted(parts)}"
    assert {m for m in importers if m.startswith("euchre.table.")} == {
        "euchre.table.hosting.manager"}
