"""Hints are shared fairly (issue 20 item 5): three people flooding hint asks from four
sockets each cannot keep a fourth person from their hint, and a person's one place holds
across two real processes on one Redis.

The analysis is a stand-in the test lets go of one at a time (it records whose decision it
was given), so the order in which asks are worked out is asserted, never time.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from site_helpers import STARTED, serving, site_urls, wait_until
from websockets.asyncio.client import ClientConnection, connect

from euchre.cards import card_text
from euchre.server import Given, Settings, create_app
from euchre.server.tables import hints
from euchre.server.tables.practice_api import practice_extension
from euchre.server.tables.socket_guard import SocketGuard, SocketLimits
from euchre.server.tables.socket_rate import MessageRate
from live_server import live_server

FLOODERS = ["127.0.0.31", "127.0.0.32", "127.0.0.33"]
"""Three flooding people (guests: a person is their address)."""

SOCKETS_EACH = 4
"""Each flooder's sockets, each at a table of its own."""

FOURTH = "127.0.0.34"
"""The person who asks once."""


class HeldAnalysis:
    """Stands in for the analysis: each records whose hand it was given, then waits until
    the test lets one go."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        import euchre.bots.hints as analysis

        self.go = threading.Semaphore(0)
        self.started = threading.Semaphore(0)
        self.hands: list[tuple[str, ...]] = []
        self.stop = threading.Event()
        monkeypatch.setattr(analysis, "analyse", self.analyse)

    def analyse(self, view: Any, budget: float) -> list[Any]:
        self.hands.append(tuple(sorted(card_text(c) for c in view.hand)))
        self.started.release()
        while not self.go.acquire(timeout=0.1):
            if self.stop.is_set():
                break
        return []


def ws_from(address: str, url: str) -> Any:
    """A socket to ``url`` whose connection comes from ``address``."""
    return connect(url, local_addr=(address, 0), max_size=2**22)


async def at_my_turn(base: str, address: str) -> tuple[ClientConnection, tuple[str, ...]]:
    """A practice table opened and joined from ``address``, read until the person's turn;
    the socket and the person's hand."""
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(base_url=base, transport=transport) as http:
        r = await http.post("/api/tables", json={"kind": "practice", "partner": "easy",
                                                 "left": "easy", "right": "easy"})
        assert r.status_code == 201, r.text
        made = r.json()
    ws = await ws_from(address, base.replace("http://", "ws://") + made["ws"])
    await ws.send(json.dumps({"type": "join", "protocol": 2, "token": made["token"]}))
    while True:
        m = json.loads(await asyncio.wait_for(ws.recv(), 30))
        assert m["type"] != "error", m
        t = m.get("table")
        if t and m["version"] == t["version"] and t["view"] and t["view"]["legal"]:
            return ws, tuple(sorted(t["view"]["hand"]))


async def answer(ws: ClientConnection) -> dict[str, Any]:
    """The next hint or refusal on ``ws`` (the caller bounds the wait)."""
    while True:
        m: dict[str, Any] = json.loads(await ws.recv())
        if m["type"] in ("hint", "error"):
            return m


async def until(condition: Any, state: Any = None) -> None:
    """Wait (bounded) until ``condition()`` holds; ``state()`` says what held instead."""
    for _ in range(1000):
        if condition():
            return
        await asyncio.sleep(0.01)
    pytest.fail(f"the condition never held: {state() if state else ''}")


@contextlib.asynccontextmanager
async def flooding(base: str, sockets: list[tuple[str, ClientConnection]],
                   answers: list[tuple[str, str]]) -> AsyncIterator[None]:
    """Each socket asks for a hint, and again as soon as it is answered, until the block
    ends; ``answers`` gets (person, "hint" or the refusal) in the order they came."""

    async def flood(person: str, ws: ClientConnection) -> None:
        while True:
            await ws.send(json.dumps({"type": "hint"}))
            m = await answer(ws)
            answers.append((person, "hint" if m["type"] == "hint" else m["message"]))
            if m["type"] == "error" and "already have a hint" in m["message"]:
                await asyncio.sleep(0.01)  # a real flood would not wait; it changes nothing

    tasks = [asyncio.create_task(flood(person, ws)) for person, ws in sockets]
    try:
        yield
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.wait(tasks, timeout=10)


async def test_three_flooding_people_cannot_keep_a_fourth_from_their_hint(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("euchre.bots.hints")
    held = HeldAnalysis(monkeypatch)
    service = hints.HintService(600.0)  # the stand-in is let go by the test
    # The sockets' message rate would close the flooding sockets before long (item 4):
    # here the queue has to hold by itself, so the rate is out of reach.
    guard = SocketGuard(SocketLimits(
        table_rate=MessageRate(burst=1_000_000, per_second=1_000_000.0)))
    app = create_app(Settings(bot_delay=0.0, hand_pause=0.0, database_url="memory:"),
                     [practice_extension()], given=Given(hints=service, socket_guard=guard))
    with live_server(app) as base:
        whose: dict[tuple[str, ...], str] = {}
        flooders: list[tuple[str, ClientConnection]] = []
        for person in FLOODERS:
            for _ in range(SOCKETS_EACH):
                ws, hand = await at_my_turn(base, person)
                whose[hand] = person
                flooders.append((person, ws))
        fourth, hand = await at_my_turn(base, FOURTH)
        whose[hand] = FOURTH
        assert len(whose) == len(FLOODERS) * SOCKETS_EACH + 1  # every hand tells its person
        answers: list[tuple[str, str]] = []
        try:
            async with asyncio.timeout(120), flooding(base, flooders, answers):
                # Two flooders' asks are worked out, the third flooder's waits.
                def state() -> Any:
                    return (service.queue.running(), service.queue.queued(),
                            service.queue.started, held.hands, answers[-5:])

                await until(lambda: service.queue.running() == 2
                            and service.queue.queued() == 1, state)
                await fourth.send(json.dumps({"type": "hint"}))
                await until(lambda: service.queue.queued() == 2, state)
                # Let the analyses go one at a time; each freed place goes to the next.
                while FOURTH not in [whose[h] for h in held.hands]:
                    assert len(held.hands) < 10, held.hands
                    await asyncio.to_thread(held.started.acquire)  # the running ones
                    before = len(held.hands)
                    held.go.release()
                    await until(lambda: len(held.hands) > before, state)  # noqa: B023
                held.stop.set()  # every analysis may finish now
                got = await answer(fourth)
        finally:
            held.stop.set()
        for _, ws in [*flooders, ("", fourth)]:
            await ws.close()
    started = [whose[h] for h in held.hands]
    # Each flooding person was served once, then the fourth, before any flooder's second.
    assert sorted(started[:3]) == FLOODERS and started[3] == FOURTH, started
    assert got["type"] == "hint"
    assert service.queue.started[:4] == [f"address:{p}" for p in started[:4]]
    # The flooders' other sockets were told they already have one.
    refused = [a for a in answers if a[1] != "hint"]
    assert refused and all(a[1] == hints.OWN_SHARE for a in refused), {a[1] for a in refused}


# -- two real processes on one Redis -----------------------------------------------------

STAND_IN = '''
import os
import pathlib
import time

import euchre.bots.hints as analysis
import euchre.server.tables.hints as service
from euchre.cards import card_text

GATE = pathlib.Path(os.environ["EUCHRE_TEST_HINT_GATE"])
service.GRACE = 600.0  # the test lets the analysis go


def analyse(view, budget):
    with open(GATE / "started", "a") as f:
        hand = " ".join(sorted(card_text(c) for c in view.hand))
        f.write(f"{os.getpid()} {hand}\\n")
    while not (GATE / "go").exists():
        time.sleep(0.02)
    return []


analysis.analyse = analyse
'''


@pytest.fixture
def gate(tmp_path: Path) -> Iterator[Path]:
    """A folder with ``sitecustomize.py`` putting the stand-in into a process."""
    (tmp_path / "sitecustomize.py").write_text(STAND_IN)
    yield tmp_path
    (tmp_path / "go").touch()  # nothing stays held


def started_hands(gate: Path) -> list[str]:
    """The hands the processes' analyses were given, in order."""
    path = gate / "started"
    return path.read_text().splitlines() if path.exists() else []


def test_a_persons_one_place_holds_across_two_processes(gate: Path) -> None:
    pytest.importorskip("euchre.bots.hints")
    with site_urls() as (db_url, redis_url), \
            serving(2, db_url, redis_url, 0.0, env={"PYTHONPATH": str(gate),
                                                     "EUCHRE_TEST_HINT_GATE": str(gate)}
                    ) as servers:
        for s in servers:
            wait_until([s], STARTED)
        hands = asyncio.run(_one_place_at_two(gate, servers[0].base, servers[1].base))
        a, b = (s.proc.pid for s in servers)
    # Worked out where each table runs: the refusal at B came from the mark in Redis.
    assert started_hands(gate) == [f"{a} {hands[0]}", f"{b} {hands[1]}", f"{b} {hands[2]}"]


async def _one_place_at_two(gate: Path, a: str, b: str) -> list[str]:
    """A person asks at process A, then at B (refused), another person at B (served);
    after A's answer the person asks at B again (served). The hands worked out, in the
    order they should have been."""
    person, other = "127.0.0.41", "127.0.0.42"
    at_a, hand_a = await at_my_turn(a, person)  # a table run by each process
    at_b, hand_b = await at_my_turn(b, person)
    other_b, hand_other = await at_my_turn(b, other)
    await at_a.send(json.dumps({"type": "hint"}))
    await until(lambda: len(started_hands(gate)) == 1)  # worked out at process A
    await at_b.send(json.dumps({"type": "hint"}))  # the same person at process B
    refused = await asyncio.wait_for(answer(at_b), 60)
    assert refused["type"] == "error" and refused["message"] == hints.OWN_SHARE
    await other_b.send(json.dumps({"type": "hint"}))  # B serves others meanwhile
    await until(lambda: len(started_hands(gate)) == 2)
    (gate / "go").touch()
    assert (await asyncio.wait_for(answer(at_a), 60))["type"] == "hint"
    assert (await asyncio.wait_for(answer(other_b), 60))["type"] == "hint"
    await at_b.send(json.dumps({"type": "hint"}))  # A gave the place back, site-wide
    assert (await asyncio.wait_for(answer(at_b), 60))["type"] == "hint"
    for ws in (at_a, at_b, other_b):
        await ws.close()
    return [" ".join(h) for h in (hand_a, hand_other, hand_b)]
