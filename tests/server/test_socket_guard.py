"""The socket caps and the join deadline: counts on a fake clock, then the real socket in
process (Starlette's TestClient)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from test_app import open_table, settings

from euchre.server import create_app
from euchre.server.root import root_of
from euchre.server.tables.socket_guard import (
    CLOSE_NO_JOIN,
    CLOSE_TABLE_STOPPED,
    CLOSE_TOO_MANY,
    Refusal,
    SocketGuard,
    SocketLimits,
    Ticket,
)
from euchre.table.actor.pacing import ManualScheduler


def admitted(guard: SocketGuard, address: str = "a", **kw: object) -> Ticket:
    ticket = guard.admit(address, **kw)  # type: ignore[arg-type]
    assert isinstance(ticket, Ticket), ticket
    return ticket


def test_a_socket_that_does_not_join_in_time_is_refused_once() -> None:
    sched = ManualScheduler()
    guard = SocketGuard(SocketLimits(join_within=5), sched)
    closed: list[Refusal] = []
    late = admitted(guard, on_no_join=closed.append)
    prompt = admitted(guard, on_no_join=closed.append)
    assert prompt.join("t1", 0) is None
    sched.advance(4.9)
    assert closed == []
    sched.advance(0.2)
    assert [r.code for r in closed] == [CLOSE_NO_JOIN] and "5 seconds" in closed[0].reason
    late.release()
    late.release()  # once only
    assert guard.open == 1 and guard.by_address == {"a": 1}
    prompt.release()
    assert guard.open == 0 and not guard.by_address and not guard.by_seat
    assert not guard.by_table and sched.pending == 0


def test_caps_per_address_seat_table_and_server() -> None:
    guard = SocketGuard(SocketLimits(per_address=3, per_seat=2, per_table=3, total=5),
                        ManualScheduler())
    mine = [admitted(guard, "me") for _ in range(3)]
    refused = guard.admit("me")
    assert isinstance(refused, Refusal) and refused.code == CLOSE_TOO_MANY
    assert "your address" in refused.reason
    assert mine[0].join("t", 0) is None and mine[1].join("t", 0) is None
    seat_full = mine[2].join("t", 0)
    assert isinstance(seat_full, Refusal) and "seat" in seat_full.reason
    assert mine[2].join("t", 1) is None
    other = admitted(guard, "you")
    table_full = other.join("t", 2)
    assert isinstance(table_full, Refusal) and "table" in table_full.reason
    admitted(guard, "them")
    full = guard.admit("someone")
    assert isinstance(full, Refusal) and "server is full" in full.reason
    mine[0].release()
    assert guard.by_seat[("t", 0)] == 1 and guard.by_table["t"] == 2
    assert isinstance(guard.admit("me"), Ticket)  # a place came free
    for reason in (refused, seat_full, table_full, full):
        assert len(reason.reason.encode()) <= 123  # fits a close frame


def test_spectators_have_their_own_cap_and_count_against_address_and_server() -> None:
    sched = ManualScheduler()
    guard = SocketGuard(SocketLimits(per_address=4, per_table=1, watchers_per_table=2,
                                     total=5, join_within=5), sched)
    closed: list[Refusal] = []
    player = admitted(guard, "p")
    assert player.join("t", 0) is None
    eyes = [admitted(guard, "w", on_no_join=closed.append) for _ in range(4)]
    assert eyes[0].join("t", None) is None and eyes[1].join("t", None) is None
    too_many = eyes[2].join("t", None)
    assert isinstance(too_many, Refusal) and "spectators" in too_many.reason
    assert guard.watching["t"] == 2 and guard.by_table["t"] == 1  # players not crowded out
    assert isinstance(guard.admit("w"), Refusal)  # the address cap holds for spectators
    assert isinstance(guard.admit("x"), Refusal)  # and the server's
    sched.advance(6)
    assert len(closed) == 2  # the two that never watched nor joined are closed
    eyes[0].release()
    assert guard.watching["t"] == 1 and eyes[2].join("t", None) is None


def capped_app(**limits: float) -> TestClient:
    """A client of an app with these socket limits (``Settings.socket_limits``)."""
    return TestClient(create_app(settings(socket_limits=SocketLimits(**limits))))  # type: ignore[arg-type]


@pytest.fixture
def capped() -> Iterator[TestClient]:
    """An app whose sockets must join within 0.2 s."""
    with capped_app(join_within=0.2) as c:
        yield c


def test_a_socket_that_never_joins_is_closed_with_a_reason(capped: TestClient) -> None:
    table = open_table(capped)
    with capped.websocket_connect(table["ws"]) as ws, pytest.raises(WebSocketDisconnect) as e:
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
        ws.receive_json()  # nothing more comes: the server closes the socket
    assert e.value.code == CLOSE_NO_JOIN and "join a seat within" in e.value.reason


def test_a_seat_open_in_too_many_places_is_refused_and_so_is_an_address() -> None:
    with capped_app(per_seat=2, per_address=3) as client:
        table = open_table(client)
        join = {"type": "join", "protocol": 2, "token": table["token"]}
        with client.websocket_connect(table["ws"]) as one, \
                client.websocket_connect(table["ws"]) as two:
            for ws in (one, two):
                ws.send_json(join)
                assert ws.receive_json()["type"] == "joined"
            with client.websocket_connect(table["ws"]) as three:
                three.send_json(join)
                error = three.receive_json()
                assert error["type"] == "error" and error["code"] == "too_many"
                with pytest.raises(WebSocketDisconnect) as e:
                    while True:
                        three.receive_json()
                assert e.value.code == CLOSE_TOO_MANY and "seat" in e.value.reason
            with client.websocket_connect(table["ws"]) as three:
                three.send_json({"type": "ping"})
                assert three.receive_json() == {"type": "pong"}  # the third from here
                with client.websocket_connect(table["ws"]) as four, \
                        pytest.raises(WebSocketDisconnect) as e:
                    four.receive_json()  # a fourth from the same address: refused
                assert e.value.code == CLOSE_TOO_MANY and "address" in e.value.reason


def test_a_table_that_stops_releases_its_sockets_and_is_found_again() -> None:
    with capped_app() as client:
        table = open_table(client)
        join = {"type": "join", "protocol": 2, "token": table["token"]}
        manager = root_of(client.app).manager
        with client.websocket_connect(table["ws"]) as ws:
            ws.send_json(join)
            assert ws.receive_json()["type"] == "joined"
            assert client.portal is not None
            client.portal.call(manager.forget, table["id"])  # the table leaves memory
            with pytest.raises(WebSocketDisconnect) as e:
                while True:
                    ws.receive_json()
            assert e.value.code == CLOSE_TABLE_STOPPED and "stopped" in e.value.reason
        with client.websocket_connect(table["ws"]) as again:  # the client reconnects
            again.send_json(join)
            assert again.receive_json()["type"] == "joined"
            assert again.receive_json()["type"] == "snapshot"


def test_an_ipv6_households_addresses_share_one_cap() -> None:
    # A home is given a whole /64 and may use any address in it: the per-address cap
    # counts the /64, as the sign-up limits do, not each address.
    app = create_app(settings(socket_limits=SocketLimits(per_address=2)))  # type: ignore[arg-type]
    with TestClient(app) as main:
        table = open_table(main)
        clients = [TestClient(app, client=(f"2001:db8:1:2::{n}", 5000)) for n in (1, 2, 3)]
        other = TestClient(app, client=("2001:db8:1:3::1", 5000))  # another /64
        with clients[0].websocket_connect(table["ws"]) as one, \
                clients[1].websocket_connect(table["ws"]) as two:
            for ws in (one, two):
                ws.send_json({"type": "ping"})
                assert ws.receive_json() == {"type": "pong"}
            with clients[2].websocket_connect(table["ws"]) as three, \
                    pytest.raises(WebSocketDisconnect) as e:
                three.receive_json()
            assert e.value.code == CLOSE_TOO_MANY and "address" in e.value.reason
            with other.websocket_connect(table["ws"]) as four:
                four.send_json({"type": "ping"})
                assert four.receive_json() == {"type": "pong"}


def test_a_guests_hint_queue_place_is_their_household() -> None:
    from euchre.server.tables.session import hint_person

    class _Seat:
        account_id = None
        account = None

    class _Config:
        seats = [_Seat()] * 4

    class _Actor:
        config = _Config()

    actor = _Actor()
    a = hint_person(actor, 0, "2001:db8:1:2::1")  # type: ignore[arg-type]
    assert a == hint_person(actor, 0, "2001:db8:1:2::ffff")  # type: ignore[arg-type]
    assert a != hint_person(actor, 0, "2001:db8:1:3::1")  # type: ignore[arg-type]
    assert hint_person(actor, 0, "10.0.0.1") == "address:10.0.0.1"  # type: ignore[arg-type]


def test_opening_sockets_has_a_rate_per_network_and_per_wider_ipv6_block() -> None:
    """Issue 34 item 4: a reconnect loop is refused at the door: 60 opens at once per
    address (IPv6: per /64), then 5 a second; the /56 and /48 of a home have rates of
    their own, so fresh /64s of one home do not multiply it."""
    sched = ManualScheduler()
    guard = SocketGuard(SocketLimits(), sched)

    def opens(address: str, n: int) -> int:
        made = 0
        for _ in range(n):
            ticket = guard.admit(address)
            if isinstance(ticket, Refusal):
                assert ticket.code == CLOSE_TOO_MANY and "new connections" in ticket.reason
                assert len(ticket.reason.encode()) <= 123
                continue
            ticket.release()  # opened and closed at once, as a storm does
            made += 1
        return made

    assert opens("2001:db8:0:100::/64", 100) == 60
    assert opens("203.0.113.7", 100) == 60  # another address: its own bucket
    assert opens("2001:db8:0:101::/64", 100) == 60  # the /56 had 120
    assert opens("2001:db8:0:102::/64", 100) == 0  # a fresh /64 of that /56: nothing left
    assert opens("2001:db8:0:200::/64", 100) == 60  # another /56 of the /48
    assert opens("2001:db8:0:300::/64", 100) == 60  # the /48's 240: the last 60
    assert opens("2001:db8:0:400::/64", 100) == 0  # a fresh /56 of that /48: nothing left
    sched.advance(1.0)
    assert opens("2001:db8:0:100::/64", 100) == 5  # 5 a second for the /64
    assert opens("203.0.113.7", 100) == 5
    assert opens("203.0.113.8", 1) == 1 and guard.open == 0
    assert opens("127.0.0.5", 500) == 500 and opens("::1", 500) == 500  # this machine
    # A benchmark's attackers on other loopback addresses are rated when asked
    # (euchre serve --rate-loopback); 127.0.0.1 and ::1 stay free for the measuring side.
    guard = SocketGuard(SocketLimits(rate_loopback=True), sched)
    assert opens("127.0.0.5", 100) == 60 and opens("127.0.0.6", 100) == 60
    assert opens("127.0.0.1", 500) == 500 and opens("::1", 500) == 500
