"""How long a site is without a serving process after the active one is killed.

Starts two ``euchre serve`` processes of one site (the given PostgreSQL or SQLite database
and Redis): one serves, one waits as a standby. Each round opens a practice table on the
active process, kills it (SIGKILL), and times how long until the standby answers
``/readyz`` with 200 and serves the table again; the killed one is then started again as
the next standby. Prints each round and the median and maximum. The time is dominated by
the lease (``--lease-seconds``): the dead process's lease must run out (up to one time to
live after its last renewal) and the standby looks again every third of it.

Usage: python scripts/bench_failover.py --redis-url redis://127.0.0.1:6390/0
       [--database-url postgresql+asyncpg://...] [--lease-seconds 3] [--rounds 5]
"""

from __future__ import annotations

import argparse
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx


def free_port() -> int:
    """A free loopback port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Process:
    """One ``euchre serve`` of the site."""

    def __init__(self, args: argparse.Namespace, db_url: str, folder: str) -> None:
        self.port = free_port()
        log = open(f"{folder}/serve-{self.port}.log", "w")  # noqa: SIM115 - the child keeps it
        exe = Path(sys.executable).parent / "euchre"
        self.proc = subprocess.Popen(
            [str(exe), "serve", "--port", str(self.port), "--database-url", db_url,
             "--redis-url", args.redis_url, "--lease-seconds", str(args.lease_seconds),
             "--log-level", "warning"],
            stdout=subprocess.DEVNULL, stderr=log)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ready(self) -> bool:
        """Whether it answers ``/readyz`` with 200."""
        try:
            return httpx.get(f"{self.base}/readyz", timeout=1).status_code == 200
        except httpx.HTTPError:
            return False


def wait_ready(processes: list[Process], limit: float) -> Process:
    """The first process that is ready (polled every 10 ms)."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        for p in processes:
            if p.proc.poll() is None and p.ready():
                return p
        time.sleep(0.01)
    raise SystemExit("no process became ready (logs: serve-PORT.log in the temporary folder)")


def main() -> int:
    """Run the rounds and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--redis-url", required=True)
    parser.add_argument("--database-url", default=None,
                        help="default: a new SQLite file in a temporary folder")
    parser.add_argument("--lease-seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="euchre-failover-")
    print(f"logs in {folder}", flush=True)
    # A fresh SQLite file names a fresh site (the site lease is named after the database).
    db_url = args.database_url or f"sqlite+aiosqlite:///{folder}/{secrets.token_hex(4)}.db"
    processes = [Process(args, db_url, folder)]
    gaps = []
    try:
        active = wait_ready(processes, 120)  # migrated; then the standby
        processes.append(Process(args, db_url, folder))
        for round_no in range(1, args.rounds + 1):
            time.sleep(args.lease_seconds)  # a standby is waiting, the lease renewed
            table = httpx.post(f"{active.base}/api/tables", json={"kind": "practice"}).json()
            killed_at = time.monotonic()
            active.proc.send_signal(signal.SIGKILL)
            active.proc.wait()
            others = [p for p in processes if p is not active]
            nxt = wait_ready(others, 10 * args.lease_seconds + 60)
            r = httpx.get(f"{nxt.base}/api/tables/{table['id']}",
                          params={"token": table["token"]}, timeout=30)
            gap = time.monotonic() - killed_at
            if r.status_code != 200:
                raise SystemExit(f"round {round_no}: the table did not come back: {r.text}")
            gaps.append(gap)
            print(f"round {round_no}: serving again {gap:.2f} s after SIGKILL", flush=True)
            processes.remove(active)
            processes.append(Process(args, db_url, folder))  # the next standby
            active = nxt
    finally:
        for p in processes:
            if p.proc.poll() is None:
                p.proc.send_signal(signal.SIGTERM)
        for p in processes:
            try:
                p.proc.wait(30)
            except subprocess.TimeoutExpired:
                p.proc.kill()
    print(f"lease {args.lease_seconds:g} s, {len(gaps)} rounds: median "
          f"{statistics.median(gaps):.2f} s, max {max(gaps):.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
