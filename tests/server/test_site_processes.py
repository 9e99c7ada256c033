"""Three real ``euchre serve`` processes on one PostgreSQL and one Redis, all serving.

Four people play an online game with their sockets spread over the three processes (the
table runs in one; the others relay). SIGKILL the table's owner mid-hand: its lease runs
out, another process's sweeper (or a reconnecting socket) takes the table over from
PostgreSQL with a higher fence, the people reconnect to the living processes and rejoin
with ``since``, and the game is played to its end; every client sees the event versions
in order with no gap (a rejoin that missed more than one event gets a snapshot). Then a
game whose only person is disconnected runs to its end by itself after its owner dies.

Real processes, sockets, PostgreSQL and Redis; the test waits for states (bounded), and
asserts nothing about time.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import secrets
import signal
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets
from site_helpers import STARTED, Served, row, serving, site_urls, wait_until

from euchre.record import GameRecord
from euchre.storage.sql import SqlStore
from euchre.table.actor.delta import Folder
from redis_fixtures import needs_redis


@pytest.fixture
def site() -> Iterator[tuple[str, str]]:
    """A fresh PostgreSQL database and the test Redis."""
    with site_urls() as urls:
        yield urls


class Player:
    """One person's client: plays random legal moves, reconnects (to a living process)
    and rejoins with ``since`` whenever its socket closes or goes quiet."""

    def __init__(self, seat: int, token: str, ws_path: str, rng: random.Random) -> None:
        self.seat, self.token, self.path, self.rng = seat, token, ws_path, rng
        self.version: int | None = None
        self.events: list[int] = []
        """Versions of the events received, in order."""
        self.gaps: list[tuple[int, int]] = []
        """(expected, received) wherever an event did not follow the one before."""
        self.actions: list[tuple[int, int, int, str]] = []
        """(version, hand number, seat, action) of every action event received."""
        self.reconnects = 0
        self.seeded = False
        """Whether this person sent a seed for the first hand."""
        self.over: dict[str, Any] | None = None
        self.folder = Folder()
        """The table folded from every socket's messages, as a page keeps it across
        reconnects (a new socket's rejoin with ``since`` may get events, no snapshot)."""

    async def run(self, ports: list[int], first: int) -> None:
        port = first
        while self.over is None:
            with contextlib.suppress(OSError, websockets.ConnectionClosed, TimeoutError):
                await self._session(port)
            if self.over is None:
                self.reconnects += 1
                port = self.rng.choice(ports)  # the living processes
                await asyncio.sleep(0.2)

    async def _session(self, port: int) -> None:
        async with websockets.connect(f"ws://127.0.0.1:{port}{self.path}",
                                      open_timeout=5) as ws:
            join: dict[str, Any] = {"type": "join", "protocol": 2, "token": self.token}
            if self.version is not None:
                join["since"] = self.version
            await ws.send(json.dumps(join))
            waiting = False
            while True:
                m = json.loads(await asyncio.wait_for(ws.recv(), 8))
                kind = m["type"]
                if kind == "error":
                    if m["code"] in ("unavailable", "table_stopped"):
                        return  # reconnect
                    if m["code"] == "illegal":
                        waiting = False  # a move raced a timeout: choose again
                        continue
                    if m["code"] == "bad_seed":
                        continue  # our seed came after the first deal: dealt without it
                    raise AssertionError(m)
                if kind == "snapshot":
                    self.version = m["version"]
                    self.folder.receive(m)
                    table = self.folder.table
                elif kind == "event":
                    if self.version is not None and m["version"] != self.version + 1:
                        self.gaps.append((self.version + 1, m["version"]))
                        return  # rejoin: a snapshot or the missing events
                    self.version = m["version"]
                    self.events.append(m["version"])
                    self.folder.receive({k: v for k, v in m.items() if k != "table"})
                    table = self.folder.table
                    ev = m["event"]
                    if ev["kind"] == "action":
                        self.actions.append((m["version"], table["hand_number"], ev["seat"],
                                             ev["action"]))
                    if ev["kind"] == "action" and ev.get("seat") == self.seat:
                        waiting = False
                else:
                    continue
                ahead = table.get("next_commitment")
                if not self.seeded and ahead and ahead["hand_number"] == 1:
                    # As a page does: the first deal waits (up to --seed-wait, 3 s) for
                    # every person's shuffle seed.
                    await ws.send(json.dumps({"type": "seed", "hand_number": 1,
                                              "seed": secrets.token_hex(32)}))
                    self.seeded = True
                if table["game_over"]:
                    self.over = table
                    return
                if m["version"] != table["version"] or waiting:
                    continue
                legal = (table.get("view") or {}).get("legal") or []
                if legal:
                    await ws.send(json.dumps({"type": "action",
                                              "action": self.rng.choice(legal)}))
                    waiting = True


def _owner(servers: list[Served], redis_url: str, table_id: str) -> Served:
    """The process holding the table's lease (its value: the owner's name, which holds its
    process id, and the fence)."""
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        value = client.get(f"euchre:lease:table:{table_id}")
    finally:
        client.close()
    assert value is not None, "nobody holds the table's lease"
    pid = int(value.decode().split(" ")[0].rsplit("-", 2)[1])
    (owner,) = [s for s in servers if s.proc.pid == pid]
    return owner


def _online_table(server: Served, seconds: float = 60) -> tuple[str, str, list[str]]:
    """An online table of four people opened and started at ``server``."""
    base = server.base
    made = httpx.post(f"{base}/api/tables", json={"kind": "online", "name": "Ann",
                                                   "seconds_per_move": seconds}).json()
    tokens = [made["token"]]
    for seat in (1, 2, 3):
        # Each guest from an address of their own (a guest holds two waiting seats at most).
        transport = httpx.HTTPTransport(local_address=f"127.0.0.{seat + 1}")
        with httpx.Client(transport=transport) as guest:
            r = guest.post(f"{base}/api/tables/{made['id']}/seats",
                           json={"seat": seat, "name": f"P{seat}"})
        assert r.status_code == 201, r.text
        tokens.append(r.json()["token"])
    r = httpx.post(f"{base}/api/tables/{made['id']}/start", json={"token": tokens[0]})
    assert r.status_code == 200, r.text
    return made["id"], made["ws"], tokens


def _in_order(some: list[tuple[int, str]], every: list[tuple[int, str]]) -> bool:
    """Whether the moves ``some`` are ``every`` with some left out (none moved or added);
    a move shown without its hidden card (``discard``) matches the stored one with it."""
    items = iter(every)
    return all(any(x[0] == y[0] and (y[1] == x[1] or y[1].startswith(x[1] + " "))
                   for y in items) for x in some)


async def _stored(db_url: str, table_id: str) -> GameRecord:
    store = await SqlStore.open(db_url, run_migrations=False)
    try:
        game = await store.get(table_id)
        assert game is not None
        return GameRecord.from_json(game.record)
    finally:
        await store.close()


@needs_redis
def test_an_online_game_over_three_processes_survives_its_owner_killed(site):
    db_url, redis_url = site
    rng = random.Random(11)
    with serving(3, db_url, redis_url, bot_delay=0.05) as servers:
        for s in servers:
            wait_until([s], STARTED)
        table_id, path, tokens = _online_table(servers[0])
        players = [Player(i, tokens[i], path, random.Random(rng.random())) for i in range(4)]
        ports = [s.port for s in servers]

        async def game() -> None:
            tasks = [asyncio.ensure_future(p.run(ports, ports[i % 3]))
                     for i, p in enumerate(players)]
            # Mid-hand: once a dozen moves are in, kill the table's owner.
            for _ in range(600):
                if max(len(p.events) for p in players) >= 12:
                    break
                await asyncio.sleep(0.05)
            # The process holding the table's lease now: under load a late renewal can
            # have moved it before the kill (a relaying process took the table over).
            owner = await asyncio.to_thread(_owner, servers, redis_url, table_id)
            owners.append(owner)
            _, fence, _ = await asyncio.to_thread(row, db_url, table_id)
            owner.proc.kill()
            owner.proc.wait()
            ports.remove(owner.port)
            at_kill.append(await asyncio.to_thread(row, db_url, table_id))
            await asyncio.wait_for(asyncio.gather(*tasks), 600)
            claimed = await asyncio.to_thread(row, db_url, table_id)
            assert claimed[1] > fence  # another process claimed it
            assert at_kill[0][1] == fence  # read before anyone took it over

        at_kill: list[tuple[int, int, str]] = []
        owners: list[Served] = []
        asyncio.run(game())
        # Save, then publish: every event the killed owner sent is in the row it left
        # (the new owner's versions jump by 1,000 from there), and every move it showed is
        # stored, in the order shown.
        stored_version, _, record_text = at_kill[0]
        stored = GameRecord.from_json(json.loads(record_text))
        hands = {i: [(s, str(a)) for s, a in h.actions]
                 for i, h in enumerate(stored.hands, 1)}
        for p in players:
            sent = [v for v in p.events if v <= stored_version + 1000]
            assert all(v <= stored_version for v in sent), (p.seat, stored_version, sent)
            shown: dict[int, list[tuple[int, str]]] = {}
            for version, hand, seat, action in p.actions:
                if version <= stored_version:
                    shown.setdefault(hand, []).append((seat, action))
            assert shown, p.seat
            for hand, moves in shown.items():
                assert _in_order(moves, hands.get(hand, [])), (p.seat, hand, moves)
        ends = {json.dumps([p.over["score"], p.over["winner"]]) for p in players
                if p.over is not None}
        assert len(ends) == 1  # every person saw the same end
        for p in players:
            assert p.gaps == [], (p.seat, p.gaps)  # events in order, none missing
            assert p.events == sorted(set(p.events))
        assert sum(p.reconnects for p in players) >= 1  # the killed process's sockets
        assert any(s.has("took over") or s.has("serving the site") for s in servers
                   if s is not owners[0])
        for _ in range(300):  # saves land behind the events: wait (bounded) for the last
            final = asyncio.run(_stored(db_url, table_id))
            if final.replay().is_over:
                break
            asyncio.run(asyncio.sleep(0.1))
        assert final.replay().is_over


@needs_redis
def test_a_paused_owner_loses_its_tables_and_writes_nothing_when_resumed(site):
    db_url, redis_url = site
    with serving(2, db_url, redis_url, bot_delay=0.05) as servers:
        for s in servers:
            wait_until([s], STARTED)
        first, second = servers
        # Nobody connects: the people's clocks (5 s a move) play the game by themselves.
        table_id, path, tokens = _online_table(first, seconds=5)
        _, fence, _ = row(db_url, table_id)
        first.proc.send_signal(signal.SIGSTOP)
        wait_until([second], "took over 1 orphaned tables")
        taken = row(db_url, table_id)
        assert taken[1] > fence

        async def move() -> int:
            """The version of the next move made at the second process (a clock's)."""
            async with websockets.connect(f"ws://127.0.0.1:{second.port}{path}") as ws:
                await ws.send(json.dumps({"type": "join", "protocol": 2, "token": tokens[0]}))
                while True:
                    m = json.loads(await asyncio.wait_for(ws.recv(), 60))
                    if m["type"] == "event" and m["event"]["kind"] == "action":
                        return int(m["version"])

        moved = asyncio.run(move())
        for _ in range(300):
            now = row(db_url, table_id)
            if now[0] >= moved:
                break
            asyncio.run(asyncio.sleep(0.1))
        # Resumed, the old owner finds its lease gone and stops the table; the row is the
        # second process's, whatever the first still had queued.
        first.proc.send_signal(signal.SIGCONT)
        wait_until([first], "lease lost")
        after = row(db_url, table_id)
        assert after[1] == taken[1] and after[0] >= moved


async def _coin_state(db_url: str, table_id: str) -> tuple[str, dict[str, Any], bool]:
    """(status, meta, balanced) of a coin table: its game row and the ledger invariant."""
    from euchre.coins.ledger import Ledger

    store = await SqlStore.open(db_url, run_migrations=False)
    try:
        game = await store.get(table_id)
        assert game is not None
        balances, entries = await Ledger(store.engine).totals()
        return game.status, game.meta, balances == entries
    finally:
        await store.close()


def _finished(db_url: str, table_id: str) -> tuple[dict[str, Any], bool] | None:
    """(meta, balanced) once the coin table is stored as finished, else None."""
    status, meta, balanced = asyncio.run(_coin_state(db_url, table_id))
    return (meta, balanced) if status == "finished" else None


def _poll(check: Any, what: str, tries: int = 1200) -> Any:
    """Poll ``check()`` until it returns something true (bounded)."""
    for _ in range(tries):
        found = check()
        if found:
            return found
        asyncio.run(asyncio.sleep(0.25))
    pytest.fail(f"never: {what}")


@needs_redis
def test_coin_games_leaving_at_three_processes_and_finishing_alone_after_a_death(site):
    db_url, redis_url = site  # a Redis of its own: the sign-up limits count from nothing
    # A 0.1 s clock (and so 0.1 s computer speed): the game nobody is connected to is
    # played by the clock, and nothing here is about its pace.
    env = {"EUCHRE_MOVE_SECONDS": "0.1", "EUCHRE_ARGON2_PROFILE": "cheapest"}
    with serving(3, db_url, redis_url, bot_delay=0.05, env=env) as servers:
        for s in servers:
            wait_until([s], STARTED)
        person = httpx.Client(base_url=servers[0].base, timeout=30)
        me = person.post("/api/accounts", json={"username": "carol",
                                                "password": "correct horse"}).json()
        csrf = {"X-CSRF-Token": me["csrf"]}
        start = me["balance"]

        # 1. The same leave request at all three processes at once: charged once, and the
        # table is closed where it runs (the first process).
        made = person.post("/api/tables", json={"kind": "coin", "stake": 100},
                           headers=csrf).json()
        assert "id" in made, made
        cookies = dict(person.cookies)

        async def leave_everywhere() -> list[httpx.Response]:
            async with asyncio.TaskGroup() as group:
                tasks = [group.create_task(httpx.AsyncClient(cookies=cookies, timeout=30).post(
                    f"{s.base}/api/tables/{made['id']}/leave", json={}, headers=csrf))
                    for s in servers]
            return [t.result() for t in tasks]

        answers = asyncio.run(leave_everywhere())
        assert all(r.status_code in (200, 409) for r in answers), [r.text for r in answers]
        fees = {r.json()["fee"] for r in answers if r.status_code == 200}
        assert len(fees) == 1  # every answer names the one fee
        fee = fees.pop()
        assert fee > 0
        meta, balanced = _poll(lambda: _finished(db_url, made["id"]), "the left table closed")
        assert meta.get("closed") == "left" and balanced
        balance = person.get("/api/me").json()["balance"]
        assert balance == start - 100 - fee  # the stake and one fee, nothing twice

        # 2. A coin game nobody is connected to, run by the second process, which dies:
        # another process takes it over and its clock and computers play it to the end.
        second = servers[1]
        person.base_url = httpx.URL(second.base)
        made = person.post("/api/tables", json={"kind": "coin", "stake": 100},
                           headers=csrf).json()
        assert made["id"]
        _poll(lambda: row(db_url, made["id"])[0] >= 5, "the game under way")
        _, fence, _ = row(db_url, made["id"])
        second.proc.kill()
        second.proc.wait()
        meta, balanced = _poll(lambda: _finished(db_url, made["id"]),
                               "the game played to its end")
        assert balanced and "closed" not in meta
        assert row(db_url, made["id"])[1] > fence  # finished by the new owner
        person.base_url = httpx.URL(servers[2].base)

        def settled() -> dict[str, Any] | None:
            # The finished game is stored before its finish hook pays out (so nobody is
            # told of the end before the balance is settled): wait for the settlement.
            games = person.get("/api/me/games").json()["games"]
            game: dict[str, Any] = next(g for g in games if g["id"] == made["id"])
            return game if game["status"] != "active" else None

        ours = _poll(settled, "the finished coin game settled")
        assert ours["status"] in ("won", "lost")  # settled once, by whoever finished it
        won = ours["status"] == "won"
        assert person.get("/api/me").json()["balance"] == balance - 100 + (200 if won else 0)


@needs_redis
def test_euchre_serve_workers_serve_one_port(site):
    import subprocess
    import sys
    from pathlib import Path

    from test_crash import free_port, play

    db_url, redis_url = site
    port = free_port()
    exe = Path(sys.executable).parent / "euchre"
    proc = subprocess.Popen(
        [str(exe), "serve", "--workers", "2", "--port", str(port), "--database-url", db_url,
         "--redis-url", redis_url, "--bot-delay", "0", "--hand-pause", "0",
         "--lease-seconds", "3"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    try:
        base = f"http://127.0.0.1:{port}"

        def ready() -> bool:
            try:
                return httpx.get(f"{base}/readyz", timeout=2).status_code == 200
            except httpx.HTTPError:
                return False

        _poll(ready, "the workers answer")
        tables = [httpx.post(f"{base}/api/tables", json={"kind": "practice"}).json()
                  for _ in range(4)]
        # Each table's socket on the one port, whichever worker takes it (relayed if needed).
        for table in tables[:2]:
            from websockets.sync.client import connect

            with connect(f"ws://127.0.0.1:{port}{table['ws']}") as ws:
                ws.send(json.dumps({"type": "join", "protocol": 2, "token": table["token"]}))
                end = play(ws, random.Random(2), moves=None)
            assert end["game_over"]
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(60) == 0
        assert proc.stderr is not None
        log = proc.stderr.read()
        assert log.count("serving the site as") == 2, log  # two processes, one site
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
