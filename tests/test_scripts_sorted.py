"""``scripts/`` is sorted (issue 38, item 5): at the top only the scripts people run, the
benchmarks in ``bench/`` and the bots' studies and training in ``research/``, and each
folder's README lists every script in it (what it measures, the command, the doc that
cites it)."""

from __future__ import annotations

import re
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"

PEOPLE_RUN = {"run", "test", "setup", "lock", "stop-started"}
"""The scripts at the top besides ``start-*``."""


def test_the_top_holds_only_the_scripts_people_run_and_the_two_folders() -> None:
    top = {p.name for p in SCRIPTS.iterdir() if not p.name.startswith((".", "__"))}
    odd = {name for name in top - PEOPLE_RUN - {"bench", "research"}
           if not name.startswith("start-")}
    assert odd == set(), f"scripts/ holds {sorted(odd)}: move them to bench/ or research/"
    assert {"bench", "research"} <= top


def _listed(folder: Path) -> set[str]:
    """The names a folder's README gives in the first column of its tables."""
    text = (folder / "README.md").read_text(encoding="utf-8")
    return {name.rstrip("/") for name in re.findall(r"^\| `([^`]+)`", text, re.M)}


def test_each_folders_readme_lists_every_script_in_it() -> None:
    for name in ("bench", "research"):
        folder = SCRIPTS / name
        held = {p.name.removesuffix(".py") if p.is_file() else p.name
                for p in folder.iterdir()
                if (p.suffix == ".py" or p.is_dir()) and not p.name.startswith((".", "__"))}
        listed = {n.removesuffix(".py") for n in _listed(folder)}
        assert held - listed == set(), f"scripts/{name}/README.md does not list {held - listed}"
        assert listed - held == set(), f"scripts/{name}/README.md lists {listed - held}"
