"""``tests/table/`` mirrors ``src/euchre/table/``: a folder for each of its rooms (``actor``,
``kinds``, ``hosting``), and in it a test file ``test_<module>.py`` for each module of that
room, testing that module directly; each test file is named for a module of its room. A new
module comes with its test file."""

from __future__ import annotations

from pathlib import Path

import euchre.table

SRC = Path(euchre.table.__file__).parent
HERE = Path(__file__).parent


def _rooms() -> set[str]:
    return {p.name for p in SRC.iterdir() if (p / "__init__.py").is_file()}


def _modules(where: Path) -> set[str]:
    return {p.stem for p in where.glob("*.py") if p.stem != "__init__"}


def _tested(where: Path) -> set[str]:
    return {p.stem.removeprefix("test_") for p in where.glob("test_*.py")}


def test_the_table_is_three_rooms_with_no_module_outside_them() -> None:
    assert _rooms() == {"actor", "kinds", "hosting"}
    assert _modules(SRC) == set(), "a table module belongs in one of the rooms"


def test_every_module_has_its_test_file() -> None:
    for room in _rooms():
        missing = _modules(SRC / room) - _tested(HERE / room)
        assert not missing, f"add tests/table/{room}/test_<module>.py for: {sorted(missing)}"


def test_every_test_file_is_named_for_a_module() -> None:
    assert _tested(HERE) == {"mirror"}, "a table module's test file belongs in its room's folder"
    for room in _rooms():
        strays = _tested(HERE / room) - _modules(SRC / room)
        assert not strays, f"no module src/euchre/table/{room}/<name>.py for: {sorted(strays)}"
