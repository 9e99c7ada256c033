"""Every class name is said once: no two modules under ``src/euchre`` define a top-level class
of the same name (issue 38: a reader who meets ``Outbox`` or ``Act`` should not have to ask
which one). Private names count too: a search for the name should find one class."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "euchre"


def top_level_classes() -> dict[str, list[str]]:
    """Each top-level class name under ``src/euchre``, with the modules that define it."""
    found: dict[str, list[str]] = defaultdict(list)
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                found[node.name].append(str(path.relative_to(SRC.parent)))
    return found


def test_the_walk_finds_the_classes() -> None:
    classes = top_level_classes()
    assert "euchre/server/root.py" in classes["Site"]  # the walk reads the tree
    assert len(classes) > 300


def test_no_class_name_is_defined_twice() -> None:
    twice = {name: where for name, where in top_level_classes().items() if len(where) > 1}
    assert twice == {}, "class names defined in more than one module: " + "; ".join(
        f"{name} in {', '.join(where)}" for name, where in sorted(twice.items()))


def test_a_hand_applies_each_phases_actions_in_a_function_of_its_own() -> None:
    # HandState.apply was 135 lines (issue 38): now it parses, checks the turn and hands
    # the action to its phase's function, one a phase (play has its own fast path).
    import inspect

    from euchre import hand

    lines = inspect.getsource(hand.HandState.apply).splitlines()
    assert len(lines) <= 30, f"HandState.apply is {len(lines)} lines"
    table = hand._APPLY_BY_PHASE
    assert len(table) == hand.OVER and len(set(table)) == len(table)
    for phase, apply in zip(hand.PHASE_NAMES, table, strict=False):
        assert len(inspect.getsource(apply).splitlines()) <= 40, phase
