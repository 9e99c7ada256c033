"""The computers at a table: one for each bot seat, a move worked out from the start of a
turn and taken when due (never worked out twice), stale thinking dropped, a fresh computer
for a person out of time, and a computer that takes a seat decides the same after a
restart."""

from __future__ import annotations

import asyncio
from typing import Any

from euchre.actions import Action
from euchre.bots import make
from euchre.game import GameState
from euchre.hand import HandState
from euchre.rules import Rules
from euchre.shuffle import deck_from_seed
from euchre.table.computers import Computers
from euchre.table.kinds import TableObserver
from euchre.table.seats import BOT, HUMAN, Seat
from euchre.view import HandView


class _Bot:
    def __init__(self, level: str, seed: int | None, log: list[tuple[str, int | None]]) -> None:
        self.level, self.seed, self.log = level, seed, log

    def choose(self, view: HandView) -> Action:
        self.log.append((self.level, self.seed))
        return view.legal[0]


class _Observer(TableObserver):
    def __init__(self) -> None:
        self.decided: list[str] = []

    def bot_decided(self, level: str, seconds: float) -> None:
        assert seconds >= 0
        self.decided.append(level)


def _table() -> tuple[Computers, list[Any], list[tuple[str, int | None]], _Observer]:
    made: list[Any] = []
    chose: list[tuple[str, int | None]] = []

    def factory(level: str, seed: int | None) -> Any:
        bot = _Bot(level, seed, chose)
        made.append(bot)
        return bot

    observer = _Observer()
    seats = [Seat(HUMAN, "Ann"), Seat(BOT, "West", "easy", 11), Seat(HUMAN, "Bo"),
             Seat(BOT, "East", "medium", 13)]
    return Computers(factory, observer, seats), made, chose, observer


def _hand() -> HandState:
    game = GameState(Rules(), 0).deal(deck_from_seed("ab" * 32))
    assert game.current is not None
    return game.current


def _view(seat: int) -> HandView:
    return _hand().view(seat)


def test_a_computer_for_each_bot_seat_only() -> None:
    computers, made, _, _ = _table()
    assert sorted(computers.bots) == [1, 3] and len(made) == 2
    assert [(b.level, b.seed) for b in made] == [("easy", 11), ("medium", 13)]
    assert computers.plays(1) and not computers.plays(0)


async def test_the_move_thought_ahead_is_taken_when_due_and_not_worked_out_again() -> None:
    computers, made, chose, observer = _table()
    view = _view(1)
    computers.think_ahead(computers.bots[1], "easy", _hand(), 5, 1)
    await computers.settled()
    asked: list[int] = []

    def look() -> HandView:
        asked.append(1)
        return view

    action = await computers.move(computers.bots[1], "easy", look, 5, 1)
    assert action == view.legal[0]
    assert chose == [("easy", 11)] and asked == [] and len(made) == 2  # once, no new bot
    assert observer.decided == ["easy"] and computers.thinking is None


async def test_thinking_for_another_turn_is_dropped_and_the_move_worked_out_now() -> None:
    computers, made, chose, observer = _table()
    computers.think_ahead(computers.bots[3], "medium", _hand(), 5, 3)
    stale = computers.thinking
    assert stale is not None
    view = _view(1)
    action = await computers.move(computers.bots[1], "easy", lambda: view, 6, 1)
    assert action == view.legal[0] and ("easy", 11) in chose
    await asyncio.sleep(0)  # the cancelled task ends at its next turn of the loop
    assert stale.task.cancelled()
    assert ("medium", 13) not in chose  # the stale turn's computer never chose
    # A person out of time: a fresh computer of the clock's level, from the seat's seed.
    action = await computers.move(None, "hard", lambda: _view(1), 7, 1, seed=99)
    assert made[-1].level == "hard" and made[-1].seed == 99 and chose[-1] == ("hard", 99)
    assert "hard" in observer.decided


async def test_drop_cancels_the_thinking() -> None:
    computers, _, _, _ = _table()
    computers.think_ahead(computers.bots[1], "easy", _hand(), 1, 1)
    thinking = computers.thinking
    assert thinking is not None
    computers.drop()
    assert computers.thinking is None
    await asyncio.sleep(0)
    assert thinking.task.done()
    await computers.settled()  # nothing to wait for


def test_a_computer_takes_a_seat_the_same_way_each_time_and_gives_it_back() -> None:
    first, made_first, _, _ = _table()
    again, made_again, _, _ = _table()
    first.take_over("table-1", 2, "medium")
    again.take_over("table-1", 2, "medium")
    assert first.plays(2) and made_first[-1].seed == made_again[-1].seed
    assert made_first[-1].level == "medium"
    other, made_other, _, _ = _table()
    other.take_over("table-2", 2, "medium")
    assert made_other[-1].seed != made_first[-1].seed
    first.give_back(2)
    assert not first.plays(2)
    first.give_back(2)  # already given back: nothing happens


async def test_a_forced_move_is_the_one_legal_action_without_a_view() -> None:
    observer = _Observer()
    seats = [Seat(BOT, f"S{i}", "medium", i) for i in range(4)]
    computers = Computers(make, observer, seats)
    game = GameState(Rules(), 0).deal(deck_from_seed("cd" * 32))
    forced = free = 0
    step = 0
    while not game.is_over and not game.needs_deal:  # one whole hand among computers
        hand = game.current
        assert hand is not None and hand.to_act is not None
        seat = hand.to_act
        view = hand.view(seat)
        computers.think_ahead(computers.bots[seat], "medium", hand, step, seat)
        thinking = computers.thinking
        assert thinking is not None
        if len(view.legal) == 1:
            forced += 1
            assert thinking.task.done()  # answered at once, no view built for it
        else:
            free += 1
            assert not thinking.task.done()  # chosen on the loop's next turn
        action = await computers.move(computers.bots[seat], "medium", lambda v=view: v, step,
                                      seat)
        # the same move a medium player chooses from the seat's own view
        assert action == make("medium", seat).choose(view)
        game = game.apply(action, seat=seat)
        step += 1
    assert forced >= 1 and free >= 1, (forced, free)
    assert len(observer.decided) == step  # every decision told, forced ones too
