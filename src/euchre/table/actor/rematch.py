"""A rematch: the same people at the same table again, when every one of them says yes.

At the end of a game at a table where people sit, any person seated may offer a rematch;
the others accept or decline within :data:`REMATCH_FOR` seconds. Computers seated at the
game come back as computers (they always accept). A decline, a person leaving the table,
or no answer in time ends the offer for everyone; the last yes starts a new table with the
same people, their seats moved as the offer chose (:func:`rematch_order`). Each change is
a :class:`~.wire.RematchEvent`, and the offer as it stands is the TABLE's ``rematch``.

The offer is kept in the table's memory only: it is not stored, so a table handed to
another process (or restarted) forgets an offer under way, and its people may offer again.
This module holds the rules of the offer (pure: time is handed in); the table actor runs
it and starts the new table through its kind's :data:`~.kinds.RematchHook`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Final, Literal

from .errors import TableError
from .wire import RematchEvent, RematchState

REMATCH_FOR = 60.0
"""Seconds every person has to answer an offer."""

KEEP = "keep"
"""Partners stay together: everyone moves one seat to the left (clockwise)."""

CHANGE = "change"
"""Partners change: West and North swap seats, so each person has a new partner."""

Ending = Literal["started", "declined", "left", "expired", "refused"]
"""How an offer ended: the new table started, someone declined, someone left the table, no
answer in time, or the new table could not start."""

OPEN: Final = "open"
"""An offer waiting for answers."""
STARTED: Final = "started"
"""Everyone accepted: the new table started."""
DECLINED: Final = "declined"
"""Someone declined."""
LEFT: Final = "left"
"""Someone left the table (their last connection closed)."""
EXPIRED: Final = "expired"
"""Not everyone answered in time."""
REFUSED: Final = "refused"
"""Everyone accepted, and the new table could not start (a stake someone cannot cover)."""


class RematchError(TableError):
    """A rematch message the table refuses (the game is not over, no offer, answered
    already, the offer ended); nothing changed."""

    code = "no_rematch"


def rematch_order(partners: str) -> tuple[int, int, int, int]:
    """For each new seat, the seat its player had: with :data:`KEEP` everyone moves one
    seat to the left (partners stay partners, the deal starts elsewhere); with
    :data:`CHANGE` West and North swap (each person's partner changes)."""
    if partners == KEEP:
        return (3, 0, 1, 2)
    if partners == CHANGE:
        return (0, 2, 1, 3)
    raise RematchError(f"partners is {KEEP!r} or {CHANGE!r}")


@dataclass(frozen=True)
class Offer:
    """An offer as it stands (a new value at each change: frames share it)."""

    by: int
    """The seat that offered."""
    partners: str
    """:data:`KEEP` or :data:`CHANGE`."""
    people: tuple[int, ...]
    """The seats whose people must accept (computers accept by themselves)."""
    accepted: tuple[int, ...]
    """The people who accepted, in the order they did."""
    ends_at: float
    """When the offer runs out (the table's clock)."""
    status: str = OPEN
    """:data:`OPEN`, or how it ended."""
    seat: int | None = None
    """Who ended it (declined, left), if a person did."""
    table: str | None = None
    """The new table, once started."""
    message: str | None = None
    """Why the new table could not start (:data:`REFUSED`)."""

    @property
    def is_open(self) -> bool:
        """Whether answers are still awaited."""
        return self.status == OPEN

    def waiting(self) -> tuple[int, ...]:
        """The people who have not answered yet."""
        return tuple(s for s in self.people if s not in self.accepted)

    def wire(self, now: float) -> RematchState:
        """The TABLE's ``rematch`` at ``now``."""
        return RematchState(
            status=self.status, by=self.by, partners=self.partners,  # type: ignore[arg-type]
            people=list(self.people), accepted=list(self.accepted),
            ms_left=max(0, round((self.ends_at - now) * 1000)) if self.is_open else 0,
            seat=self.seat, table=self.table, message=self.message)


class RematchTracker:
    """A finished table's rematch: at most one offer a game, its answers and its end."""

    def __init__(self) -> None:
        """No offer yet."""
        self.offer: Offer | None = None
        """The offer (None: nobody offered)."""

    def make(self, seat: int, partners: str, people: tuple[int, ...], now: float,
             absent: dict[int, str]) -> RematchEvent:
        """``seat`` offers a rematch (and accepts it); ``people`` are the seats of people,
        ``absent`` those who left the table (seat: name). Refused if there is an offer
        already, or a person has left."""
        rematch_order(partners)  # refuses an unknown choice
        if self.offer is not None:
            if self.offer.is_open:
                raise RematchError("a rematch is offered already: accept or decline it")
            raise RematchError("the rematch offer has ended: find another game")
        if absent:
            names = " and ".join(absent.values())
            raise RematchError(f"{names} left the table: a rematch needs everyone who played")
        self.offer = Offer(by=seat, partners=partners, people=people, accepted=(seat,),
                           ends_at=now + REMATCH_FOR)
        return RematchEvent(status=OPEN, seat=seat)

    def answer(self, seat: int, accept: bool) -> RematchEvent:
        """``seat``'s yes or no to the open offer (a no ends it for everyone)."""
        offer = self._open()
        if seat in offer.accepted:
            raise RematchError("you accepted the rematch already")
        if not accept:
            self.offer = dataclasses.replace(offer, status=DECLINED, seat=seat)
            return RematchEvent(status=DECLINED, seat=seat)
        self.offer = dataclasses.replace(offer, accepted=(*offer.accepted, seat))
        return RematchEvent(status="accepted", seat=seat)

    def all_accepted(self) -> bool:
        """Whether every person accepted the open offer."""
        return self.offer is not None and self.offer.is_open and not self.offer.waiting()

    def end(self, status: Ending, seat: int | None = None, table: str | None = None,
            message: str | None = None) -> RematchEvent | None:
        """The open offer ends as ``status`` (None: no offer was open)."""
        offer = self.offer
        if offer is None or not offer.is_open:
            return None
        self.offer = dataclasses.replace(offer, status=status, seat=seat, table=table,
                                         message=message)
        return RematchEvent(status=status, seat=seat, table=table)

    def _open(self) -> Offer:
        offer = self.offer
        if offer is None:
            raise RematchError("nobody has offered a rematch")
        if not offer.is_open:
            raise RematchError("the rematch offer has ended")
        return offer
