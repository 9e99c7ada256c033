"""A table's frames on a fake clock: each reads the game, the shuffle's two commitments (the
current hand's only while it is played, the next hand's until the game ends or the table
closes), who is connected, watching, away (until when) and replaced, and the running clock;
each commitment is worked out once per seed."""

from __future__ import annotations

import random
from typing import Any

import pytest

from euchre.game import GameState
from euchre.rules import Rules
from euchre.shuffle import commitment, deck_from_seed
from euchre.table.actor import frames as frames_module
from euchre.table.actor.agenda import Agenda
from euchre.table.actor.audience import Audience, Said
from euchre.table.actor.dealing import Shuffle
from euchre.table.actor.events import Frame
from euchre.table.actor.fanout import Fanout, Outgoing
from euchre.table.actor.frames import Frames
from euchre.table.actor.pacing import ManualScheduler
from euchre.table.actor.presence import AWAY_TOO_LONG, LEFT, Presence, SpectatorCount
from euchre.table.actor.seats import BOT, HUMAN, Seat
from euchre.table.actor.wire import EventBody, NextCommitment
from table_helpers import StandInTable

SEATS = [Seat(HUMAN, "a"), Seat(BOT, "b", "easy"), Seat(HUMAN, "c"), Seat(HUMAN, "d")]
SEEDS = [f"{i:064x}" for i in range(1, 20)]


class Conn:
    """A connection that drops what it is sent."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat

    def send(self, message: Outgoing) -> None:
        pass


class Table:
    """The parts a frame is read from, on a fake clock."""

    def __init__(self) -> None:
        self.sched = ManualScheduler(100.0)
        self.held: list[EventBody] = []
        fanout = Fanout("f", lambda frame, seat, now, played: StandInTable(  # type: ignore[arg-type,return-value]
            table_id="f", seat=seat, version=frame.version), 64, lambda: 0.0)
        self.people = Presence(self.sched, lambda cmd: None)
        self.audience = Audience(SEATS, fanout, self.people,
                                 SpectatorCount(self.sched, lambda cmd: None),
                                 {i for i, seat in enumerate(SEATS) if seat.is_bot()})
        self.agenda = Agenda(self.sched, lambda cmd: None)
        self.frames = Frames(self.audience, self.agenda, "expert")
        seeds = iter(SEEDS)
        self.shuffle = Shuffle(lambda: next(seeds))
        self.game = GameState(Rules(), 0)

    def join(self, conn: Conn) -> None:
        self.hear(self.audience.join(conn, None, Frame(0, self.game, None, None,
                                                       (False, False, False, False)), None, 0))

    def leave(self, conn: Conn) -> None:
        self.hear(self.audience.leave(conn, 30.0, 0))

    def hear(self, said: Said) -> None:
        """Hold what the audience yields, as the table's loop does."""
        while True:
            try:
                self.held.extend(next(said))
            except StopIteration:
                return

    def deal(self) -> None:
        self.game = self.shuffle.deal(self.game, benny=False)

    def make(self, version: int = 1, closed: str | None = None) -> Any:
        return self.frames.make(version, self.game, self.shuffle, None, closed)


def test_before_the_first_deal_only_the_next_hands_commitment_is_shown() -> None:
    table = Table()
    frame = table.make(version=7)
    assert frame.version == 7 and frame.game is table.game and frame.summary is None
    assert frame.commitment is None
    assert frame.next_commitment == NextCommitment(hand_number=1,
                                                   commitment=commitment(SEEDS[0]))
    assert frame.connected == (False, True, False, False)  # the computer's seat only
    assert frame.spectators == 0 and frame.replaced == () and frame.away == ()
    assert frame.deadline is None and frame.closed is None
    assert frame.replacement_level == "expert"


def test_a_hand_under_way_shows_its_seeds_commitment_and_the_next_hands() -> None:
    table = Table()
    table.deal()
    frame = table.make()
    assert frame.commitment == commitment(SEEDS[0])
    assert frame.next_commitment == NextCommitment(hand_number=2,
                                                   commitment=commitment(SEEDS[1]))


def test_a_closed_table_or_a_game_over_commits_to_no_next_hand() -> None:
    table = Table()
    table.deal()
    assert table.make(closed="left").next_commitment is None
    assert table.make(closed="left").closed == "left"
    table.game = _finished(table.game)
    assert table.game.is_over
    assert table.make().next_commitment is None


def _finished(game: GameState) -> GameState:
    """``game`` played on by random legal moves until a side wins."""
    rng = random.Random(5)
    while not game.is_over:
        if game.needs_deal:
            game = game.deal(deck_from_seed(f"{rng.getrandbits(128):032x}", False))
            continue
        assert game.to_act is not None
        game = game.apply(rng.choice(game.legal_actions()), seat=game.to_act)
    return game


def test_connections_spectators_away_and_replaced_seats_on_the_fake_clock() -> None:
    table = Table()
    a, c, d, watcher = Conn(0), Conn(2), Conn(3), Conn(None)
    for conn in (a, c, d, watcher):
        table.join(conn)
    frame = table.make()
    assert frame.connected == (True, True, True, True) and frame.spectators == 1
    table.sched.advance(5.0)  # the clock reads 105
    table.leave(d)
    table.leave(a)
    frame = table.make()
    assert frame.connected == (False, True, True, False)
    assert frame.away == ((0, 135.0), (3, 135.0))  # sorted by seat, graces from 105
    table.people.replace(3, AWAY_TOO_LONG)
    table.people.replace(0, LEFT)
    frame = table.make()
    assert frame.replaced == ((0, LEFT), (3, AWAY_TOO_LONG))
    assert frame.connected == (True, True, True, True)  # a computer plays a replaced seat
    assert frame.away == ()


def test_the_running_clock_is_the_agendas_deadline() -> None:
    table = Table()
    table.deal()
    table.agenda.deadline = (2, 130.0)
    assert table.make().deadline == (2, 130.0)
    table.agenda.clear()
    assert table.make().deadline is None


def test_each_commitment_is_worked_out_once_per_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    table = Table()
    made: list[str] = []

    def counted(seed: str) -> str:
        made.append(seed)
        return commitment(seed)

    monkeypatch.setattr(frames_module, "commitment", counted)
    monkeypatch.setattr("euchre.table.actor.dealing.commitment", counted)
    first = table.make(version=1)
    assert table.make(version=2).next_commitment is first.next_commitment
    table.deal()
    after = [table.make(version=v) for v in (3, 4, 5)]
    assert after[0].next_commitment is after[2].next_commitment
    assert {f.commitment for f in after} == {commitment(SEEDS[0])}
    assert made == [SEEDS[0], SEEDS[0], SEEDS[1]]  # the next, then the current and the next
