"""Refusals of the tournament service: nothing changed."""

from __future__ import annotations

from ..errors import DomainError


class TournamentError(DomainError):
    """A refused request about a tournament; nothing changed."""


class TournamentNotFound(TournamentError):
    """No such tournament."""

    code = "not_found"


class TournamentForbidden(TournamentError):
    """Only the creator may do that, or this entrant may not enter."""

    code = "forbidden"


class TournamentConflict(TournamentError):
    """The tournament is not at a stage where that can be done."""

    code = "conflict"
