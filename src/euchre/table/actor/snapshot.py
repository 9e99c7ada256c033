"""A seat's table at one version, built as its type (:class:`~.wire.TableSnapshot`).

Each seat gets its own view of the hand (table law 11: no trick before the last one on
view); a spectator gets the public view: no card in any hand, no discard, no farmer's swap,
no legal move, every hidden action by its kind only.

A table renders a snapshot for every audience after every change, so :class:`Snapshots`
builds each from what it shares with the others: the public view of a hand is built once
(straight from the engine's state, not through a :class:`~euchre.view.HandView`) and a
seat's view is that with the seat's own cards, moves and hidden actions put in; the seats
and the settings are built once and reused while they stay the same. :func:`view_json` is
the same view from a :class:`~euchre.view.HandView`, the reference the fast path is tested
against.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from ... import actions as A
from ...cards import card_text, cards_of, suit_text
from ...hand import DISCARD, PHASE_NAMES, PLAY, HandState
from ...rules import Rules
from ...view import HandView
from .events import Frame
from .first_draw import Draw
from .kind import TurnPolicy
from .seats import TableConfig
from .wire import DrawnCard, FirstDraw, HandViewJson, LastTrick, SeatInfo, TableSnapshot

_HIDDEN_KINDS = (A.DISCARD, A.FARMER_SWAP)
_CARDS = tuple(card_text(c) for c in range(25))  # a card's text by its number
_PLAYING = PHASE_NAMES[PLAY]
# Lists every view would otherwise make anew: the empty ones, who sits out, and pairs of
# numbers (scores, tricks, points) by value. Shared by every snapshot of every table, as
# a snapshot is never changed once built; each list a view makes is one more object for
# the garbage collector to walk while the table keeps it.
_EMPTY: list[Any] = []
_SITTING_OUT = tuple([s for s in range(4) if out >> s & 1] for out in range(16))
_PAIRS: dict[tuple[int, int], list[int]] = {}


def _pair(values: tuple[int, int]) -> list[int]:
    """The shared list of two numbers (``[a, b]``)."""
    got = _PAIRS.get(values)
    if got is None:
        got = _PAIRS[values] = [values[0], values[1]]
    return got


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
    """One table's snapshots, each built from the parts it shares with the table's other
    snapshots: the same as :func:`table_snapshot`, at a fraction of the cost.

    What is kept is only reused while it is the same object (the hand's state, the
    table's settings) or equal (who is connected or replaced), so a snapshot never shows
    anything stale. Kept values are shared between snapshots: nothing may change a
    snapshot once built (they are encoded, never edited).
    """

    def __init__(self) -> None:
        """Nothing kept yet."""
        self._config: TableConfig | None = None
        self._settings: tuple[list[str], FirstDraw | None] = ([], None)
        self._seats_key: tuple[object, ...] | None = None
        self._seats: list[SeatInfo] = []
        self._hand: HandState | None = None  # the state whose public view is kept
        self._public: HandViewJson | None = None
        self._own: dict[int, list[tuple[int, A.Action]]] = {}  # seat: its hidden actions
        self._discarded = False  # whether the kept hand's dealer has discarded
        self._plays: list[int] = []  # indexes in the kept history of plays showing a card
        self._held: dict[int, tuple[int, list[str]]] = {}  # seat: (cards mask, texts)

    def render(self, config: TableConfig, frame: Frame, seat: int | None, policy: TurnPolicy,
               now: float, clock_played: list[int] | None = None) -> TableSnapshot:
        """:func:`table_snapshot` of ``frame`` for ``seat`` (None: the spectators)."""
        if config is not self._config:
            self._config, self._seats_key = config, None
            self._settings = (_rules_text(config.rules),
                              _first_draw(config.first_dealer, config.first_draw))
        rules_text, first_draw = self._settings
        extra = config.extra or None  # (a practice table's speed changes in it)
        game = frame.game
        current = game.current
        # Table law 11 for both: no earlier trick.
        view = self.view(current, seat) if current is not None else None
        deadline_seat, deadline = frame.deadline if frame.deadline else (None, None)
        winner = game.winner
        return TableSnapshot(
            id=config.id,
            kind=config.kind,
            version=frame.version,
            seat=seat,
            seats=self._seat_infos(config, frame, now, game.is_over),
            preset=config.preset,
            rules=config.rules,
            rules_text=rules_text,
            score=_pair(game.score),
            hand_number=len(game.hands) + (current is not None),
            dealer=current.dealer if current is not None else None,
            to_act=current.to_act if current is not None and not current.is_over else None,
            commitment=frame.commitment,
            game_over=game.is_over,
            closed=frame.closed,
            winner=winner,
            view=view,
            clock=policy.clock_json(deadline_seat, deadline, now),
            summary=frame.summary,
            first_draw=first_draw,
            next_commitment=frame.next_commitment,
            clock_played=clock_played,
            extra=extra,
            spectators=frame.spectators,
            rematch=frame.rematch.wire(now) if frame.rematch is not None else None,
        )

    def _seat_infos(self, config: TableConfig, frame: Frame, now: float, over: bool
                    ) -> list[SeatInfo]:
        """The four seats; kept while nobody is away (an away seat's time left runs)."""
        if frame.away and not over:
            return [seat_info(config, frame, i, now) for i in range(4)]
        key = (frame.connected, frame.replaced, frame.replacement_level)
        if key != self._seats_key:
            self._seats = [seat_info(config, frame, i, now) for i in range(4)]
            self._seats_key = key
        return self._seats

    def view(self, state: HandState, seat: int | None) -> HandViewJson:
        """``view_json(state.view(seat))`` (None: the public view a spectator gets): the
        public view with the seat's own part (:meth:`private`) put in."""
        public = self._public_of(state)
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

    def plain_move(self, last: Frame, frame: Frame) -> HandViewJson | None:
        """The public view of ``frame``'s hand if ``frame`` follows ``last`` by a move
        within that hand and nothing else a reader sees changed (no hand ended, nobody
        connected, left, watched or went away, no clock, no new summary or commitment,
        no rematch, the settings as they were); else None: the observer draws and
        compares the whole table (:data:`~.observer.PlainMove`)."""
        game, was = frame.game, last.game
        current, previous = game.current, was.current
        if (current is None or previous is None or current.is_over
                or len(game.hands) != len(was.hands) or frame.away or last.away
                or frame.deadline is not None or last.deadline is not None
                or frame.rematch is not None or last.rematch is not None
                or frame.summary is not last.summary
                or frame.next_commitment is not last.next_commitment
                or frame.commitment != last.commitment or frame.connected != last.connected
                or frame.spectators != last.spectators or frame.replaced != last.replaced
                or frame.replacement_level != last.replacement_level
                or frame.closed != last.closed or frame.settings != last.settings):
            return None
        return self.view(current, None)

    def seat_view(self, frame: Frame, seat: int) -> dict[str, Any] | None:
        """What only ``seat`` sees of ``frame``'s hand (:meth:`private`; None before the
        first deal)."""
        current = frame.game.current
        return self.private(current, seat) if current is not None else None

    def private(self, state: HandState, seat: int) -> dict[str, Any]:
        """What only ``seat`` sees of ``state`` (``you`` in docs/protocol.md): its
        ``hand``, ``legal`` moves, ``discard``, the cards it gave in a farmer's swap
        (``farmer_gave``), and ``own``: ``[index, [seat, action]]`` of each of its own
        hidden actions in the history, in full. JSON values; a list is shared while it
        stays the same (never changed once made)."""
        public = self._public_of(state)
        held = self._held.get(seat)
        mask = state.hand_mask(seat)
        if held is None or held[0] != mask:
            held = self._held[seat] = (mask, [_CARDS[c] for c in cards_of(mask)])
        gave: list[str] = _EMPTY
        own: list[list[Any]] = []
        for index, action in self._own.get(seat, ()):
            own.append([index, [seat, str(action)]])
            if action.kind == A.FARMER_SWAP:
                gave = [_CARDS[c] for c in action.cards]
        discard = state.discard
        return {
            "hand": held[1],
            "legal": ([str(a) for a in state.legal_actions()] if state.to_act == seat
                      else _EMPTY),
            "discard": _CARDS[discard] if seat == public.dealer and discard >= 0 else None,
            "farmer_gave": gave,
            "own": own,
        }

    def _public_of(self, state: HandState) -> HandViewJson:
        """The public view of ``state`` (kept: built again only for another state)."""
        if state is not self._hand:
            self._public = self._public_view(state)
            self._hand = state
        assert self._public is not None
        return self._public

    def _public_view(self, state: HandState) -> HandViewJson:
        """The view a spectator gets of ``state``; notes each seat's hidden actions. The
        history is the kept one with the actions since added, when ``state`` follows from
        the kept state (the next move, as a table shows them), else built anew."""
        kept, public = self._hand, self._public
        actions = state.actions_since(kept) if kept is not None and public is not None else None
        plays: list[int]
        follows = actions is not None and public is not None
        if actions is None or public is None:
            actions, history, own, discarded, plays = state.history(), [], {}, False, []
        else:  # kept entries are shared with earlier snapshots: replaced, never changed
            history, own, discarded = list(public.history), self._own, self._discarded
            plays = list(self._plays)
        for s, action in actions:
            kind = action.kind
            if kind in _HIDDEN_KINDS:
                discarded = discarded or kind == A.DISCARD
                own.setdefault(s, []).append((len(history), action))
                history.append([s, kind])
            else:
                if kind == A.PLAY:
                    plays.append(len(history))
                history.append([s, str(action)])
        leader, trick = state.trick
        tricks = state.tricks
        # Table law 11: only the plays still on view show their card. The plays that show
        # one are noted, so only those that leave the view now are hidden (a kept history
        # has the earlier ones hidden already); no walk over the whole history.
        keep = len(trick) if trick else len(tricks[-1][1]) if tricks else 0
        gone = len(plays) - keep
        if gone > 0:
            for index in plays[:gone]:
                history[index] = [history[index][0], A.PLAY]
            del plays[:gone]
        self._own, self._discarded, self._plays = own, discarded, plays
        last = tricks[-1] if tricks and not trick else None
        reneged = state.reneged
        play: dict[str, Any] = {  # the fields a play changes
            "history": history,
            "to_act": state.to_act,
            "leader": leader if leader >= 0 else None,
            "trick": [_CARDS[c] for c in trick],
            "last_trick": (LastTrick(leader=last[0], cards=[_CARDS[c] for c in last[1]],
                                     winner=last[2]) if last else None),
            "tricks_played": len(tricks),
            "tricks_won": _pair(state.tricks_won),
            "points": _pair(state.points),
            "thrown_in": state.thrown_in,
            "reneged": list(reneged) if reneged else None,
        }
        if follows and state.phase == PLAY and public is not None and public.phase == _PLAYING:
            # A play after a play: what the bidding settled (trump, maker, who sits out,
            # the upcard taken) and the hand's own settings are the kept view's.
            return replace(public, **play)
        taken = discarded or state.phase == DISCARD  # the dealer holds the upcard already
        trump, maker, lone, out = state.trump, state.maker, state.lone_defender, state.out
        return HandViewJson(
            seat=None,
            rules=state.rules,
            dealer=state.dealer,
            score=_pair(state.score),
            phase=PHASE_NAMES[state.phase],
            hand=_EMPTY,
            upcard=_CARDS[state.upcard],
            upcard_taken=taken,
            trump=suit_text(trump) if trump >= 0 else None,
            maker=maker if maker >= 0 else None,
            alone=state.alone,
            lone_defender=lone if lone >= 0 else None,
            sitting_out=_SITTING_OUT[out],
            discard=None,
            farmer_gave=_EMPTY,
            legal=_EMPTY,
            **play,
        )
