"""Client messages: each is parsed into a typed value, or refused with a clear reason."""

from __future__ import annotations

import pytest

from euchre.server.wire.common import BadRequest
from euchre.server.wire.socket import (
    MAX_MESSAGE_BYTES,
    Act,
    Hint,
    Join,
    Ping,
    parse_client_message,
)


def test_each_message_type_parses() -> None:
    assert parse_client_message('{"type": "join", "protocol": 2, "token": "T"}') == Join(
        "T", None, 2)
    assert parse_client_message(
        '{"type": "join", "protocol": 2, "token": "T", "since": 4}') == Join("T", 4, 2)
    # no token: the signed-in person's own seat (the socket's session says whose)
    assert parse_client_message('{"type": "join", "protocol": 2, "since": 2}') == Join(None, 2, 2)
    assert parse_client_message('{"type": "action", "action": "play JH"}') == Act("play JH")
    assert parse_client_message('{"type": "hint"}') == Hint()
    assert parse_client_message(b'{"type": "ping"}') == Ping()
    # the type need not come first
    assert parse_client_message('{"action": "pass", "type": "action"}') == Act("pass")


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("not json", "not JSON"),
        ("[1, 2]", "JSON object"),
        ('{"kind": "join"}', "unknown message type None"),
        ('{"type": "shout"}', "unknown message type 'shout'"),
        ('{"type": "join", "protocol": 2, "token": 5}', "token"),
        ('{"type": "join", "protocol": 2, "token": "T", "since": -1}', "since"),
        ('{"type": "join", "protocol": 2, "token": "T", "since": true}', "since"),
        ('{"type": "join", "protocol": 2, "token": "T", "since": "3"}', "since"),
        ('{"type": "action"}', "action"),
        ('{"type": "action", "action": "  "}', "action"),
        ('{"type": "action", "action": "pass", "seat": 2}', "unexpected field 'seat'"),
        ('{"type": "hint", "x": 1}', "unexpected field 'x'"),
        ("{" + " " * MAX_MESSAGE_BYTES + "}", "too long"),
        (b"\xff\xfe", "not JSON"),
        ('{"type": "join", "protocol": 2, "token": ' + "[" * 20 + "]" * 20 + "}",
         "nested too deeply"),
        ('{"type": "seed", "hand_number": 1.5, "seed": "ab"}', "hand_number"),
    ],
)
def test_malformed_messages_are_refused_with_the_reason(raw: str | bytes, reason: str) -> None:
    with pytest.raises(BadRequest, match=reason.replace("(", r"\(")):
        parse_client_message(raw)


def test_a_connection_writes_a_table_message_encoded_once_for_its_audience() -> None:
    """The table hands every connection of one audience the same message; the first that
    needs its text encodes it, the others write that same text (the sharing the table's
    fan-out does: tests/table/actor/test_fanout.py)."""
    import json

    from euchre.server.tables.session import Connection
    from euchre.server.wire.socket import Joined, Pong
    from euchre.table.actor.fanout import Outgoing

    message = Joined(table_id="x", seat=None, version=3)
    shared = Outgoing(message)
    conns = [Connection(None), Connection(None)]  # type: ignore[arg-type]
    for conn in conns:
        conn.send(shared)
    texts = [conn.outbox.get_nowait() for conn in conns]
    assert texts[0] is texts[1]  # encoded once, by the first
    assert json.loads(texts[0] or "") == {"type": "joined", "table_id": "x", "seat": None,
                                          "version": 3}
    assert json.loads(conns[0].encode(Pong())) == {"type": "pong"}


class FakeSocket:
    """A socket whose sends wait while ``open`` is clear (a slow peer)."""

    def __init__(self) -> None:
        import asyncio

        self.open = asyncio.Event()
        self.open.set()
        self.sent: list[str] = []

    async def send_text(self, text: str) -> None:
        await self.open.wait()
        self.sent.append(text)


async def test_messages_reach_a_slow_peer_in_order() -> None:
    import asyncio
    import json

    from euchre.server.tables.session import Connection
    from euchre.server.wire.socket import error_message

    sock = FakeSocket()
    conn = Connection(sock)  # type: ignore[arg-type]
    writer = asyncio.create_task(conn.write_all())
    conn.send(error_message("1"))
    await asyncio.sleep(0)
    assert [json.loads(t)["message"] for t in sock.sent] == ["1"]
    sock.open.clear()
    for n in (2, 3, 4):
        conn.send(error_message(str(n)))
    await asyncio.sleep(0)
    assert len(sock.sent) == 1  # the peer is not reading
    sock.open.set()
    conn.send_close()
    await writer
    assert [json.loads(t)["message"] for t in sock.sent] == ["1", "2", "3", "4"]


def test_a_full_outbox_drops_the_connection_and_counts_it() -> None:
    from euchre.server.ops.metrics import Metrics
    from euchre.server.tables.session import OUTBOX_LIMIT, Connection
    from euchre.server.wire.socket import Pong

    metrics = Metrics()
    conn = Connection(None, metrics)  # type: ignore[arg-type]
    for _ in range(OUTBOX_LIMIT + 1):
        conn.send(Pong())
    assert conn.overflowed
    assert conn.outbox.get_nowait() is None  # the queue was emptied; the writer stops
    assert metrics.registry.get_sample_value("euchre_socket_outbox_overflows_total") == 1
