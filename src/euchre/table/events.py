"""Table events and snapshots, and how each seat sees them.

An :class:`Event` is what changed (a deal, an action, a trick, the end of a hand or game,
a seat connecting); a :class:`Frame` is the table right after it. Both are rendered per
seat: another seat's discard shows as ``"discard"`` without the card, and the snapshot's
``view`` is :meth:`HandView.to_json` for that seat only.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Any

from .. import actions as A
from ..actions import Action
from ..cards import suit_text
from ..game import GameState
from ..hand import HandState
from ..rules import Rules
from .first_draw import first_draw_json
from .kinds import TurnPolicy
from .seats import TableConfig

DEAL = "deal"
"""A hand was dealt: ``dealer``, ``hand_number``, ``commitment`` (SHA-256 of the seed),
``client_seeds`` (the people's seeds mixed in, by seat) and ``next_commitment``."""
ACTION = "action"
"""A seat acted: ``seat``, ``action`` (notation; hidden ones show only their kind)."""
TRICK = "trick"
"""A trick was completed: ``leader``, ``cards``, ``winner``."""
HAND_OVER = "hand_over"
"""A hand ended: ``points``, ``summary`` (with the revealed ``seed``)."""
GAME_OVER = "game_over"
"""The game ended: ``winner`` (side 0: seats 0 & 2; side 1: seats 1 & 3), ``score``."""
CLOSED = "closed"
"""The table was closed before its game ended: ``reason`` (``left``: the person left)."""
PRESENCE = "presence"
"""A person connected or left: ``seat``, ``connected``."""
AWAY = "away"
"""A person's connection is gone: ``seat``, ``ms_left`` of the grace before a computer
takes the seat for the rest of the game (unless they come back)."""
BACK = "back"
"""A person who was away came back within the grace: ``seat``."""
REPLACED = "replaced"
"""A computer plays a person's seat to the end of the game: ``seat``, ``reason`` (``left``:
they left; ``away``: gone past the grace), ``level``."""
SPECTATORS = "spectators"
"""A spectator started or stopped watching: ``count``, how many watch now."""

_HIDDEN_KINDS = (A.DISCARD, A.FARMER_SWAP)


@dataclass(frozen=True, slots=True)
class Frame:
    """The table at one version: enough to render any seat's snapshot."""

    version: int
    """The version of the last event applied."""
    game: GameState
    """The game (immutable)."""
    summary: dict[str, Any] | None
    """The last finished hand's public summary, or None."""
    commitment: str | None
    """The commitment of the current hand's shuffle."""
    connected: tuple[bool, bool, bool, bool]
    """Whether each person seat has a connection (bots count as connected)."""
    deadline: tuple[int, float] | None = None
    """(seat, time) of the running turn deadline, if any."""
    closed: str | None = None
    """Why the table was closed before its game ended, if it was."""
    next_commitment: dict[str, Any] | None = None
    """``{"hand_number", "commitment"}`` of the next hand's table seed, for people's seeds."""
    spectators: int = 0
    """How many connections watch the table without a seat."""
    replaced: tuple[tuple[int, str], ...] = ()
    """(seat, why) of each seat a computer took over from a person who left."""
    away: tuple[tuple[int, float], ...] = ()
    """(seat, time) when each away person's grace runs out."""
    replacement_level: str = "expert"
    """The level of the computer that takes over a seat."""


@dataclass(frozen=True, slots=True)
class Event:
    """One versioned change at a table."""

    version: int
    """Numbered from 1, one more for each event."""
    kind: str
    """One of the kind constants."""
    data: dict[str, Any] = field(default_factory=dict)
    """Public fields of the event."""
    action: Action | None = None
    """For ``action`` events: the action (rendered per seat)."""
    frame: Frame | None = None
    """The table right after the event."""

    def to_json(self, seat: int | None) -> dict[str, Any]:
        """The event as ``seat`` may see it."""
        out: dict[str, Any] = {"kind": self.kind, **self.data}
        if self.action is not None:
            actor = self.data.get("seat")
            hidden = self.action.kind in _HIDDEN_KINDS and actor != seat
            out["action"] = self.action.kind if hidden else str(self.action)
        return out


def hand_summary(hand: HandState, number: int, score: tuple[int, int],
                 seed: str | None, client_seeds: dict[int, str] | None = None) -> dict[str, Any]:
    """The public result of a finished hand (no card that was not played)."""
    maker_side = hand.maker % 2 if hand.maker >= 0 else None
    euchred = (
        maker_side is not None and not hand.thrown_in and hand.reneged is None
        and hand.tricks_won[maker_side] < 3
    )
    march = maker_side is not None and hand.tricks_won[maker_side] == 5
    return {
        "hand_number": number,
        "dealer": hand.dealer,
        "maker": hand.maker if hand.maker >= 0 else None,
        "trump": suit_text(hand.trump) if hand.trump >= 0 else None,
        "alone": hand.alone,
        "lone_defender": hand.lone_defender if hand.lone_defender >= 0 else None,
        "tricks_won": list(hand.tricks_won),
        "points": list(hand.points),
        "euchred": euchred,
        "march": march,
        "thrown_in": hand.thrown_in,
        "reneged": list(hand.reneged) if hand.reneged else None,
        "score": list(score),
        "seed": seed,
        "client_seeds": {str(s): c for s, c in sorted((client_seeds or {}).items())},
        "pattern": hand.deal.pattern,
    }


def _seat_json(config: TableConfig, frame: Frame, seat: int, now: float) -> dict[str, Any]:
    """What everyone sees of a seat: who, connected, away (and for how long), or played by
    a computer since its person left (``kind`` bot, ``replaced`` says why)."""
    out = {**config.seats[seat].public_json(seat), "connected": frame.connected[seat]}
    why = dict(frame.replaced).get(seat)
    if why is not None:
        out.update(kind="bot", level=frame.replacement_level, replaced=why)
    until = dict(frame.away).get(seat)
    if until is not None and why is None and not frame.game.is_over:
        out["away_ms_left"] = max(0, math.ceil((until - now) * 1000))
    return out


@functools.lru_cache(maxsize=64)
def _rules(rules: Rules) -> tuple[dict[str, Any], list[str]]:
    return rules.to_dict(), rules.describe()


def snapshot_json(config: TableConfig, frame: Frame, seat: int | None, policy: TurnPolicy,
                  now: float) -> dict[str, Any]:
    """The TABLE object of the protocol, for ``seat`` (None: a spectator, who sees the
    public view: no card in any hand, no discard)."""
    rules_json, rules_text = _rules(config.rules)
    game = frame.game
    current = game.current
    view: dict[str, Any] | None = None
    if current is not None:  # table law 11 for both: no earlier trick
        view = (current.view(seat).to_table_json() if seat is not None
                else current.view(current.dealer).to_public_json())
    deadline_seat, deadline = frame.deadline if frame.deadline else (None, None)
    return {
        "id": config.id,
        "kind": config.kind,
        "version": frame.version,
        "seat": seat,
        "seats": [_seat_json(config, frame, i, now) for i in range(4)],
        "preset": config.preset,
        "rules": rules_json,
        "rules_text": rules_text,
        "score": list(game.score),
        "hand_number": len(game.all_hands()),
        "dealer": current.dealer if current is not None else None,
        "to_act": game.to_act,
        "commitment": frame.commitment,
        "game_over": game.is_over,
        "closed": frame.closed,
        "winner": game.winner,
        "view": view,
        "clock": policy.clock_json(deadline_seat, deadline, now),
        "summary": frame.summary,
        "first_draw": first_draw_json(config.first_dealer, config.first_draw),
        "next_commitment": frame.next_commitment,
        "spectators": frame.spectators,
        **({"extra": config.extra} if config.extra else {}),
    }
