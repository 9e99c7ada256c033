"""The lobby: open online tables kept in a store (in memory, and real SQLite), each change
written over the version it read and announced to the listeners; Play now seats people at
the oldest matching quick table or opens one; expiry on the lobby's injected clock.
A refusal writes nothing and announces nothing."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from euchre.storage.open_tables import MemoryOpenTableStore, OpenTableStore
from euchre.storage.open_tables_sql import SqlOpenTableStore
from euchre.storage.sql import SqlStore, make_engine
from euchre.table.kinds.lobby import QUICK_SAME_SOURCE, Lobby
from euchre.table.kinds.online import (
    BotSeat,
    OnlineConflict,
    OnlineForbidden,
    OnlineNotFound,
    OnlineOptions,
    OpenTable,
    SameSource,
)
from redis_fixtures import FakeClock


class Heard:
    """A listener keeping (table id, status or None once gone, why) of each announcement."""

    def __init__(self, lobby: Lobby) -> None:
        self.heard: list[tuple[str, str | None, str]] = []
        lobby.listeners.append(self)

    async def __call__(self, table: OpenTable | None, table_id: str, why: str) -> None:
        self.heard.append((table_id, table.status() if table else None, why))

    def take(self) -> list[tuple[str, str | None, str]]:
        """What was announced since the last look."""
        out, self.heard = self.heard, []
        return out


@pytest.fixture(params=["memory", "sqlite"])
async def store(request: pytest.FixtureRequest, tmp_path: Path
                ) -> AsyncIterator[OpenTableStore]:
    """An empty store of open tables: in memory, or a migrated SQLite database."""
    if request.param == "memory":
        yield MemoryOpenTableStore()
        return
    url = f"sqlite+aiosqlite:///{tmp_path}/lobby.db"
    await (await SqlStore.open(url)).close()  # migrates
    engine = make_engine(url)
    try:
        yield SqlOpenTableStore(engine)
    finally:
        await engine.dispose()


@pytest.fixture
def clock() -> FakeClock:
    """The lobby's clock."""
    return FakeClock(1000.0)


@pytest.fixture
def lobby(store: OpenTableStore, clock: FakeClock) -> Lobby:
    """A lobby on the store and the fake clock."""
    return Lobby(store, now=clock, open_for=3600, alone_for=600, limit=3)


async def test_an_expired_table_is_swept_and_announced() -> None:
    clock = FakeClock(1000.0)
    lobby = Lobby(now=clock, open_for=3600, alone_for=600)
    heard: list[tuple[str, str]] = []

    async def listen(table: Any, table_id: str, why: str) -> None:
        heard.append((table_id, why))

    lobby.listeners.append(listen)
    alone, _ = await lobby.create(OnlineOptions(name="Ann"), quick=True)
    joined, _ = await lobby.create(OnlineOptions(name="Bo"))
    await lobby.claim(joined.id, 1, "Cy")
    heard.clear()
    clock.advance(601)
    assert [t.id for t in await lobby.open_tables()] == [joined.id]
    assert await lobby.sweep() == 1 and heard == [(alone.id, "expired")]
    clock.advance(3000)
    assert await lobby.sweep() == 1 and await lobby.open_tables() == []


async def test_opening_and_claiming_are_stored_and_announced(lobby: Lobby) -> None:
    heard = Heard(lobby)
    table, token = await lobby.create(OnlineOptions(name="Ann"), creator="ip:1")
    assert heard.take() == [(table.id, "open", "")]
    claimed, bo = await lobby.claim(table.id, 2, "Bo", holder="ip:2")
    assert heard.take() == [(table.id, "open", "")]
    stored = await lobby.get(table.id)
    assert stored.version == claimed.version == 1
    assert stored.seat_of(token) == 0 and stored.seat_of(bo) == 2
    assert [t.id for t in await lobby.open_by("ip:1")] == [table.id]
    assert [t.id for t in await lobby.seats_held("ip:2")] == [table.id]
    assert await lobby.seats_held("ip:1") == []  # the creator's own seat is not counted
    with pytest.raises(OnlineNotFound, match="no open online table 'nope'"):
        await lobby.get("nope")


async def test_refusals_write_nothing_and_announce_nothing(lobby: Lobby) -> None:
    heard = Heard(lobby)
    with pytest.raises(OnlineForbidden, match="rated tables are for signed-in people"):
        await lobby.create(OnlineOptions(rated=True))
    with pytest.raises(OnlineForbidden, match="tables with a stake"):
        await lobby.create(OnlineOptions(stake=5))
    with pytest.raises(OnlineForbidden, match="bots hold no play coins"):
        await lobby.create(OnlineOptions(stake=5), account=1, bot=BotSeat(1, 2))
    assert await lobby.waiting() == [] and heard.take() == []
    table, _ = await lobby.create(OnlineOptions(name="Ann"))
    await lobby.claim(table.id, 1, "Bo")
    heard.take()
    with pytest.raises(OnlineConflict, match="West is taken"):
        await lobby.claim(table.id, 1, "Cy")
    with pytest.raises(OnlineForbidden, match="holds no seat"):
        await lobby.leave(table.id, "not-a-token")
    with pytest.raises(OnlineConflict, match="checked and refused"):
        await lobby.start(table.id, _refuse)
    assert heard.take() == []
    after = await lobby.get(table.id)
    assert after.version == 1 and not after.started


def _refuse(table: OpenTable) -> None:
    raise OnlineConflict("checked and refused")


async def test_a_capped_number_of_tables_wait_at_once(lobby: Lobby) -> None:
    for _ in range(3):
        await lobby.create(OnlineOptions())
    with pytest.raises(OnlineConflict, match="too many online tables"):
        await lobby.create(OnlineOptions())
    assert len(await lobby.waiting()) == 3


async def test_play_now_seats_people_at_the_oldest_matching_table(lobby: Lobby,
                                                                  clock: FakeClock) -> None:
    opened: list[int] = []

    async def may_open() -> None:
        opened.append(1)

    first, seat, _ = await lobby.quick_seat(OnlineOptions(name="Ann"), 1, "account:1",
                                            may_open)
    assert seat == 0 and first.quick and opened == [1]
    clock.advance(1)
    other, _, _ = await lobby.quick_seat(OnlineOptions(name="Cy", seconds_per_move=60), 3,
                                         "account:3", may_open)
    assert other.id != first.id and opened == [1, 1]  # another clock: another table
    table, seat, token = await lobby.quick_seat(OnlineOptions(name="Bo"), 2, "account:2",
                                                may_open)
    assert (table.id, seat) == (first.id, 1) and opened == [1, 1]  # sat down: none opened
    assert table.seat_of(token) == 1
    found = await lobby.quick_seat_of(OnlineOptions(), 2)
    assert found is not None and (found[0].id, found[1]) == (first.id, 1)
    assert await lobby.quick_seat_of(OnlineOptions(stake=5), 2) is None
    assert [(t.id, s) for t, s in await lobby.seats_of(2)] == [(first.id, 1)]


async def test_play_now_never_matches_an_account_with_itself(lobby: Lobby) -> None:
    first, _, _ = await lobby.quick_seat(OnlineOptions(name="Ann"), 1, "account:1")
    # the same account again: the one waiting table holds the match key, so no second
    with pytest.raises(OnlineConflict, match="you already wait at a quick-play table"):
        await lobby.quick_seat(OnlineOptions(name="Ann"), 1, "account:1")
    assert [t.id for t in await lobby.waiting()] == [first.id]
    assert (await lobby.get(first.id)).seated() == 1
    with pytest.raises(OnlineForbidden, match="rated tables are for signed-in people"):
        await lobby.quick_seat(OnlineOptions(rated=True), None, "ip:9")


async def test_a_rated_quick_table_never_seats_one_network_twice(lobby: Lobby) -> None:
    rated = OnlineOptions(rated=True)
    await lobby.quick_seat(rated, 1, "account:1", sources=lambda _: ["net-a"])
    with pytest.raises(SameSource, match=re.escape(QUICK_SAME_SOURCE)):
        await lobby.quick_seat(rated, 2, "account:2", sources=lambda _: ["net-a"])
    assert [t.seated() for t in await lobby.waiting()] == [1]


async def test_a_quick_table_left_empty_is_gone(lobby: Lobby) -> None:
    heard = Heard(lobby)
    table, _, ann = await lobby.quick_seat(OnlineOptions(name="Ann"), None, "ip:1")
    _, _, bo = await lobby.quick_seat(OnlineOptions(name="Bo"), None, "ip:2")
    heard.take()
    left, seat = await lobby.leave(table.id, ann)
    assert seat == 0 and left.seated() == 1 and heard.take() == [(table.id, "open", "")]
    await lobby.leave(table.id, bo)
    assert heard.take() == [(table.id, None, "empty")]
    with pytest.raises(OnlineNotFound):
        await lobby.get(table.id)


async def test_a_full_table_given_back_a_seat_while_another_waits_is_refused(
        lobby: Lobby) -> None:
    tokens = []
    for n in range(4):
        table, _, token = await lobby.quick_seat(OnlineOptions(name=f"P{n}"), None, f"ip:{n}")
        tokens.append(token)
    assert table.seated() == 4 and table.ready()
    newer, _, _ = await lobby.quick_seat(OnlineOptions(name="P5"), None, "ip:5")
    assert newer.id != table.id
    with pytest.raises(OnlineConflict, match="another table with these settings is waiting"):
        await lobby.leave(table.id, tokens[1])
    assert (await lobby.get(table.id)).seated() == 4


async def test_start_announce_live_unstart_and_finish(lobby: Lobby) -> None:
    heard = Heard(lobby)
    public, _ = await lobby.create(OnlineOptions(name="Ann"))
    private, _ = await lobby.create(OnlineOptions(name="Bo", spectators=False))
    heard.take()
    started = await lobby.start(public.id, lambda t: None)
    assert started.started and started.started_at == 1000.0
    assert heard.take() == []  # not until the caller opened the game
    await lobby.announce(started)
    assert heard.take() == [(public.id, "started", "")]
    await lobby.start(private.id, lambda t: None)
    assert [t.id for t in await lobby.live()] == [public.id]  # a private game is not shown
    assert await lobby.waiting() == []
    await lobby.unstart(private.id)
    assert [t.id for t in await lobby.waiting()] == [private.id]
    heard.take()
    await lobby.finished(public.id)
    assert heard.take() == [(public.id, None, "finished")] and await lobby.live() == []
    await lobby.finished(public.id)  # already gone: nothing more
    assert heard.take() == []


async def test_cancel_and_agree_through_the_lobby(lobby: Lobby) -> None:
    invite, ann = await lobby.create(OnlineOptions(name="Ann"))
    cancelled = await lobby.cancel(invite.id, ann)
    assert cancelled.status() == "cancelled" and await lobby.waiting() == []
    table, _, cy = await lobby.quick_seat(OnlineOptions(name="Cy"), None, "ip:3")
    agreed, seat = await lobby.agree(table.id, cy)
    assert seat == 0 and agreed.agreed[0] and agreed.ready()


async def test_tables_survive_a_new_lobby_on_the_same_database(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/again.db"
    await (await SqlStore.open(url)).close()
    first = make_engine(url)
    try:
        lobby = Lobby(SqlOpenTableStore(first))
        table, ann = await lobby.create(OnlineOptions(name="Ann", seconds_per_move=45))
        await lobby.claim(table.id, 3, "Di")
    finally:
        await first.dispose()
    second = make_engine(url)
    try:
        again = await Lobby(SqlOpenTableStore(second)).get(table.id)
        assert again.seat_of(ann) == 0 and again.version == 1
        assert again.options.seconds_per_move == 45
        assert [p[0] if p else None for p in again.people] == ["Ann", None, None, "Di"]
    finally:
        await second.dispose()
