"""deploy/nginx.conf in front of two real ``euchre serve`` processes of one site: a game
played over a WebSocket through nginx; the active process killed; the same URL, through
nginx, reaches the process that took over, and the game ends there. And the routing by
table id: every socket of a table reaches the process that runs it, so nothing is relayed
(the relayed messages counted by the processes' ``/metrics``; plain round robin relays).

The configuration is the deploy file with only what Docker provides replaced: the app
addresses (loopback ports instead of app1..3 through Docker's DNS), the listening port,
and file paths in a temporary folder.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import socket
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from site_helpers import STARTED, persons_turn, serving, site_urls, wait_until
from test_crash import free_port, play
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import connect

from folding import carry_table
from redis_fixtures import needs_redis

DEPLOY = Path(__file__).parents[2] / "deploy" / "nginx.conf"

TOKEN = "scrape"
"""The processes' ``/metrics`` token."""


def local_config(ports: list[int], listen: int, folder: Path) -> str:
    """deploy/nginx.conf for loopback processes on ``ports``, listening on ``listen``."""
    text = DEPLOY.read_text()
    text = re.sub(r"\n\s*resolver [^;]*;", "", text)
    upstream = re.findall(r"\n\s*server app\d:8000 resolve ([^;]*);", text)
    assert len(upstream) >= len(ports)
    params = upstream[0]
    text = re.sub(r"\n\s*server app\d:8000 resolve [^;]*;", "", text)
    servers = "".join(f"\n        server 127.0.0.1:{port} {params};" for port in ports)
    text = text.replace("zone euchre 64k;", "zone euchre 64k;" + servers)
    text = text.replace("listen 80;", f"listen 127.0.0.1:{listen};")
    text = text.replace("http {", f"http {{\n    access_log off;\n"
                        f"    client_body_temp_path {folder}/body;\n"
                        f"    proxy_temp_path {folder}/proxy;", 1)
    return f"pid {folder}/nginx.pid;\nerror_log {folder}/error.log;\n" + text


@pytest.fixture
def nginx_exe() -> str:
    exe = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists()
                                    else None)
    if exe is None:
        pytest.skip("nginx is not installed (scripts/test installs it)")
    return exe


@contextmanager
def running_nginx(exe: str, config: str, folder: Path, port: int) -> Iterator[None]:
    path = folder / "nginx.conf"
    path.write_text(config)
    check = subprocess.run([exe, "-t", "-c", str(path), "-p", str(folder)],
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    proc = subprocess.Popen([exe, "-c", str(path), "-p", str(folder), "-g", "daemon off;"],
                            stderr=subprocess.PIPE, text=True)
    try:
        while True:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            threading.Event().wait(0.05)
        yield
    finally:
        proc.terminate()
        proc.wait(30)


@needs_redis
def test_a_game_through_nginx_survives_a_killed_process(nginx_exe, tmp_path):
    rng = random.Random(3)
    with site_urls() as (db_url, redis_url), \
            serving(2, db_url, redis_url, bot_delay=0.1) as servers:
        for s in servers:
            wait_until([s], STARTED)  # every process serves
        first = servers[0]
        port = free_port()
        config = local_config([s.port for s in servers], port, tmp_path)
        with running_nginx(nginx_exe, config, tmp_path, port):
            base = f"http://127.0.0.1:{port}"
            table = httpx.post(f"{base}/api/tables", json={"kind": "practice"}).json()
            with connect(f"ws://127.0.0.1:{port}{table['ws']}") as ws:  # upgraded via nginx
                ws.send(json.dumps({"type": "join", "protocol": 2, "token": table["token"]}))
                play(ws, rng, moves=5)
                persons_turn(ws)
            first.proc.kill()  # the table's owner, or the process relaying to it
            first.proc.wait()
            end: dict[str, object] = {}
            last = ws
            for _ in range(100):  # reconnect, as the page does, until the game is over
                try:
                    with connect(f"ws://127.0.0.1:{port}{table['ws']}") as ws:
                        # The page keeps its table and rejoins since the version it holds:
                        # the events after it come onto that table (a snapshot if the
                        # process that has the table now has not kept them).
                        since = carry_table(last, ws)
                        last = ws
                        ws.send(json.dumps({"type": "join", "protocol": 2,
                                            "token": table["token"], "since": since}))
                        end = play(ws, rng, moves=None)
                        break
                except (ConnectionClosed, InvalidHandshake, ConnectionError):
                    # ConnectionError, not OSError: a client's wait that ran out is a
                    # TimeoutError (an OSError) and fails the test (test_crash.receive)
                    threading.Event().wait(0.2)
            assert end["game_over"] and end["winner"] in (0, 1)
            ready = httpx.get(f"{base}/readyz").json()
            assert ready["ready"] is True
            assert {k: ready[k] for k in ("database", "redis", "relays")} == {
                "database": "ok", "redis": "ok", "relays": "ok"}


def _counted(bases: list[str], name: str) -> float:
    """The sum over the processes at ``bases`` of the metric samples named ``name``."""
    total = 0.0
    for base in bases:
        text = httpx.get(f"{base}/metrics", headers={"Authorization": f"Bearer {TOKEN}"}).text
        total += sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
                     if line.startswith(name))
    return total


def _two_tabs(base: str, ws_base: str, rng: random.Random, tables: int) -> None:
    """Open ``tables`` practice tables through the proxy at ``base``; at each, play a few
    moves from one socket, then more from a second one (another tab of the same seat)
    while the first stays open."""
    for _ in range(tables):
        table = httpx.post(f"{base}/api/tables", json={"kind": "practice"}).json()
        # The first tab is left unread while the second plays: a client that reads its
        # messages only when asked stops reading after max_queue of them (16) and so
        # misses the server's close, waiting close_timeout (10 s) on the way out.
        with connect(f"{ws_base}{table['ws']}", max_queue=None) as first:
            first.send(json.dumps({"type": "join", "protocol": 2, "token": table["token"]}))
            play(first, rng, moves=2)
            with connect(f"{ws_base}{table['ws']}") as second:
                second.send(json.dumps({"type": "join", "protocol": 2, "token": table["token"]}))
                for _ in range(3):
                    now = persons_turn(second)
                    if now["game_over"]:
                        break
                    second.send(json.dumps({"type": "action",
                                            "action": rng.choice(now["view"]["legal"])}))
                persons_turn(second)  # the last move seen


@needs_redis
def test_through_nginx_a_tables_sockets_reach_its_owner_and_nothing_is_relayed(
        nginx_exe, tmp_path):
    """The deploy file routes by table id: every socket of a table lands on the process
    that runs it, so no message is relayed. The same moves through plain round robin (the
    file with its ``hash`` line taken out) relay some: the counter counts."""
    rng = random.Random(5)
    with site_urls() as (db_url, redis_url), \
            serving(2, db_url, redis_url, bot_delay=0.01,
                    env={"EUCHRE_METRICS_TOKEN": TOKEN}) as servers:
        for s in servers:
            wait_until([s], STARTED)
        bases = [f"http://127.0.0.1:{s.port}" for s in servers]
        shares = {}
        for routing in ("hash", "round robin"):
            port = free_port()
            folder = tmp_path / routing.replace(" ", "_")
            folder.mkdir()
            config = local_config([s.port for s in servers], port, folder)
            if routing == "round robin":
                config = re.sub(r"\n\s*hash \$\w+ consistent;", "", config)
            relayed = _counted(bases, "euchre_relayed_messages_total")
            moves = _counted(bases, 'euchre_moves_total{by="person"}')
            with running_nginx(nginx_exe, config, folder, port):
                _two_tabs(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}", rng, 4)
            relayed = _counted(bases, "euchre_relayed_messages_total") - relayed
            moves = _counted(bases, 'euchre_moves_total{by="person"}') - moves
            shares[routing] = (relayed, moves)
        print("relayed messages / person moves:", shares)
        assert shares["hash"][1] >= 20 and shares["hash"][0] == 0
        assert shares["round robin"][0] > 0  # without routing, some are relayed
