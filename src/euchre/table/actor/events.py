"""Table events, and the table right after each.

An :class:`Event` is what changed (a deal, an action, a trick, the end of a hand or game,
a seat connecting), its body one of the event types of :mod:`.wire`; a :class:`Frame` is
the table right after it. What each reader may see of them is decided by
:mod:`.observer`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

from ...cards import suit_text
from ...game import GameState
from ...hand import HandState
from .kind import TurnPolicy
from .wire import EventBody, HandSummary, NextCommitment, kind_of

if TYPE_CHECKING:
    from .rematch import Offer

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
REMATCH = "rematch"
"""A rematch was offered, answered or ended: ``status``, ``seat``, ``table`` (the TABLE's
``rematch`` holds the offer)."""
SAY = "say"
"""A person said a quick message to the table (:mod:`.talk`): ``seat``, ``message`` (its id)."""


UNTIMED = TurnPolicy()
"""The policy of a table without a move clock (it has no state)."""


class _Pickled:
    """Pickled as a list of the fields' values, as a frozen slotted dataclass is: a frame
    or an event pickled by a tree where they were frozen loads here, and back
    (``scripts/bench/bench_delivery.py --games`` replays one tree's recorded games in another)."""

    __slots__ = ()

    def __getstate__(self) -> list[object]:
        return [getattr(self, f.name) for f in fields(self)]  # type: ignore[arg-type]

    def __setstate__(self, state: list[object]) -> None:
        known = fields(self)  # type: ignore[arg-type]
        if len(state) > len(known):
            raise ValueError(f"{type(self).__name__} pickled with fields this tree lacks")
        for f, value in zip(known, state, strict=False):
            setattr(self, f.name, value)
        for f in known[len(state):]:  # added since (the rematch): their defaults
            setattr(self, f.name, f.default)


@dataclass(slots=True)
class Frame(_Pickled):
    """The table at one version: enough to render any seat's snapshot. Read-only by
    convention (one is made a move: a frozen dataclass's ``__init__`` sets each field
    through ``object.__setattr__``, several times slower)."""

    version: int
    """The version of the last event applied."""
    game: GameState
    """The game (immutable)."""
    summary: HandSummary | None
    """The last finished hand's public summary, or None."""
    commitment: str | None
    """The commitment of the current hand's shuffle."""
    connected: tuple[bool, bool, bool, bool]
    """Whether each person seat has a connection (bots count as connected)."""
    deadline: tuple[int, float] | None = None
    """(seat, time) of the running turn deadline, if any."""
    closed: str | None = None
    """Why the table was closed before its game ended, if it was."""
    next_commitment: NextCommitment | None = None
    """The next hand's table seed commitment, for people's seeds."""
    spectators: int = 0
    """How many connections watch the table without a seat."""
    replaced: tuple[tuple[int, str], ...] = ()
    """(seat, why) of each seat a computer took over from a person who left."""
    away: tuple[tuple[int, float], ...] = ()
    """(seat, time) when each away person's grace runs out."""
    replacement_level: str = "expert"
    """The level of the computer that takes over a seat."""
    rematch: Offer | None = None
    """The rematch offered since the game ended, if any."""
    policy: TurnPolicy = UNTIMED
    """The table's move clock as the frame was made (its ``clock`` is drawn from it)."""
    settings: int = 0
    """How often the table's settings (the computers' speed) had changed: a change makes
    the next move's changes worked out from the whole table."""


@dataclass(slots=True)
class Event(_Pickled):
    """One versioned change at a table (read-only by convention, like :class:`Frame`)."""

    version: int
    """Numbered from 1, one more for each event."""
    body: EventBody
    """What happened, as its seat sees it (an action in full)."""
    frame: Frame | None = None
    """The table right after the event (the events of one move share it)."""

    @property
    def kind(self) -> str:
        """One of the kind constants."""
        return kind_of(self.body)


def hand_summary(hand: HandState, number: int, score: tuple[int, int],
                 seed: str | None, client_seeds: dict[int, str] | None = None) -> HandSummary:
    """The public result of a finished hand (no card that was not played)."""
    maker_side = hand.maker % 2 if hand.maker >= 0 else None
    euchred = (
        maker_side is not None and not hand.thrown_in and hand.reneged is None
        and hand.tricks_won[maker_side] < 3
    )
    march = maker_side is not None and hand.tricks_won[maker_side] == 5
    return HandSummary(
        hand_number=number,
        dealer=hand.dealer,
        maker=hand.maker if hand.maker >= 0 else None,
        trump=suit_text(hand.trump) if hand.trump >= 0 else None,
        alone=hand.alone,
        lone_defender=hand.lone_defender if hand.lone_defender >= 0 else None,
        tricks_won=list(hand.tricks_won),
        points=list(hand.points),
        euchred=euchred,
        march=march,
        thrown_in=hand.thrown_in,
        reneged=list(hand.reneged) if hand.reneged else None,
        score=list(score),
        seed=seed,
        client_seeds={str(s): c for s, c in sorted((client_seeds or {}).items())},
        pattern=hand.deal.pattern,
    )
