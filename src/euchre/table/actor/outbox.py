"""Save, then show: a table's changes are held until they are stored.

A handler's events are numbered and held (:meth:`Outbox.hold`), and the callers it
answers wait with them (:meth:`Outbox.answer`). :meth:`Outbox.store` saves the table if
anything changed since its last save, then sends the held events to every subscriber and
answers the callers. A save that fails undoes every decision since the last stored one
(:meth:`Outbox.undo`): the held events are dropped (their versions are used again), the
waiting callers are told, and what is due is tried again after a pause that grows
(:class:`~euchre.table.actor.saving.Retry`). Connection facts (presence, away) are not
decisions: a failed save of only those is logged, and they are shown all the same. A save
refused by a newer owner's fence leaves the table *fenced*: it acts on nothing more.

The outbox knows nothing of the game and calls nothing of the table's: the table hands it
each frame of itself with the events it holds, and learns from what :meth:`Outbox.store`
returns or raises whether to keep its decisions (stored) or go back to the kept ones
(undone), then shows (:meth:`Outbox.show`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from ...storage.base import StaleFenceError
from .errors import NOT_OURS, NOT_STORED, NotStored, TableError
from .events import Event, Frame
from .fanout import Fanout
from .kind import TableObserver
from .saving import Retry
from .wire import EventBody

log = logging.getLogger(__name__)

Save = Callable[[], Awaitable[None]]
"""Writes the table to its store (raises if it could not)."""


class Outbox:
    """A table's events and answers waiting for their save."""

    def __init__(
        self,
        fanout: Fanout,
        observer: TableObserver,
        retry: Retry,
        now: Callable[[], float],
        frame: Frame,
    ) -> None:
        """Nothing held, the last event at ``frame.version`` (as stored), the table now
        ``frame``. A failed save counts in ``retry`` (``now`` is the scheduler's clock);
        saves are timed for ``observer``."""
        self.fanout = fanout
        """Who the events are shown to."""
        self.observer = observer
        """Told how long each save took, and whether it succeeded."""
        version = frame.version
        self.version = version
        """The version of the last event made (shown or held)."""
        self.stored_version = version
        """The version of the table last stored."""
        self.retry = retry
        """The pause after saves failed in a row (nothing due is tried before it)."""
        self.fenced = False
        """Whether a newer owner's fence refused a save (the table acts on nothing more)."""
        self.unsaved = False
        """Whether anything changed since the last save (a decision or a connection)."""
        self.changed = False
        """Whether a decision was made since the last stored state."""
        self._now = now
        self.frame = frame
        """The table now (the frame of the last event made)."""
        self._shown = frame  # the frame last shown (while events are held)
        self._held: list[Event] = []  # made, not yet shown: waiting for their save
        self._waiting: list[tuple[asyncio.Future[Any], Any]] = []  # answered once stored

    # -- making changes ----------------------------------------------------------------

    def hold(self, bodies: list[EventBody], frame: Frame) -> None:
        """Number the events and hold them with ``frame``, the table right after them
        (at version ``version + len(bodies)``): they are shown once stored (:meth:`store`)."""
        if not self._held:
            self._shown = self.frame
        first = self.version + 1
        self.version += len(bodies)
        self.frame = frame
        for i, body in enumerate(bodies):
            self._held.append(Event(first + i, body, frame))

    def decided(self) -> None:
        """A decision was made (a move, a deal, a seed, a seat taken over, a closing): it
        is shown only once stored, and undone if it cannot be."""
        self.changed = True
        self.unsaved = True

    def noted(self, changed: bool) -> None:
        """A connection fact changed (when ``changed``): saved with the next save, but
        shown even if that save fails."""
        self.unsaved |= changed

    def answer(self, done: asyncio.Future[Any], value: Any) -> None:
        """Answer a caller now, or once the changes made so far are stored and shown."""
        if self._held or self.changed:
            self._waiting.append((done, value))
        elif not done.done():
            done.set_result(value)

    def refresh(self, frame: Frame) -> None:
        """The table changed without an event (its clock started, or it went back to what
        was stored): ``frame`` is the table now, at the same version."""
        self.frame = frame

    # -- reading -----------------------------------------------------------------------

    @property
    def pending(self) -> bool:
        """Whether anything waits for a save: events, answers, or unsaved changes."""
        return bool(self._held or self._waiting or self.unsaved)

    @property
    def shown_version(self) -> int:
        """The version of the last event sent (later ones wait for their save)."""
        return self.version - len(self._held)

    def shown_frame(self) -> Frame:
        """The table as last shown: changes waiting for their save are not in it."""
        return self._shown if self._held else self.frame

    # -- saving and showing ------------------------------------------------------------

    async def store(self, save: Save | None, *, show: bool = True) -> bool:
        """Save the table with ``save`` (None: there is nowhere to save it) if anything
        changed, then (``show``) send the held events and answer the waiting callers; True
        if decisions were stored (the table keeps them: a failed save later goes back to
        them). If the save fails, the held decisions are dropped (:meth:`undo`) and
        :class:`NotStored` raised, for the table to go back to its kept decisions and
        :meth:`show` what stays (connection facts are shown all the same); a newer owner's
        fence leaves the outbox :attr:`fenced` (``TableError``)."""
        kept = False
        if save is not None and self.unsaved:
            started = time.perf_counter()
            try:
                await save()
            except StaleFenceError as e:
                self.observer.saved(time.perf_counter() - started, False)
                log.warning("table %s: a newer owner runs it (%s): stopped here",
                            self.fanout.table_id, e)
                self.fenced = True
                self.undo(TableError(NOT_OURS))
                raise TableError(NOT_OURS) from e
            except Exception as e:
                self.observer.saved(time.perf_counter() - started, False)
                if self.changed:
                    log.warning("table %s: could not save (%s): its last changes are undone",
                                self.fanout.table_id, e)
                    self.undo(NotStored(NOT_STORED))
                    raise NotStored(NOT_STORED) from e
                log.warning("table %s: could not save (%s)", self.fanout.table_id, e)
            else:
                self.observer.saved(time.perf_counter() - started, True)
                self.stored_version = self.version
                self.unsaved = False
                if self.changed:  # a failed save later goes back to what is stored now
                    self.changed = False
                    kept = True
                self.retry.succeeded()
        elif self.changed:  # nowhere to save it (no store): kept as if stored
            self.changed = False
            kept = True
            self.retry.succeeded()
        if show:
            self.show()
        return kept

    async def save_quietly(self, save: Save) -> None:
        """Save as the table stops (the grace left of whoever is away); a failure is
        logged, not raised."""
        try:
            await save()
        except Exception as e:
            log.warning("table %s: could not save as it stopped: %s", self.fanout.table_id, e)
        else:
            self.unsaved = False

    def show(self) -> None:
        """Send the held events to every subscriber (in order, each once, encoded once per
        audience: :class:`~.fanout.Fanout`), then answer the callers waiting for them."""
        held, self._held = self._held, []
        self.fanout.show(held)
        self._shown = self.frame
        waiting, self._waiting = self._waiting, []
        for done, value in waiting:
            if not done.done():
                done.set_result(value)

    def undo(self, error: TableError) -> None:
        """Drop the decisions not stored: the held events not stored are dropped (their
        versions are used again), the callers waiting get ``error`` and the pause before
        what is due grows (``retry``). The table then goes back to its kept decisions and
        shows what stays (:meth:`refresh`, :meth:`show`)."""
        # Events already stored (a finished game, before its hooks ran) stay, and are shown.
        stored = [e for e in self._held if e.version <= self.stored_version]
        self.version -= len(self._held) - len(stored)
        self._held = stored
        self.changed = False
        self.unsaved = False
        waiting, self._waiting = self._waiting, []
        for done, _ in waiting:
            if not done.done():
                done.set_exception(error)
        self.retry.failed(self._now())
