"""What makes one kind of table differ from another: turn deadlines and what happens at the end.

A practice table has no deadlines and nothing to pay out. A coin table (added by the
accounts work) plugs in a :class:`TurnPolicy` with a per-seat clock and a finish hook
that settles stakes; the table actor itself does not change.
"""

from __future__ import annotations

from typing import Any

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

    def clock_json(self, seat: int | None, deadline: float | None, now: float) -> Any:
        """The ``clock`` field of a table snapshot: who is on the clock and the time left."""
        if seat is None or deadline is None:
            return None
        return {"seat": seat, "deadline_ms_left": max(0, round((deadline - now) * 1000))}

    def to_json(self) -> dict[str, Any]:
        """State to persist with the table (so a restarted table keeps its clock state)."""
        return {}

    def load_json(self, data: dict[str, Any]) -> None:
        """Restore what :meth:`to_json` saved."""
