"""Where a busy server's CPU goes, below Python: threads, libraries and system calls.

Runs ``bench_load.py`` (its own ``euchre serve`` on SQLite) and, while it measures, watches
the server for ``--seconds``: each thread's CPU from ``/proc``, then (when ``perf`` is
installed and allowed) the system calls it made (``perf stat`` on the syscall tracepoints)
and the share of its samples in each library (``perf record``, the kernel counted as one).
Prints each per person move, with the person moves a second the benchmark reports for its
whole measured run (the watched seconds are inside it).

    .venv/bin/python scripts/bench/bench_where.py --tables 200

py-spy (``bench_load.py --profile DIR``) tells which Python functions run; this tells how
much of the CPU is the interpreter at all, and how many wake-ups and writes a move costs.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from bench_load import thread_cpu

HERE = Path(__file__).resolve().parent

SYSCALLS = ("write", "read", "epoll_pwait", "epoll_wait", "futex", "pwrite64", "pread64",
            "fdatasync", "getpid", "io_uring_enter")
"""The system calls counted: the socket's and the wake-ups', and the SQLite writer's."""


def server_pid(bench: subprocess.Popen[str], timeout: float = 60.0) -> int:
    """The pid of the ``euchre serve`` the benchmark started (its child)."""
    until = time.monotonic() + timeout
    while time.monotonic() < until:
        out = subprocess.run(["pgrep", "-P", str(bench.pid), "-f", "euchre serve"],
                             capture_output=True, text=True).stdout.split()
        if out:
            return int(out[0])
        if bench.poll() is not None:
            break
        time.sleep(0.2)
    raise SystemExit("the benchmark's server did not start")


def perf_syscalls(pid: int, seconds: float) -> Counter[str]:
    """System calls ``pid`` made in ``seconds`` (empty if ``perf`` cannot count them)."""
    events = ",".join(f"syscalls:sys_enter_{s}" for s in SYSCALLS)
    run = subprocess.run(["perf", "stat", "-x", ",", "-e", events, "-p", str(pid), "--",
                          "sleep", str(seconds)], capture_output=True, text=True)
    counts: Counter[str] = Counter()
    for line in run.stderr.splitlines():
        parts = line.split(",")
        if len(parts) > 2 and parts[2].startswith("syscalls:sys_enter_") and parts[0].isdigit():
            counts[parts[2].removeprefix("syscalls:sys_enter_")] = int(parts[0])
    return counts


def perf_libraries(pid: int, seconds: float) -> list[tuple[float, str]]:
    """The share of ``pid``'s samples in each library over ``seconds`` (empty if ``perf``
    cannot sample it)."""
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "perf.data"
        subprocess.run(["perf", "record", "-F", "999", "-o", str(data), "-p", str(pid), "--",
                        "sleep", str(seconds)], capture_output=True)
        if not data.exists():
            return []
        report = subprocess.run(["perf", "report", "-i", str(data), "--sort", "dso",
                                 "--stdio"], capture_output=True, text=True).stdout
    rows = []
    for line in report.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+(\S+)", line)
        if m:
            rows.append((float(m.group(1)), m.group(2)))
    return rows


def main() -> None:
    """Run the benchmark, watch its server while it measures, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="seconds each watch lasts (threads, then syscalls, then libraries)")
    args = parser.parse_args()
    warmup = 5.0
    duration = 3 * args.seconds + 6
    bench = subprocess.Popen(
        [sys.executable, str(HERE / "bench_load.py"), "--tables", str(args.tables),
         "--duration", str(duration), "--warmup", str(warmup)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    pid = server_pid(bench)
    # Opening: tables start 100 a second, then the warm-up; watch inside the measured run.
    time.sleep(args.tables / 100 + warmup + 6)
    before = thread_cpu(pid)
    time.sleep(args.seconds)
    after = thread_cpu(pid)
    have_perf = shutil.which("perf") is not None
    calls = perf_syscalls(pid, args.seconds) if have_perf else Counter()
    libraries = perf_libraries(pid, args.seconds) if have_perf else []
    output, _ = bench.communicate()
    m = re.search(r"\(([\d.]+) person moves/s\)", output)
    if m is None:
        print(output)
        raise SystemExit("the benchmark printed no moves")
    rate = float(m.group(1))
    print(f"{args.tables} busy tables, {rate:.0f} person moves/s over the benchmark's "
          f"measured run; each watch {args.seconds:.0f} s")
    print("CPU per person move, by thread:")
    total = 0.0
    for key, cpu in after.items():
        used = cpu - before.get(key, 0.0)
        total += used
        if used > 0:
            label = "the event loop" if key == "main" else "the others (SQLite writer)"
            print(f"  {label:30s} {used / args.seconds / rate * 1e3:6.3f} ms")
    print(f"  {'all':30s} {total / args.seconds / rate * 1e3:6.3f} ms")
    if calls:
        print("system calls per person move:")
        for name, n in calls.most_common():
            print(f"  {name:16s} {n / args.seconds / rate:7.2f}")
    if libraries:
        print("share of the samples, by library:")
        for share, name in libraries[:10]:
            print(f"  {share:5.1f}%  {name}")
    if not have_perf:
        print("(perf is not installed: no system calls or libraries)")


if __name__ == "__main__":
    main()
