"""What a table says when it refuses: one error type per reason, and the words for each.

Every refusal is a :class:`TableError` (a :class:`~euchre.errors.DomainError`, so the
server maps its ``code`` to a status); nothing at the table changed when one is raised.
"""

from __future__ import annotations

from ...errors import DomainError

NOT_OURS = "this server no longer runs this table: reconnect to carry on"
"""Why an input is refused when the actor's guard says the table is not ours."""

NOT_STORED = "the move could not be stored (the database is not answering): try again"
"""Why a change was refused when its save failed (nothing changed, nobody saw it)."""

STOPPED = "the table has stopped: reload the page to carry on"
"""The refusal of a move or a join at a table that has stopped (it may be loaded again)."""

REPLACED_TEXT = "you left this game: a computer plays your seat to the end"
"""The refusal of a move, a seed or a join from a seat a computer took over."""


class TooManySeats(DomainError):
    """A person already holds their share of seats at online tables waiting to start
    (409); nothing changed."""

    code = "too_many_seats"


class TableError(DomainError):
    """A request the table refuses; the message is for the person who made it."""

    code = "illegal"


class NotStored(TableError):
    """The change could not be stored (the database did not answer): it was undone, nobody
    saw it, and the caller may try again."""

    code = "not_stored"
    retry_after = 1


class TableStopped(TableError):
    """The table has stopped in this process (it may be loaded again): nothing changed."""


class SeatReplaced(TableError):
    """The seat's person left the game: a computer plays it to the end (nothing changed)."""

    code = "replaced"
