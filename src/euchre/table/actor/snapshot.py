"""A seat's table at one version, built as its type (:class:`~.wire.TableSnapshot`).

Each seat gets its own view of the hand (table law 11: no trick before the last one on
view); a spectator gets the public view: no card in any hand, no discard, no farmer's swap,
no legal move, every hidden action by its kind only.

A snapshot is drawn when a reader joins and when a move changes more than its hand (a
deal, a hand's end, a clock, someone coming or going); a plain move is told by the fields it
may change (:func:`moved_fields`), read off the engine's state. Views are built straight
from the engine's state, not through a :class:`~euchre.view.HandView`; :func:`view_json`
is the same view from a :class:`~euchre.view.HandView`, the reference they are tested
against.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import msgspec
from msgspec.structs import replace

from ... import actions as A
from ...cards import card_text, cards_of, suit_text
from ...hand import DISCARD, PHASE_NAMES, HandState
from ...rules import Rules
from ...view import HandView
from .events import Frame
from .first_draw import Draw
from .kind import TurnPolicy
from .seats import TableConfig
from .wire import DrawnCard, FirstDraw, HandViewJson, LastTrick, SeatInfo, TableSnapshot

_HIDDEN_KINDS = (A.DISCARD, A.FARMER_SWAP)
_CARDS = tuple(card_text(c) for c in range(25))  # a card's text by its number


def view_json(view: HandView, public: bool = False) -> HandViewJson:
    """A seat's view as a person at a table is sent it (its own cards; table law 11: a play
    before the ones on view shows only as ``play``), or with ``public`` as a spectator is (no
    hand, discard, farmer's swap or legal move; every hidden action by its kind): the
    reference :class:`Snapshots` is tested against."""
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
    public view: no card in any hand, no discard); a table keeps a :class:`Snapshots`
    instead, to build its many snapshots from their shared parts."""
    return Snapshots().render(config, frame, seat, policy, now, clock_played)


class Snapshots:
    """One table's snapshots (:func:`table_snapshot`), its seats kept while they stay the
    same, and what the observer reads of a move without drawing the whole table
    (:meth:`plain_move`, :meth:`seat_view`). A snapshot is drawn on a join and on a move
    that changes more than the hand, not on every move, so each is built whole from the
    engine's state."""

    def __init__(self) -> None:
        """Nothing kept yet."""
        self._seats_key: tuple[object, ...] | None = None
        self._seats: list[SeatInfo] = []

    def render(self, config: TableConfig, frame: Frame, seat: int | None, policy: TurnPolicy,
               now: float, clock_played: list[int] | None = None) -> TableSnapshot:
        """:func:`table_snapshot` of ``frame`` for ``seat`` (None: the spectators)."""
        game = frame.game
        current = game.current
        # Table law 11 for both: no earlier trick.
        view = self.view(current, seat) if current is not None else None
        deadline_seat, deadline = frame.deadline if frame.deadline else (None, None)
        return TableSnapshot(
            id=config.id,
            kind=config.kind,
            version=frame.version,
            seat=seat,
            seats=self._seat_infos(config, frame, now, game.is_over),
            preset=config.preset,
            rules=config.rules,
            rules_text=_rules_text(config.rules),
            score=list(game.score),
            hand_number=len(game.hands) + (current is not None),
            dealer=current.dealer if current is not None else None,
            to_act=current.to_act if current is not None and not current.is_over else None,
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
            extra=config.extra or None,  # (a practice table's speed changes in it)
            spectators=frame.spectators,
            rematch=frame.rematch.wire(now) if frame.rematch is not None else None,
        )

    def _seat_infos(self, config: TableConfig, frame: Frame, now: float, over: bool
                    ) -> list[SeatInfo]:
        """The four seats; kept while nobody is away (an away seat's time left runs)."""
        if frame.away and not over:
            return [seat_info(config, frame, i, now) for i in range(4)]
        key = (config, frame.connected, frame.replaced, frame.replacement_level)
        if key != self._seats_key:
            self._seats = [seat_info(config, frame, i, now) for i in range(4)]
            self._seats_key = key
        return self._seats

    def view(self, state: HandState, seat: int | None) -> HandViewJson:
        """``view_json(state.view(seat))`` (None: the public view a spectator gets): the
        public view with the seat's own part (:meth:`private`) put in."""
        public = public_view(state)
        if seat is None:
            return public
        own = self.private(state, seat)
        history = public.history
        if own["own"]:  # the seat's own discard or farmer's swap, in full
            history = list(history)
            for index, line in own["own"]:
                history[index] = line
        return replace(public, seat=seat, hand=own["hand"], history=history,
                       farmer_gave=own["farmer_gave"], discard=own["discard"],
                       legal=own["legal"])

    def drawer(self, config: TableConfig) -> Callable[
            [Frame, int | None, float, list[int] | None], TableSnapshot]:
        """How the table ``config`` is drawn for the fan-out's readers: ``(frame, seat,
        now, clock_played) -> seat's table``, from the frame alone (its clock from the
        frame's policy): nothing in it reaches the actor."""
        def draw(frame: Frame, seat: int | None, now: float,
                 clock_played: list[int] | None) -> TableSnapshot:
            return self.render(config, frame, seat, frame.policy, now, clock_played)

        return draw

    @staticmethod
    def plain_move(last: Frame, frame: Frame, now: float
                   ) -> tuple[dict[str, Any], dict[str, Any] | None] | None:
        """The fields a move may change of ``frame``'s public view (:func:`moved_fields`)
        and its clock at ``now``, if ``frame`` follows ``last`` by a move within that hand
        and nothing else a reader sees changed (no hand ended, nobody connected, left,
        watched or went away, no new summary or commitment, no rematch, the settings as
        they were); else None: the observer draws and compares the whole table
        (:data:`~.observer.PlainMove`)."""
        game, was = frame.game, last.game
        current, previous = game.current, was.current
        if (current is None or previous is None or current.is_over
                or len(game.hands) != len(was.hands) or frame.away or last.away
                or frame.rematch is not None or last.rematch is not None
                or frame.summary is not last.summary
                or frame.next_commitment is not last.next_commitment
                or frame.commitment != last.commitment or frame.connected != last.connected
                or frame.spectators != last.spectators or frame.replaced != last.replaced
                or frame.replacement_level != last.replacement_level
                or frame.closed != last.closed or frame.settings != last.settings
                or frame.policy is not last.policy):
            return None
        seat, deadline = frame.deadline if frame.deadline else (None, None)
        clock = frame.policy.clock_json(seat, deadline, now)
        return moved_fields(current), msgspec.to_builtins(clock) if clock is not None else None

    @staticmethod
    def seat_view(frame: Frame, seat: int) -> dict[str, Any] | None:
        """What only ``seat`` sees of ``frame``'s hand (:meth:`private`; None before the
        first deal)."""
        current = frame.game.current
        return Snapshots.private(current, seat) if current is not None else None

    @staticmethod
    def private(state: HandState, seat: int) -> dict[str, Any]:
        """What only ``seat`` sees of ``state`` (``you`` in docs/protocol.md): its
        ``hand``, ``legal`` moves, ``discard``, the cards it gave in a farmer's swap
        (``farmer_gave``), and ``own``: ``[index, [seat, action]]`` of each of its own
        hidden actions in the history, in full. JSON values."""
        gave: list[str] = []
        own: list[list[Any]] = []
        discard = state.discard
        dealing = seat == state.dealer
        # Only a dealer's discard and a farmer's swap are hidden: the history is read only
        # where the seat may have made one.
        if (dealing and discard >= 0) or state.rules.farmers_hand != "off":
            for index, (s, action) in enumerate(state.history()):
                if s == seat and action.kind in _HIDDEN_KINDS:
                    own.append([index, [seat, str(action)]])
                    if action.kind == A.FARMER_SWAP:
                        gave = [_CARDS[c] for c in action.cards]
        return {
            "hand": [_CARDS[c] for c in cards_of(state.hand_mask(seat))],
            "legal": ([str(a) for a in state.legal_actions()] if state.to_act == seat
                      else []),
            "discard": _CARDS[discard] if dealing and discard >= 0 else None,
            "farmer_gave": gave,
            "own": own,
        }


def moved_fields(state: HandState) -> dict[str, Any]:
    """The fields of ``state``'s public view that a move within the hand may change beyond
    what its events say (the history, the trick and the last trick), as JSON values, read
    off the state without building the view: what the observer compares after a plain
    move (:data:`~.observer.PlainMove`)."""
    leader = state.trick[0]
    trump, maker, lone, reneged = state.trump, state.maker, state.lone_defender, state.reneged
    return {
        "phase": PHASE_NAMES[state.phase],
        "to_act": state.to_act,
        "upcard_taken": state.discard >= 0 or state.phase == DISCARD,
        "trump": suit_text(trump) if trump >= 0 else None,
        "maker": maker if maker >= 0 else None,
        "alone": state.alone,
        "lone_defender": lone if lone >= 0 else None,
        "sitting_out": [s for s in range(4) if state.out >> s & 1],
        "leader": leader if leader >= 0 else None,
        "tricks_played": len(state.tricks),
        "tricks_won": list(state.tricks_won),
        "points": list(state.points),
        "thrown_in": state.thrown_in,
        "reneged": list(reneged) if reneged else None,
    }


def public_view(state: HandState) -> HandViewJson:
    """The view a spectator gets of ``state``: every hidden action by its kind, and (table
    law 11) only the plays still on view with their card."""
    tricks = state.tricks
    trick = state.trick[1]
    history: list[list[int | str]] = []
    plays: list[int] = []  # where the plays that show a card are in the history
    for s, action in state.history():
        kind = action.kind
        if kind in _HIDDEN_KINDS:
            history.append([s, kind])
        else:
            if kind == A.PLAY:
                plays.append(len(history))
            history.append([s, str(action)])
    keep = len(trick) if trick else len(tricks[-1][1]) if tricks else 0
    for index in plays[:max(0, len(plays) - keep)]:
        history[index] = [history[index][0], A.PLAY]
    last = tricks[-1] if tricks and not trick else None
    fields = moved_fields(state)
    return HandViewJson(
        seat=None,
        rules=state.rules,
        dealer=state.dealer,
        score=list(state.score),
        hand=[],
        upcard=_CARDS[state.upcard],
        history=history,
        discard=None,
        farmer_gave=[],
        trick=[_CARDS[c] for c in trick],
        last_trick=(LastTrick(leader=last[0], cards=[_CARDS[c] for c in last[1]],
                              winner=last[2]) if last else None),
        legal=[],
        **fields,
    )
