"""Side by side, one sitting: each tree's own ``scripts/bench/bench_load.py`` (older trees:
``scripts/bench_load.py``) with the same arguments, alternated, and a table of what each run
measured.

    .venv/bin/python scripts/bench/bench_versus.py --before /work/wt/base-c960276 --runs 3 \\
        -- --tables 200

Each tree runs with its own ``.venv`` (``scripts/setup dev`` in it). Server CPU per person move
is worked out from each run's own lines (server CPU seconds over person moves), so trees whose
``bench_load.py`` prints less still compare; the 1-minute load average is read before each run.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[2]


def one(tree: Path, args: list[str]) -> dict[str, float]:
    """Run ``tree``'s bench_load with ``args``; what it printed, as numbers."""
    load = os.getloadavg()[0]
    script = "scripts/bench/bench_load.py"
    if not (tree / script).exists():
        script = "scripts/bench_load.py"  # a tree from before scripts/ was sorted
    out = subprocess.run([str(tree / ".venv/bin/python"), script, *args],
                         cwd=tree, capture_output=True, text=True, timeout=1800).stdout
    found: dict[str, float] = {"load": load}
    moves = re.search(r"moves: (\d+) \((\d+) person moves/s\)", out)
    lat = re.search(r"p50 ([\d.]+)\s+p90 ([\d.]+)\s+p99 ([\d.]+)", out)
    cpu = re.search(r"server CPU: ([\d.]+) s in ([\d.]+) s", out)
    if moves and lat and cpu:
        found.update(moves=float(moves.group(1)), rate=float(moves.group(2)),
                     p50=float(lat.group(1)), p99=float(lat.group(3)),
                     cpu=float(cpu.group(1)),
                     per_move=float(cpu.group(1)) / max(1.0, float(moves.group(1))) * 1000)
    else:
        print(out, file=sys.stderr)
    return found


def main() -> None:
    """Parse the arguments, run the pairs, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", required=True, type=Path, help="the earlier tree")
    parser.add_argument("--after", type=Path, default=HERE, help="this tree by default")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("bench", nargs=argparse.REMAINDER, help="-- bench_load.py arguments")
    args = parser.parse_args()
    bench = [a for a in args.bench if a != "--"]
    rows: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    print(f"bench_load.py {' '.join(bench)}; before {args.before}, after {args.after}")
    print("| run | tree | load (1 min) | person moves/s | p50 ms | p99 ms "
          "| server CPU per person move |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for run in range(1, args.runs + 1):
        for name, tree in (("before", args.before), ("after", args.after)):
            r = one(tree, bench)
            rows[name].append(r)
            if "per_move" in r:
                print(f"| {run} | {name} | {r['load']:.1f} | {r['rate']:.0f} | {r['p50']:.1f} | "
                      f"{r['p99']:.1f} | {r['per_move']:.2f} ms |", flush=True)
            else:
                print(f"| {run} | {name} | {r['load']:.1f} | failed | | | |", flush=True)
    medians = {n: statistics.median(r["per_move"] for r in rs if "per_move" in r)
               for n, rs in rows.items() if any("per_move" in r for r in rs)}
    if len(medians) == 2:
        print(f"median CPU per person move: before {medians['before']:.2f} ms, after "
              f"{medians['after']:.2f} ms: after/before {medians['after'] / medians['before']:.0%}")


if __name__ == "__main__":
    main()
