"""The table socket's session (server/tables/session.py): one handler per client message
type, who may send each, and the one mapping from a refusal to what the socket is told.

Unit tests: the table is a stand-in that records what it was asked and refuses as told
(the real table behind a real socket: tests/server/test_app.py, test_socket_rate.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from euchre.errors import DomainError
from euchre.server.tables.hints import HintService
from euchre.server.tables.session import HANDLERS, Connection, Session, refused
from euchre.server.tables.socket_guard import CLOSE_TABLE_STOPPED
from euchre.server.wire.socket import CLIENT_MESSAGES
from euchre.table.actor.errors import NotStored, TableError, TableStopped


class Table:
    """A stand-in for the table actor: records the calls, raises ``refuse`` if set."""

    def __init__(self, refuse: DomainError | None = None) -> None:
        self.refuse = refuse
        self.calls: list[tuple[Any, ...]] = []

    async def contribute(self, seat: int, hand_number: int, seed: str) -> None:
        self.calls.append(("contribute", seat, hand_number, seed))
        if self.refuse is not None:
            raise self.refuse

    async def go_on(self, seat: int, hand_number: int) -> None:
        self.calls.append(("go_on", seat, hand_number))
        if self.refuse is not None:
            raise self.refuse


def sent(conn: Connection) -> list[dict[str, Any]]:
    """The messages queued for ``conn`` (the close marker left out)."""
    out = []
    while not conn.outbox.empty():
        text = conn.outbox.get_nowait()
        if text is not None:
            out.append(json.loads(text))
    return out


def session(table: Table, *, seat: int | None = None, watching: bool = False) -> Session:
    conn = Connection(None)  # type: ignore[arg-type]  # nothing is written: read the outbox
    conn.seat, conn.watching = seat, watching
    return Session(conn, table, HintService(1.0))  # type: ignore[arg-type]


def test_every_client_message_type_has_one_handler() -> None:
    assert set(HANDLERS) == set(CLIENT_MESSAGES)


def test_a_refusal_is_told_by_one_mapping() -> None:
    conn = Connection(None)  # type: ignore[arg-type]
    refused(conn, TableError("not your turn"))
    refused(conn, TableError("bad seed"), "bad_seed")
    refused(conn, NotStored("try again"), "bad_seed")  # not the message's fault
    assert [(m["code"], m["message"]) for m in sent(conn)] == [
        ("illegal", "not your turn"), ("bad_seed", "bad seed"), ("not_stored", "try again")]
    assert conn.close_with is None
    refused(conn, TableStopped("stopped"), "bad_seed")
    assert [m["code"] for m in sent(conn)] == ["table_stopped"]
    assert conn.close_with is not None and conn.close_with.code == CLOSE_TABLE_STOPPED


@pytest.mark.parametrize(("refusal", "code"), [
    (TableError("that seed is not hex"), "bad_seed"),
    (NotStored("the database is not answering"), "not_stored"),
    (TableStopped("the table has stopped"), "table_stopped"),
])
async def test_a_seed_refused_is_told_with_its_code(refusal: DomainError, code: str) -> None:
    table = Table(refuse=refusal)
    s = session(table, seat=2)
    await s.handle('{"type": "seed", "hand_number": 1, "seed": "ab"}')
    assert table.calls == [("contribute", 2, 1, "ab")]
    assert [(m["code"], m["message"]) for m in sent(s.conn)] == [(code, refusal.message)]


async def test_who_may_send_what() -> None:
    table = Table()
    watcher = session(table, watching=True)
    await watcher.handle('{"type": "ping"}')
    await watcher.handle('{"type": "continue", "hand_number": 1}')
    await watcher.handle('{"type": "join", "token": "t", "protocol": 2}')
    assert [m["type"] if m["type"] != "error" else m["code"] for m in sent(watcher.conn)] \
        == ["pong", "spectator", "spectator"]
    newcomer = session(table)
    await newcomer.handle('{"type": "continue", "hand_number": 1}')
    assert [m["code"] for m in sent(newcomer.conn)] == ["not_joined"]
    assert table.calls == []  # nothing reached the table
    seated = session(table, seat=1)
    await seated.handle('{"type": "continue", "hand_number": 3}')
    assert table.calls == [("go_on", 1, 3)] and sent(seated.conn) == []
