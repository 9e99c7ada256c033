"""Presence at a table on a fake clock: a grace that runs out calls back once, coming back
or a new spell voids the old one, a take-over can be undone, what is saved resumes the
grace left, and the spectator count is published at most once a second."""

from __future__ import annotations

from euchre.table.actor.commands import AwayDue, Command, CountSpectators
from euchre.table.actor.pacing import ManualScheduler
from euchre.table.actor.presence import (
    SPECTATOR_COUNT_EVERY,
    Presence,
    SpectatorCount,
    connected,
)
from euchre.table.actor.seats import BOT, HUMAN, Seat


def _presence(**kwargs: object) -> tuple[Presence, ManualScheduler, list[tuple[int, int]]]:
    sched = ManualScheduler()
    due: list[tuple[int, int]] = []
    def post(cmd: Command) -> None:  # the table's queue: an AwayDue, noted
        assert isinstance(cmd, AwayDue)
        due.append((cmd.seat, cmd.generation))

    return Presence(sched, post, **kwargs), sched, due  # type: ignore[arg-type]


def test_a_grace_runs_out_once_on_the_fake_clock() -> None:
    people, sched, due = _presence()
    assert people.go_away(2, 30.0)
    assert not people.go_away(2, 5.0)  # already away: the first grace holds
    assert people.seconds_left(2) == 30.0 and people.seconds_left(0) is None
    sched.advance(29.5)
    assert due == [] and people.seconds_left(2) == 0.5
    sched.advance(0.5)
    assert len(due) == 1 and due[0][0] == 2 and people.is_due(*due[0])
    sched.advance(100.0)
    assert len(due) == 1


def test_coming_back_voids_the_spell_and_a_new_spell_voids_the_old_call() -> None:
    people, sched, due = _presence()
    people.go_away(1, 10.0)
    people.back(1)
    assert people.away == {} and sched.pending == 0
    sched.advance(20.0)
    assert due == []
    people.go_away(1, 10.0)
    sched.advance(10.0)
    seat, first = due[0]
    people.back(1)
    people.go_away(1, 10.0)
    assert not people.is_due(seat, first)  # a call from the spell that ended counts for nothing
    sched.advance(10.0)
    assert people.is_due(*due[1])


def test_a_take_over_ends_the_spell_and_its_undo_gives_the_grace_back() -> None:
    people, sched, due = _presence()
    people.seen.add(3)
    people.go_away(3, 30.0)
    sched.advance(10.0)
    undo = people.replace(3, "left")
    assert people.replaced == {3: "left"} and 3 not in people.seen and 3 not in people.away
    sched.advance(50.0)
    assert due == []  # its timer was stopped
    undo(sched.now() + 0.25)  # the save failed: the person holds the seat again
    assert people.replaced == {} and 3 in people.seen
    assert people.away[3] == 60.25  # the grace had run out: tried again after the pause
    sched.advance(0.25)
    assert len(due) == 1 and people.is_due(*due[0])


def test_what_is_saved_resumes_the_grace_left_and_a_restart_costs_nobody() -> None:
    people, sched, _ = _presence(replaced={1: "away"}, seen=[0, 1, 2])
    assert people.seen == {0, 2}  # a replaced seat is not seen
    people.go_away(0, 30.0)
    sched.advance(12.0)
    saved = people.to_json()
    assert saved == {"replaced": {"1": "away"}, "seen": [0, 2], "away": {"0": 18.0}}
    again, _, _ = _presence(
        replaced={int(s): w for s, w in saved["replaced"].items()}, seen=saved["seen"],
        away_left={int(s): t for s, t in saved["away"].items()})
    present = (False, True, True, False)
    assert again.resumed(30.0, present) == [(0, 18.0)]  # seat 2 is connected
    # Asked once: what was saved is used up (a second start gives the whole grace).
    assert again.resumed(30.0, present) == [(0, 30.0)]
    again.go_away(0, 18.0)
    assert again.resumed(30.0, present) == []  # already away
    fresh, _, _ = _presence(seen=[0])
    assert fresh.resumed(30.0, (False, True, True, True)) == [(0, 30.0)]
    nobody, _, _ = _presence(seen=[0], away_left={0: 5.0})
    assert nobody.resumed(None, (False, True, True, True)) == []


def test_stopping_cancels_every_timer_and_keeps_the_graces() -> None:
    people, sched, due = _presence()
    people.go_away(0, 5.0)
    people.go_away(2, 6.0)
    people.cancel()
    sched.advance(10.0)
    assert due == [] and set(people.away) == {0, 2}


def test_connected_counts_computers_and_replaced_seats() -> None:
    seats = [Seat(HUMAN, "Ann"), Seat(BOT, "West", "easy", 1), Seat(HUMAN, "Bo"),
             Seat(HUMAN, "Cy")]
    assert connected(seats, {None, 0}, {3: "left"}) == (True, True, False, True)
    assert connected(seats, set(), {}) == (False, True, False, False)


def test_the_spectator_count_goes_at_once_then_at_most_once_a_second() -> None:
    sched = ManualScheduler()
    calls: list[float] = []
    count = SpectatorCount(
        sched, lambda cmd: calls.append(sched.now()) if isinstance(cmd, CountSpectators) else None)
    assert count.changed()  # the first change: now
    count.published()
    sched.advance(0.25)
    assert not count.changed()  # held back, due when the second is up
    assert not count.changed()  # already held back: one timer
    assert sched.pending == 1
    sched.advance(SPECTATOR_COUNT_EVERY - 0.25)
    assert calls == [SPECTATOR_COUNT_EVERY]
    count.due()
    count.published()
    sched.advance(5.0)
    assert count.changed()  # a quiet spell: at once again
    count.published()
    assert not count.changed()
    count.cancel()
    sched.advance(5.0)
    assert calls == [SPECTATOR_COUNT_EVERY]
