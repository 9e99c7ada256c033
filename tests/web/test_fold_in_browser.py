"""The browser folds the table socket's messages exactly as
:class:`~euchre.table.actor.delta.Folder`
does: a whole online game's messages (four people and a spectator, a real ``TableActor`` on a
fake clock) fed to ``static/js/connection.js``'s ``TableConnection`` give, after every message,
the table the Python folder gives (and the observer's own table at the end)."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from playwright.sync_api import Page

from euchre.table.actor.actor import TableActor
from euchre.table.actor.delta import Folder
from euchre.table.actor.deps import TableDeps
from euchre.table.actor.pacing import ManualScheduler, Pacing
from euchre.table.kinds.online import ONLINE_KIND, OnlineOptions, online_policy
from online_registry import MemoryOnlineTables

pytestmark = pytest.mark.browser


class Reader:
    """A subscriber that keeps the text a socket would send."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.texts: list[str] = []

    def send(self, message: Any) -> None:
        self.texts.append(message.text)


async def recorded_game(seed: int) -> list[Reader]:
    """A whole four-person online game with a spectator; each reader's texts."""
    registry = MemoryOnlineTables(now=lambda: 0.0)
    opened, token = registry.create(OnlineOptions(seconds_per_move=30.0, name="Ann"),
                                    table_id=f"f{seed}")
    for seat, name in ((1, "Bob"), (2, "Cy"), (3, "Di")):
        registry.claim(opened.id, seat, name)
    registry.start(opened.id, token)
    config = opened.config()
    sched = ManualScheduler()
    counter = itertools.count()
    actor = TableActor(config, TableDeps(
        scheduler=sched, pacing=Pacing(bot_delay=0.5, hand_pause=2.0),
        policy=online_policy(config), kind=ONLINE_KIND,
        seed_source=lambda: f"fold-{seed}-{next(counter)}"))
    readers = [Reader(s) for s in range(4)] + [Reader(None)]
    actor.start()
    for reader in readers[:4]:
        await actor.join(reader)
    await actor.watch(readers[4])
    rng = random.Random(seed)
    while not actor.game.is_over:
        await actor.settle()
        to_act = actor.game.to_act
        view = actor.view(to_act) if to_act is not None else None
        if to_act is not None and view is not None and view.legal \
                and not actor.game.needs_deal:
            await actor.act(to_act, str(rng.choice(view.legal)))
            continue
        due = sched.next_due()
        assert due is not None
        sched.advance(due - sched.now())
    await actor.settle()
    await actor.stop()
    return readers


def test_the_browser_folds_every_message_as_the_python_folder(page: Page) -> None:
    with ThreadPoolExecutor(1) as pool:  # (the page's own loop runs in this thread)
        readers = pool.submit(asyncio.run, recorded_game(7)).result()
    page.goto("/")
    for reader in (readers[1], readers[4]):  # a seat, and the spectator
        messages = [json.loads(t) for t in reader.texts]
        folder = Folder()
        expected: list[Any] = []
        for m in messages:
            folder.receive(m)
            expected.append(json.loads(json.dumps(folder.table)))
        got = page.evaluate("""async (messages) => {
          const { TableConnection } = await import("/static/js/connection.js");
          const tables = [];
          const c = new TableConnection("t", null, {onTable: () => {}});
          for (const m of messages) {
            c.receive(m);
            tables.push(c.table === null ? null : JSON.parse(JSON.stringify(c.table)));
          }
          return tables;
        }""", messages)
        assert len(got) == len(expected) and len(got) > 200
        for i, (js, py) in enumerate(zip(got, expected, strict=True)):
            assert js == py, (reader.seat, i, messages[i])
        assert expected[-1]["game_over"]
