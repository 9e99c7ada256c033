"""What started tables cost while nobody is connected: the server's CPU for N such tables.

Starts ``euchre serve`` (one worker, SQLite in a temporary folder, the real pacing) on a
free loopback port, opens N online tables (the creator South, computers elsewhere) and
starts them, or N practice tables, and connects to none of them. An online table's clock
then plays for the absent person (three misses in a row: the rest of the hand at computer
speed), so it runs on by itself; a practice table waits for its person. After a warm-up,
it measures the server's CPU time for a bounded time and counts the events the tables
made, and prints the CPU per event: what the tables cost beyond their moves.

Usage: python scripts/bench/bench_idle_tables.py [--tables 30] [--kind online|practice]
       [--warmup 10] [--duration 60] [--seconds-per-move 5] [--database-url memory:]
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    """A free loopback port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(url: str, port: int) -> subprocess.Popen[bytes]:
    """``euchre serve`` with the database ``url``; returns once it answers."""
    exe = Path(sys.executable).parent / "euchre"
    proc = subprocess.Popen(
        [str(exe), "serve", "--port", str(port), "--log-level", "warning",
         "--database-url", url],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1)
            return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def open_tables(http: httpx.Client, kind: str, n: int, seconds: float) -> list[tuple[str, str]]:
    """Open (and for online, start) ``n`` tables; their (id, token)."""
    tables = []
    for i in range(n):
        if kind == "online":
            r = http.post("/api/tables", json={"kind": "online", "name": f"Ann {i}",
                                               "seconds_per_move": seconds})
            r.raise_for_status()
            body = r.json()
            http.post(f"/api/tables/{body['id']}/start",
                      json={"token": body["token"]}).raise_for_status()
        else:
            r = http.post("/api/tables", json={"kind": "practice"})
            r.raise_for_status()
            body = r.json()
        tables.append((body["id"], body["token"]))
    return tables


def versions(http: httpx.Client, tables: list[tuple[str, str]]) -> int:
    """The sum of the tables' event versions (events made so far)."""
    total = 0
    for table_id, token in tables:
        r = http.get(f"/api/tables/{table_id}", headers={"X-Seat-Token": token})
        r.raise_for_status()
        total += int(r.json()["version"])
    return total


def main() -> None:
    """Run the benchmark and print one line of figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--kind", choices=["online", "practice"], default="online")
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument("--seconds-per-move", type=float, default=5.0,
                        help="online tables' clock (5 s: the shortest, to reach computer "
                             "speed soon)")
    parser.add_argument("--database-url", default=None,
                        help="default: SQLite in a temporary folder; 'memory:' leaves out "
                             "the cost of saving")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        proc = start_server(args.database_url or f"sqlite+aiosqlite:///{folder}/bench.db",
                            port)
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
                tables = open_tables(http, args.kind, args.tables, args.seconds_per_move)
                time.sleep(args.warmup)
                events0, cpu0, t0 = versions(http, tables), cpu_seconds(proc.pid), \
                    time.monotonic()
                time.sleep(args.duration)
                cpu1, t1 = cpu_seconds(proc.pid), time.monotonic()
                events1 = versions(http, tables)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    cpu, elapsed, events = cpu1 - cpu0, t1 - t0, events1 - events0
    load = os.getloadavg()[0]
    per_event = f"{1000 * cpu / events:.2f} ms CPU/event" if events else "no events"
    print(f"{args.tables} {args.kind} tables, nobody connected, {elapsed:.0f} s: "
          f"server CPU {100 * cpu / elapsed:.1f}% of a core ({cpu:.2f} s), "
          f"{events} events ({events / elapsed:.1f}/s), {per_event}; load avg {load:.1f}")


if __name__ == "__main__":
    main()
