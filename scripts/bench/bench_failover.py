"""How long a table is out of play after the process running it is killed.

Starts two ``euchre serve`` processes of one site (the given PostgreSQL or SQLite database
and Redis), both serving. Each round opens a practice table at one of them (which then runs
it), kills that process (SIGKILL), and times how long until a socket at the other one joins
the table again, as a page does: connect, join, and reconnect whenever the socket closes
or says nothing for a second. The killed process is then started again. Prints each round
and the median and maximum. The time is dominated by the table's lease
(``--lease-seconds``): it must run out (up to one time to live after its last renewal);
until then a socket at the other process is relayed to the dead one, and closed a third of
a lease later.

Usage: python scripts/bench/bench_failover.py --redis-url redis://127.0.0.1:6390/0
       [--database-url postgresql+asyncpg://...] [--lease-seconds 3] [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
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
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect


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


def joined_again(process: Process, table: dict[str, str], limit: float) -> None:
    """Join the table's seat at ``process`` until it answers ``joined``."""
    end = time.monotonic() + limit
    url = f"ws://127.0.0.1:{process.port}{table['ws']}"
    while time.monotonic() < end:
        try:
            with connect(url, open_timeout=5) as ws:
                ws.send(json.dumps({"type": "join", "protocol": 2, "token": table["token"]}))
                while True:
                    if json.loads(ws.recv(timeout=1.0))["type"] == "joined":
                        return
        except (ConnectionClosed, OSError, TimeoutError):
            time.sleep(0.01)
    raise SystemExit("the table was not joined again (logs: serve-PORT.log)")


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
    db_url = args.database_url or f"sqlite+aiosqlite:///{folder}/{secrets.token_hex(4)}.db"
    processes = [Process(args, db_url, folder)]
    gaps = []
    try:
        active = wait_ready(processes, 120)  # migrated the database; then the other
        processes.append(Process(args, db_url, folder))
        for round_no in range(1, args.rounds + 1):
            other = next(p for p in processes if p is not active)
            wait_ready([other], 120)
            table = httpx.post(f"{active.base}/api/tables", json={"kind": "practice"}).json()
            time.sleep(args.lease_seconds)  # its lease renewed a few times
            killed_at = time.monotonic()
            active.proc.send_signal(signal.SIGKILL)
            active.proc.wait()
            joined_again(other, table, 10 * args.lease_seconds + 60)
            gap = time.monotonic() - killed_at
            gaps.append(gap)
            print(f"round {round_no}: the table joined again {gap:.2f} s after SIGKILL",
                  flush=True)
            processes.remove(active)
            processes.append(Process(args, db_url, folder))
            active = other
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
