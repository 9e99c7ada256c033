"""``tests/table/`` mirrors ``src/euchre/table/``: each module has its own test file,
``test_<module>.py``, testing that module directly, and each test file here is named for a
module. A new module comes with its test file."""

from __future__ import annotations

from pathlib import Path

import euchre.table

SRC = Path(euchre.table.__file__).parent
HERE = Path(__file__).parent

NOT_A_MODULE = frozenset({"mirror"})
"""Test files here that test the folder, not a module."""


def _modules() -> set[str]:
    return {p.stem for p in SRC.glob("*.py") if p.stem != "__init__"}


def _tested() -> set[str]:
    return {p.stem.removeprefix("test_") for p in HERE.glob("test_*.py")}


def test_every_module_has_its_test_file() -> None:
    missing = _modules() - _tested()
    assert not missing, f"add tests/table/test_<module>.py for: {sorted(missing)}"


def test_every_test_file_is_named_for_a_module() -> None:
    strays = _tested() - _modules() - NOT_A_MODULE
    assert not strays, f"no module src/euchre/table/<name>.py for: {sorted(strays)}"
