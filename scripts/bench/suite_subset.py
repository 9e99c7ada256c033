"""Today's node ids of an older tree's tests, for timing the suite an issue measured then.

Issue 35 asks for the tests of a36b536 plus its own in at most 12 minutes. Tests moved since
(``tests/table/test_x.py`` into ``tests/table/actor/``), so a test of the older tree is
found here by its whole node id, else by its file's name and its test's name; one found
nowhere (removed with what it tested) is counted and named on standard error. ``--add``
takes today's test files that also belong (the issue's own tests). The ids go to standard
output, one a line, in today's collection order, for pytest's ``@file`` argument::

    .venv/bin/python scripts/bench/suite_subset.py --before /work/wt-before \\
        --add tests/lock/test_lock.py > /tmp/ids.txt
    scripts/test @/tmp/ids.txt
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parents[2]


def collected(tree: Path) -> list[str]:
    """The node ids pytest collects in ``tree``, with that tree's own venv."""
    out = subprocess.run(
        [str(tree / ".venv" / "bin" / "pytest"), "--co", "-q", "-p", "no:randomly"],
        cwd=tree, capture_output=True, text=True, check=False)
    ids = [line.strip() for line in out.stdout.splitlines() if "::" in line]
    if not ids:
        sys.exit(f"no tests collected in {tree}:\n{out.stdout[-2000:]}{out.stderr[-2000:]}")
    return ids


def _by_name(node_id: str) -> tuple[str, str]:
    path, rest = node_id.split("::", 1)
    return PurePosixPath(path).name, rest


def matched(before: list[str], now: list[str]) -> tuple[set[str], list[str]]:
    """Today's ids for the older ids, and the older ids found nowhere today."""
    now_ids = set(now)
    now_by_name: dict[tuple[str, str], str] = {}
    for node_id in now:
        now_by_name.setdefault(_by_name(node_id), node_id)
    found: set[str] = set()
    gone: list[str] = []
    for node_id in before:
        if node_id in now_ids:
            found.add(node_id)
        elif (moved := now_by_name.get(_by_name(node_id))) is not None:
            found.add(moved)
        else:
            gone.append(node_id)
    return found, gone


def main() -> None:
    """Print the ids; say on standard error how many were matched and which are gone."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True,
                        help="a worktree of the older commit, with its own .venv")
    parser.add_argument("--add", action="append", default=[], metavar="FILE",
                        help="a test file of today's tree whose tests also count")
    args = parser.parse_args()
    before, now = collected(args.before), collected(ROOT)
    found, gone = matched(before, now)
    added = {node_id for node_id in now
             if any(node_id.startswith(f"{file}::") for file in args.add)}
    chosen = found | added
    for node_id in now:
        if node_id in chosen:
            print(node_id)
    print(f"{len(before)} tests then, {len(found)} found today, {len(gone)} gone, "
          f"{len(added - found)} added: {len(chosen)} ids", file=sys.stderr)
    for node_id in gone:
        print(f"  gone: {node_id}", file=sys.stderr)


if __name__ == "__main__":
    main()
