"""What a table does by itself next, and when: the next deal, a computer's move, a clock.

A table has one thing due at a time. :class:`Agenda` posts it to the table's queue (its
:class:`~euchre.table.actor.inbox.Inbox`, never the actor itself) when its time comes, on
the table's :class:`~euchre.table.actor.pacing.Scheduler` (tests move a fake clock). Each
input it posts carries the table's *step*: every decision moves the step on
(:meth:`Agenda.void`), so an input posted for a state the table has left is void when it is
handled. Nothing due is posted before the pause after saves failed (:attr:`Agenda.retry`).
"""

from __future__ import annotations

from functools import partial

from .commands import Command, Post
from .pacing import Scheduler, TimerHandle
from .saving import Retry


class Agenda:
    """The one timer of a table, the step its inputs carry, and the running deadline."""

    def __init__(self, scheduler: Scheduler, post: Post) -> None:
        """An agenda on ``scheduler``'s time that hands due inputs to ``post`` (the
        table's queue)."""
        self.scheduler = scheduler
        """Where time comes from."""
        self.post = post
        """Queues an input at the table."""
        self.retry = Retry()
        """The pause after saves failed in a row: nothing is posted before ``retry.at``
        (the table's outbox says when saves fail and succeed)."""
        self.step = 0
        """The table's step: an input posted at an earlier step is void."""
        self.deadline: tuple[int, float] | None = None
        """(seat, time) of the person's clock running now, if any."""
        self._timer: TimerHandle | None = None

    def void(self) -> int:
        """The table moved on: whatever was posted or is due for the old step is void;
        the new step."""
        self.step += 1
        return self.step

    def later(self, delay: float, cmd: Command) -> None:
        """Post ``cmd`` ``delay`` seconds from now (at once if that is not in the future),
        but not before the pause after failed saves is over."""
        retry = self.retry
        if retry.failures:  # (no clock read a move while saves succeed: at is -inf then)
            delay = max(delay, retry.at - self.scheduler.now())
        if delay <= 0:
            self.post(cmd)
        else:
            self._timer = self.scheduler.call_later(delay, partial(self.post, cmd))

    def cancel(self) -> None:
        """Stop the input waiting for its time (the table deals now, or stops)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def clear(self) -> None:
        """Nothing is due any more (what is due is worked out again): the timer is
        cancelled and no clock runs."""
        if self._timer is not None:  # cancel(), inline: this runs at every move
            self._timer.cancel()
            self._timer = None
        self.deadline = None
