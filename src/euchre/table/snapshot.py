"""A seat's table at one version, built as its type (:class:`~.wire.TableSnapshot`).

Each seat gets its own view of the hand (table law 11: no trick before the last one on
view); a spectator gets the public view: no card in any hand, no discard, no farmer's swap,
no legal move, every hidden action by its kind only.
"""

from __future__ import annotations

import functools
import math

from .. import actions as A
from ..cards import card_text, suit_text
from ..rules import Rules
from ..view import HandView
from .events import Frame
from .first_draw import Draw
from .kinds import TurnPolicy
from .seats import TableConfig
from .wire import DrawnCard, FirstDraw, HandViewJson, LastTrick, SeatInfo, TableSnapshot

_HIDDEN_KINDS = (A.DISCARD, A.FARMER_SWAP)


def view_json(view: HandView, public: bool = False) -> HandViewJson:
    """A seat's view as a person at a table is sent it (``HandView.to_table_json``), or with
    ``public`` as a spectator is (``HandView.to_public_json``)."""
    hidden = iter(view.hidden_kinds)
    history: list[list[int | str]] = [
        [seat, next(hidden) if action is None
         else action.kind if public and action.kind in _HIDDEN_KINDS else str(action)]
        for seat, action in view.history
    ]
    keep = view.plays_on_view  # table law 11: earlier plays show only as "play"
    for entry in reversed(history):
        text = entry[1]
        if isinstance(text, str) and text.startswith(A.PLAY):
            if keep:
                keep -= 1
            else:
                entry[1] = A.PLAY
    last = view.last_trick
    return HandViewJson(
        seat=None if public else view.seat,
        rules=view.rules,
        dealer=view.dealer,
        score=list(view.score),
        phase=view.phase,
        to_act=view.to_act,
        hand=[] if public else [card_text(c) for c in view.hand],
        upcard=card_text(view.upcard),
        upcard_taken=view.upcard_taken,
        history=history,
        trump=suit_text(view.trump) if view.trump >= 0 else None,
        maker=view.maker if view.maker >= 0 else None,
        alone=view.alone,
        lone_defender=view.lone_defender if view.lone_defender >= 0 else None,
        sitting_out=list(view.sitting_out),
        discard=card_text(view.discard) if view.discard is not None and not public else None,
        farmer_gave=[] if public else [card_text(c) for c in view.farmer_gave],
        leader=view.leader if view.leader >= 0 else None,
        trick=[card_text(c) for c in view.trick],
        last_trick=(LastTrick(leader=last[0], cards=[card_text(c) for c in last[1]],
                              winner=last[2]) if last else None),
        tricks_played=len(view.tricks),
        tricks_won=list(view.tricks_won),
        points=list(view.points),
        thrown_in=view.thrown_in,
        reneged=list(view.reneged) if view.reneged else None,
        legal=[] if public else [str(a) for a in view.legal],
    )


def seat_info(config: TableConfig, frame: Frame, seat: int, now: float) -> SeatInfo:
    """What everyone sees of a seat: who, connected, away (and for how long), or played by
    a computer since its person left (``kind`` bot, ``replaced`` says why)."""
    sitting = config.seats[seat]
    info = SeatInfo(seat=seat, name=sitting.name, kind=sitting.kind,  # type: ignore[arg-type]
                    level=sitting.level, connected=frame.connected[seat],
                    outside_bot=sitting.bot_token is not None)
    why = dict(frame.replaced).get(seat)
    if why is not None:
        info.kind, info.level, info.replaced = "bot", frame.replacement_level, why  # type: ignore[assignment]
    until = dict(frame.away).get(seat)
    if until is not None and why is None and not frame.game.is_over:
        info.away_ms_left = max(0, math.ceil((until - now) * 1000))
    return info


@functools.lru_cache(maxsize=64)
def _rules_text(rules: Rules) -> list[str]:
    return rules.describe()


@functools.lru_cache(maxsize=256)
def _first_draw(dealer: int, draw: Draw) -> FirstDraw | None:
    if not draw:
        return None
    return FirstDraw(dealer=dealer, cards=[DrawnCard(seat=s, card=card_text(c)) for s, c in draw])


def table_snapshot(config: TableConfig, frame: Frame, seat: int | None, policy: TurnPolicy,
                   now: float, clock_played: list[int] | None = None) -> TableSnapshot:
    """The TABLE object of the protocol, for ``seat`` (None: a spectator, who sees the
    public view: no card in any hand, no discard)."""
    game = frame.game
    current = game.current
    view = None
    if current is not None:  # table law 11 for both: no earlier trick
        view = (view_json(current.view(seat)) if seat is not None
                else view_json(current.view(current.dealer), public=True))
    deadline_seat, deadline = frame.deadline if frame.deadline else (None, None)
    return TableSnapshot(
        id=config.id,
        kind=config.kind,
        version=frame.version,
        seat=seat,
        seats=[seat_info(config, frame, i, now) for i in range(4)],
        preset=config.preset,
        rules=config.rules,
        rules_text=_rules_text(config.rules),
        score=list(game.score),
        hand_number=len(game.all_hands()),
        dealer=current.dealer if current is not None else None,
        to_act=game.to_act,
        commitment=frame.commitment,
        game_over=game.is_over,
        closed=frame.closed,
        winner=game.winner,
        view=view,
        clock=policy.clock_json(deadline_seat, deadline, now),
        summary=frame.summary,
        first_draw=_first_draw(config.first_dealer, config.first_draw),
        next_commitment=frame.next_commitment,
        clock_played=clock_played,
        extra=config.extra or None,
        spectators=frame.spectators,
    )
