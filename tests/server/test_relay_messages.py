"""The relay messages between the processes of a site: each one survives encoding and
decoding as what it was, a frame that is none of them is refused with a clear error, and a
host that reads such a frame on its inbox drops it and goes on answering."""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec
import pytest

from euchre.broker.memory import MemoryBroker
from euchre.server.tables.relay import RelayEdge, RelayHost
from euchre.server.tables.relay.host import inbox_channel
from euchre.server.tables.relay.messages import (
    BadRelayFrame,
    Beat,
    Bye,
    ClientText,
    Closed,
    Closing,
    HandedOver,
    Handover,
    Open,
    Replace,
    Replaced,
    Send,
    Shut,
    decode_to_edge,
    decode_to_host,
    encode,
    send_frame,
)
from euchre.table.actor.seats import AccountKey

TO_HOST = [
    Open("r1", "t1", "10.0.0.1", AccountKey(7, "ann", (1, 3))),
    Open("r2", "t1", "10.0.0.2"),
    ClientText("r1", '{"type": "action", "action": "pass"}'),
    ClientText("r1", "not json at all"),
    Beat(["r1", "r2"]),
    Bye("r1"),
    Closing("q1", "t1", "left"),
    Replace("q2", "t1", 2, "left"),
    Handover("t1", "q3"),
]
TO_EDGE = [
    Shut(1012, "moved"),
    Closed(here=True, closed="left"),
    Closed(here=False, error="stopped"),
    Replaced(here=True, now=True, replaced=True),
    HandedOver(let_go=False),
]


@pytest.mark.parametrize("message", TO_HOST, ids=lambda m: type(m).__name__)
def test_what_an_inbox_takes_comes_out_as_it_went_in(message: Any) -> None:
    assert decode_to_host(encode(message)) == message


@pytest.mark.parametrize("message", TO_EDGE, ids=lambda m: type(m).__name__)
def test_what_comes_back_comes_out_as_it_went_in(message: Any) -> None:
    assert decode_to_edge(encode(message)) == message


def test_a_message_for_the_client_is_embedded_as_it_was_encoded() -> None:
    text = '{"type":"joined","table_id":"t1","seat":2,"version":5}'
    frame = send_frame(text)
    assert frame == b'{"type":"send","message":' + text.encode() + b"}"
    sent = decode_to_edge(frame)
    assert isinstance(sent, Send) and sent.text == text


@pytest.mark.parametrize(("frame", "says"), [
    (b"msg r1 hello", "JSON is malformed"),
    (b'{"type": "open", "relay": "r1"}', "missing required field `table`"),
    (b'{"type": "teleport", "relay": "r1"}', "Invalid value 'teleport'"),
    (b'{"type": "replace", "reply": "q", "table": "t", "seat": "two", "reason": ""}',
     "Expected `int`, got `str`"),
    (encode(Shut(1000, "")), "Invalid value 'shut'"),  # a reply on an inbox
])
def test_a_frame_that_is_no_inbox_message_is_refused_in_words(frame: bytes, says: str) -> None:
    with pytest.raises(BadRelayFrame) as refused:
        decode_to_host(frame)
    assert "not a relay message for a process's inbox" in str(refused.value)
    assert says in str(refused.value)


def test_a_frame_that_is_no_reply_is_refused_in_words() -> None:
    with pytest.raises(BadRelayFrame, match="not a relay message for a reply channel"):
        decode_to_edge(encode(Bye("r1")))
    with pytest.raises(BadRelayFrame):
        decode_to_edge(b'{"type": "send", "message": {"unfinished": ')
    with pytest.raises(msgspec.ValidationError):  # what BadRelayFrame stands for
        msgspec.json.decode(b'{"type": "bye"}', type=Bye)


class _NoTables:
    """A manager that runs no table (every question is about a table not here)."""

    def peek(self, table_id: str) -> None:
        return None


async def test_a_host_drops_a_bad_frame_and_goes_on_answering(
        caplog: pytest.LogCaptureFixture) -> None:
    broker = MemoryBroker()
    await broker.connect()
    manager: Any = _NoTables()
    hints: Any = None
    owners: Any = type("Owners", (), {"owner": "asker", "ttl": 30.0})()
    host = RelayHost(broker, manager, "owner", 30.0, hints)
    edge = RelayEdge(broker, owners)
    host.start()
    try:
        await asyncio.wait_for(host.ready.wait(), 5)
        await broker.publish(inbox_channel("owner"), b"replace q1 t1 0 left")  # the old kind
        assert await edge.replace_remote("owner", "t1", 0, "left") is None  # not run there
        assert await edge.close_and_tell("owner", "t1", "left") == (False, None)
        assert await edge.hand_over("owner", "t1") is True  # nothing to keep
    finally:
        await host.stop()
        await broker.disconnect()
    assert any("not a relay message for a process's inbox" in r.getMessage()
               for r in caplog.records)
