"""A table's agenda on a fake clock: what is due is posted when its time comes (at once if
that is now), never before the pause after a failed save, a cancelled input never comes,
and each step voids the inputs of the one before."""

from __future__ import annotations

from euchre.table.actor.agenda import Agenda
from euchre.table.actor.commands import BotTurn, Command, Deadline, DealNext
from euchre.table.actor.pacing import ManualScheduler
from euchre.table.actor.saving import RETRY_FIRST


def _agenda(failed_at: float | None = None) -> tuple[Agenda, ManualScheduler, list[Command]]:
    sched = ManualScheduler(10.0)
    posted: list[Command] = []
    agenda = Agenda(sched, posted.append)
    if failed_at is not None:
        agenda.retry.failed(failed_at)  # a save failed then: a pause of RETRY_FIRST
    return agenda, sched, posted


def test_an_input_is_posted_when_its_time_comes_and_at_once_when_that_is_now() -> None:
    agenda, sched, posted = _agenda()
    agenda.later(0.0, DealNext(agenda.step))
    assert posted == [DealNext(0)] and sched.pending == 0
    agenda.later(0.5, BotTurn(agenda.step))
    sched.advance(0.49)
    assert posted == [DealNext(0)]
    sched.advance(0.01)
    assert posted == [DealNext(0), BotTurn(0)]


def test_nothing_is_posted_before_the_pause_after_a_failed_save() -> None:
    agenda, sched, posted = _agenda(failed_at=10.0)  # the clock reads 10
    agenda.later(0.0, DealNext(agenda.step))
    assert posted == []
    sched.advance(RETRY_FIRST - 0.01)
    assert posted == []
    sched.advance(0.01)
    assert posted == [DealNext(0)]
    agenda.retry.succeeded()  # a save went through: no pause
    agenda.later(0.0, BotTurn(agenda.step))
    assert posted == [DealNext(0), BotTurn(0)]


def test_a_cancelled_input_never_comes_and_clear_drops_the_clock() -> None:
    agenda, sched, posted = _agenda()
    agenda.deadline = (0, 15.0)
    agenda.later(5.0, Deadline(0, agenda.step))
    agenda.cancel()
    assert agenda.deadline == (0, 15.0)  # cancel stops the timer only
    sched.advance(60.0)
    assert posted == []
    agenda.later(1.0, BotTurn(agenda.step))
    agenda.clear()
    sched.advance(60.0)
    assert posted == [] and agenda.deadline is None
    agenda.cancel()  # nothing waiting: nothing to do


def test_each_step_voids_what_was_posted_for_the_one_before() -> None:
    agenda, sched, posted = _agenda()
    agenda.later(1.0, BotTurn(agenda.step))
    assert agenda.void() == 1 and agenda.step == 1
    sched.advance(1.0)
    # the input still comes (a timer is cheap to let run), carrying the old step: the
    # table sees it is void (``BotTurn(step=at) if at == step``)
    assert posted == [BotTurn(0)] and posted[0].step != agenda.step
