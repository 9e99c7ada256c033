"""What makes one kind of table differ from another: a :class:`TableKind`.

A kind answers the questions the table actor and the socket ask about it: are hints
allowed, what turn clock (a :class:`TurnPolicy`), what runs when a game ends. A practice
table has hints, no deadlines and nothing to pay out; a coin table (registered by the
accounts extension) has a per-seat clock and a finish hook that settles stakes; the table
actor itself does not change. :class:`TableObserver` is how a table reports what it did
(moves, saves, bot decisions) to whoever counts them, without importing them.
"""

from __future__ import annotations

import copy
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ...game import GameState
from .wire import Clock

PRACTICE = "practice"
"""The kind of a practice table: no account, no coins, no clock."""


class TurnPolicy:
    """Deadlines for people's turns; the base class sets none (practice tables).

    The actor asks :meth:`deadline` whenever a person's turn starts. When a deadline
    passes, it asks :meth:`on_timeout` for the level of computer player that moves for the
    person, applies that move and tells :meth:`moved` with ``timed_out=True``.
    """

    def deadline(self, seat: int, now: float) -> float | None:
        """The time by which ``seat`` must act on the turn that starts now, or None."""
        return None

    def on_timeout(self, seat: int, now: float) -> str:
        """The computer level that plays the move for a seat whose time ran out."""
        return "expert"

    def moved(self, seat: int, now: float, *, timed_out: bool) -> None:
        """A seat acted (``timed_out``: the table acted for it)."""

    def hand_over(self, now: float) -> None:
        """A hand ended (a policy may reset per-hand counters)."""

    def forget(self, seat: int) -> None:
        """A computer plays ``seat`` from now on (the person left): no clock for it."""

    def clock_json(self, seat: int | None, deadline: float | None, now: float
                   ) -> Clock | None:
        """The ``clock`` field of a table snapshot: who is on the clock and the time left."""
        if seat is None or deadline is None:
            return None
        return Clock(seat=seat, deadline_ms_left=max(0, round((deadline - now) * 1000)))

    def to_json(self) -> dict[str, Any]:
        """State to persist with the table (so a restarted table keeps its clock state)."""
        return {}

    def load_json(self, data: dict[str, Any]) -> None:
        """Restore what :meth:`to_json` saved."""

    def copy(self) -> TurnPolicy:
        """A copy that later changes to this policy leave alone (the table goes back to
        it when a save fails); subclasses with much state may copy it more cheaply."""
        if type(self) is TurnPolicy:
            return self  # no state: nothing to copy
        return copy.deepcopy(self)


class FinishedTable(Protocol):
    """What a finish hook may read of the table whose game ended."""

    @property
    def id(self) -> str:
        """The table id."""
        ...

    @property
    def game(self) -> GameState:
        """The finished game."""
        ...

    @property
    def replaced(self) -> dict[int, str]:
        """Seats a computer took over from a person who left (``left`` or ``away``)."""
        ...


FinishHook = Callable[[FinishedTable], Awaitable[None]]
"""Called once when a table's game ends (after its record is stored): e.g. pay out stakes."""

ReplaceHook = Callable[[FinishedTable, int, str], Awaitable[None]]
"""Called when a computer takes over a person's seat for the rest of the game (after the
table is saved), with the seat and why (``left`` or ``away``): e.g. charge a leaving fee."""


RematchHook = Callable[[Any, tuple[int, int, int, int]], Awaitable[str]]
"""Starts a rematch of a finished table: given its :class:`~euchre.table.actor.seats.TableConfig`
and, for each new seat, the seat its player had, opens the new table and answers its id;
a refusal (a stake someone cannot cover) is a :class:`~euchre.errors.DomainError` whose
message says why."""


def no_policy(config: Any) -> TurnPolicy:
    """No turn deadlines (practice tables)."""
    return TurnPolicy()


@dataclass(frozen=True)
class TableKind:
    """One kind of table: its name and the answers to what differs between kinds."""

    name: str
    """``practice``, ``coin``, ``online`` ..."""
    hints: bool = False
    """Whether a seat may ask for the computer's advice (practice only: elsewhere the play
    must be the person's own)."""
    policy: Callable[[Any], TurnPolicy] = no_policy
    """Makes a table's turn clock from its :class:`~euchre.table.actor.seats.TableConfig`."""
    finish: Sequence[FinishHook] = field(default_factory=tuple)
    """Run once when a game ends."""
    no_hints: str = "Hints are off at this table: they are for practice."
    """The refusal of a hint where :attr:`hints` is False."""
    spectators: bool = False
    """Whether anyone may watch its tables (a table may still be made private)."""
    away_grace: float | None = None
    """Seconds a person whose connection is gone keeps the seat; then a computer plays it
    to the end of the game (None: never, the move clock alone plays for them)."""
    on_replaced: Sequence[ReplaceHook] = field(default_factory=tuple)
    """Run when a computer takes over a person's seat (see :data:`ReplaceHook`)."""
    replacement_level: str = "expert"
    """The computer level that takes over a seat whose person left."""
    rematch: RematchHook | None = None
    """Starts a rematch once its people all accepted (None: no rematch at this kind)."""
    talk: bool = False
    """Whether its people may send quick messages (:mod:`.talk`; a table may still be
    made silent)."""


PRACTICE_KIND = TableKind(PRACTICE, hints=True)
"""Practice tables: hints, no clock, nothing at the end."""


class TableObserver:
    """Told what tables do, to count it (the server's metrics); the base ignores it all."""

    def moved(self, by: str) -> None:
        """A move was applied: by a ``person``, a ``computer``, or on ``timeout``."""

    def saved(self, seconds: float, ok: bool) -> None:
        """A save took ``seconds``; ``ok`` False when it failed."""

    def bot_decided(self, level: str, seconds: float) -> None:
        """A computer player of ``level`` chose in ``seconds``."""
