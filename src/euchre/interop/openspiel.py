"""OpenSpiel's ``euchre`` and ours: histories to records and back, and our players as bots.

- :func:`history_to_record` turns an OpenSpiel history (every action, chance included) into
  a :class:`~euchre.record.GameRecord` of one hand; :func:`record_to_history` turns a hand of
  a record back into the history OpenSpiel would have.
- :func:`make_bot` wraps any of our levels (or any :class:`~euchre.bots.Bot`) as a
  ``pyspiel.Bot``, to measure our players inside OpenSpiel (``pyspiel.evaluate_bots``) and to
  play OpenSpiel's algorithms against ours.

The conversions need nothing but the engine; :func:`make_bot` needs ``open_spiel``
(``pip install 'euchre[openspiel]'``). docs/interop.md explains each rule difference:

- numbering: OpenSpiel's players 0-3 are North, East, South, West; they are our seats 0-3 in
  the same clockwise order (only the names differ), so a player number is a seat number;
- cards: OpenSpiel's id is ``rank * 4 + suit``, ours ``suit * 6 + rank`` (suits C D H S, ranks
  9 T J Q K A in both);
- the deal: chance action 0 picks the dealer, actions 1-20 deal the card ``i - 1`` to seat
  ``(dealer + i - 1) % 4``, action 21 turns the upcard; OpenSpiel never deals the other three
  kitty cards, so a record gets the three cards nobody holds in card order;
- bids: pass 24, order up or name suit ``s`` is ``25 + s`` in both rounds;
- going alone: OpenSpiel asks the maker after the dealer's discard (29 alone, 30 with the
  partner); we announce it with the bid, so the answer is folded into the bid. In a history
  cut off before the answer, the bid counts as not alone;
- defending alone (``allow_lone_defender``): OpenSpiel's 29 and 30 are our ``defend alone`` and
  ``pass``, asked in the same order;
- OpenSpiel's dealer may not discard the upcard: such a record cannot be converted, and a
  wrapped player that wants to discard it discards its next choice instead;
- OpenSpiel plays one hand with no game score; its game parameters ``stick_the_dealer``
  (default on) and ``allow_lone_defender`` (default off) are our ``stick_the_dealer`` and
  ``defend_alone``, and every other rule of ours must be as OpenSpiel plays it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .. import actions as A
from ..actions import Action
from ..bots import Bot, decision_rng, make
from ..cards import JOKER, Card, card_suit, effective_suit, trick_rank
from ..errors import DealError, IllegalActionError
from ..hand import HandState, deal
from ..record import GameRecord, HandRecord
from ..rules import Rules
from ..view import HandView

PASS = 24
"""OpenSpiel's pass."""
BID = 25
"""OpenSpiel's order up / name a suit: ``BID + suit``."""
ALONE = 29
"""OpenSpiel's "go alone" (the maker, or a defender with ``allow_lone_defender``)."""
PARTNER = 30
"""OpenSpiel's "play with the partner"."""
DEAL_LENGTH = 22
"""Chance actions before the first decision: the dealer, 20 cards and the upcard."""
PARAMETERS = {"stick_the_dealer": True, "allow_lone_defender": False}
"""OpenSpiel's euchre game parameters and their defaults."""


class ConversionError(ValueError):
    """Raised when a history or a record has no counterpart in the other game."""


def card_to_openspiel(card: Card) -> int:
    """Our card as OpenSpiel's action id."""
    if not 0 <= card < JOKER:
        raise ConversionError(f"card {card!r} has no OpenSpiel counterpart")
    return (card % 6) * 4 + card // 6


def card_from_openspiel(action: int) -> Card:
    """OpenSpiel's card id (0-23) as our card."""
    if not 0 <= action < 24:
        raise ConversionError(f"{action!r} is not an OpenSpiel card")
    return (action % 4) * 6 + action // 4


def rules_from_params(params: Mapping[str, Any] | None = None) -> Rules:
    """Our rules for OpenSpiel's euchre game parameters (its defaults where missing)."""
    given = dict(params or {})
    unknown = sorted(set(given) - set(PARAMETERS))
    if unknown:
        raise ConversionError(f"unknown OpenSpiel euchre parameter(s): {', '.join(unknown)}")
    values = {**PARAMETERS, **given}
    return Rules(stick_the_dealer=bool(values["stick_the_dealer"]),
                 defend_alone=bool(values["allow_lone_defender"]))


def params_from_rules(rules: Rules) -> dict[str, bool]:
    """OpenSpiel's game parameters for our rules; refuses rules OpenSpiel cannot play."""
    problems = []
    if rules.benny:
        problems.append("the Benny (OpenSpiel has no joker)")
    if rules.farmers_hand != "off":
        problems.append("the farmer's hand")
    if rules.canadian_loner:
        problems.append("the Canadian loner")
    if rules.lead_when_sitting_out != "dealer-left":
        problems.append("the lone player's left leading (OpenSpiel: the dealer's left)")
    if not rules.dealer_exchanges_when_partner_alone:
        problems.append("no exchange when the dealer's partner goes alone (OpenSpiel exchanges)")
    if problems:
        raise ConversionError("OpenSpiel's euchre has no " + "; no ".join(problems))
    return {"stick_the_dealer": rules.stick_the_dealer, "allow_lone_defender": rules.defend_alone}


class _Replay:
    """An OpenSpiel history replayed through our engine, decision by decision."""

    def __init__(self, history: Sequence[int], params: Mapping[str, Any] | None) -> None:
        self.rules = rules_from_params(params)
        moves = [int(a) for a in history]
        if len(moves) < DEAL_LENGTH:
            raise ConversionError(
                f"an OpenSpiel euchre history starts with {DEAL_LENGTH} chance actions (the "
                f"dealer, 20 cards, the upcard); this one has {len(moves)} actions")
        dealer = moves[0]
        if dealer not in (0, 1, 2, 3):
            raise ConversionError(f"action 0 picks the dealer (0-3), not {dealer}")
        cards = [card_from_openspiel(a) for a in moves[1:DEAL_LENGTH]]
        hands: list[list[Card]] = [[], [], [], []]
        for i, card in enumerate(cards[:20]):
            hands[(dealer + i) % 4].append(card)
        rest = sorted(set(range(24)) - set(cards))
        try:
            self.start = deal(self.rules, dealer, hands, [cards[20], *rest])
        except DealError as e:
            raise ConversionError(f"the chance actions are not a deal: {e}") from None
        self.states = [self.start]  # our state before each of our actions, then the last
        self.actions: list[tuple[int, Action]] = []
        self.bid_at = -1  # index in self.actions of the maker's bid
        self.answered = False  # whether OpenSpiel's maker has answered "alone?"
        for index in range(DEAL_LENGTH, len(moves)):
            self._step(moves, index)

    @property
    def state(self) -> HandState:
        """Our state after the whole history."""
        return self.states[-1]

    def _step(self, moves: list[int], index: int) -> None:
        state = self.state
        move = moves[index]
        if state.is_over:
            raise ConversionError(f"action {index} ({move}): the hand is already over")
        phase = state.phase_name
        action: Action | None = None
        if move == PASS and phase in ("order", "call"):
            action = A.PASS
        elif BID <= move < BID + 4 and phase in ("order", "call"):
            later = [a for a in moves[index + 1:] if a in (ALONE, PARTNER)]
            alone = bool(later) and later[0] == ALONE
            if phase == "order":
                action = A.ORDER_UP_ALONE if alone else A.ORDER_UP
            else:
                action = (A.CALLS_ALONE if alone else A.CALLS)[move - BID]
            if phase == "order" and move - BID != card_suit(state.upcard):
                raise ConversionError(f"action {index}: round one orders up the upcard's suit")
            self.bid_at = len(self.actions)
        elif move in (ALONE, PARTNER) and self.bid_at >= 0 and not self.answered:
            self.answered = True  # the maker's answer, folded into the bid
            return
        elif move in (ALONE, PARTNER) and phase == "defend":
            action = A.DEFEND_ALONE if move == ALONE else A.PASS
        elif 0 <= move < 24 and phase == "discard":
            action = A.DISCARDS[card_from_openspiel(move)]
        elif 0 <= move < 24 and phase == "play":
            action = A.PLAYS[card_from_openspiel(move)]
        if action is None:
            raise ConversionError(f"action {index} ({move}) has no meaning in the {phase} phase")
        seat = state.to_act
        assert seat is not None
        try:
            after = state.apply(action)
        except IllegalActionError as e:
            raise ConversionError(f"action {index} ({move}, our {action}): {e}") from None
        self.actions.append((seat, action))
        self.states.append(after)

    def record(self) -> GameRecord:
        """The record of the hand so far."""
        state = self.state
        hand = HandRecord(state.dealer, state.deal, list(self.actions),
                          state.points if state.is_over else None)
        return GameRecord(self.rules, [hand])


def history_to_record(history: Sequence[int], params: Mapping[str, Any] | None = None
                      ) -> GameRecord:
    """Our record of one OpenSpiel euchre hand (``state.history()``, chance actions included).

    ``params`` are the game's parameters (``game.get_parameters()``). A history cut off
    mid-hand gives a record without a result. Raises :class:`ConversionError`.
    """
    return _Replay(history, params).record()


def state_from_history(history: Sequence[int], params: Mapping[str, Any] | None = None
                       ) -> HandState:
    """Our state after an OpenSpiel history (see :func:`history_to_record`)."""
    return _Replay(history, params).state


def record_to_history(record: GameRecord, hand: int = 0) -> list[int]:
    """The OpenSpiel history of one hand of a record (the first by default).

    Raises :class:`ConversionError` for rules OpenSpiel does not play, a dealer's discard of
    the upcard, and a renege claim.
    """
    params_from_rules(record.rules)
    try:
        played = record.hands[hand]
    except IndexError:
        raise ConversionError(f"the record has no hand {hand + 1}") from None
    dealer = played.dealer
    cards = played.deal.hands
    upcard = played.deal.kitty[0]
    history = [dealer]
    history += [card_to_openspiel(cards[(dealer + i) % 4][i // 4]) for i in range(20)]
    history.append(card_to_openspiel(upcard))
    try:
        state = HandState(record.rules, dealer, played.deal)
    except DealError as e:
        raise ConversionError(str(e)) from None
    pending: bool | None = None  # the maker's alone, told to OpenSpiel after any discard
    for number, (seat, action) in enumerate(played.actions, 1):
        where = f"hand {hand + 1}, action {number} ({seat} {action})"
        kind = action.kind
        if kind == A.PASS_KIND:
            history.append(PARTNER if state.phase_name == "defend" else PASS)
        elif kind == A.ORDER:
            history.append(BID + card_suit(upcard))
            pending = action.alone
        elif kind == A.CALL:
            history.append(BID + action.suit)
            pending = action.alone
        elif kind == A.DISCARD:
            if action.card == upcard:
                raise ConversionError(f"{where}: OpenSpiel's dealer may not discard the upcard")
            history.append(card_to_openspiel(action.card))
        elif kind == A.DEFEND:
            history.append(ALONE)
        elif kind == A.PLAY:
            history.append(card_to_openspiel(action.card))
        else:
            raise ConversionError(f"{where}: OpenSpiel has no {kind}")
        try:
            state = state.apply(action, seat=seat)
        except IllegalActionError as e:
            raise ConversionError(f"{where}: {e}") from None
        if pending is not None and state.phase_name != "discard":
            history.append(ALONE if pending else PARTNER)
            pending = None
    return history


def to_openspiel_action(action: Action, state: HandState) -> int:
    """OpenSpiel's action for one of ours in ``state`` (a bid's alone is asked later)."""
    kind = action.kind
    if kind == A.PASS_KIND:
        return PARTNER if state.phase_name == "defend" else PASS
    if kind == A.ORDER:
        return BID + card_suit(state.upcard)
    if kind == A.CALL:
        return BID + action.suit
    if kind == A.DEFEND:
        return ALONE
    if kind in (A.DISCARD, A.PLAY):
        return card_to_openspiel(action.card)
    raise ConversionError(f"OpenSpiel has no {action}")


def _other_discard(bot: Bot, view: HandView) -> Card:
    """The discard a player makes when OpenSpiel forbids discarding the upcard."""
    from ..bots.hard import HardBot, ranked_discards

    if isinstance(bot, HardBot):
        ranked = ranked_discards(view, decision_rng(bot.seed, view), bot.budget)
        return next(card for card, *_ in ranked if card != view.upcard)
    trump = view.trump

    def strength(card: Card) -> tuple[bool, int]:
        suit = effective_suit(card, trump)
        return (suit == trump, trick_rank(card, trump, suit))

    return min((c for c in view.hand if c != view.upcard), key=strength)


def choose(bot: Bot, history: Sequence[int], params: Mapping[str, Any] | None = None) -> int:
    """Our player's OpenSpiel action for the player to act after ``history``.

    The maker's "alone?" is answered as the player announced it with its bid (asked again at
    the bid, so the answer does not depend on remembering it).
    """
    replay = _Replay(history, params)
    state = replay.state
    if state.is_over:
        raise ConversionError("the hand is over: nobody is to act")
    if replay.bid_at >= 0 and not replay.answered and state.phase_name != "discard":
        maker, bid = replay.actions[replay.bid_at]
        before = replay.states[replay.bid_at]
        again = bot.choose(before.view(maker))
        same = again.kind == bid.kind and (again.suit == bid.suit or bid.kind == A.ORDER)
        return ALONE if same and again.alone else PARTNER
    to_act = state.to_act
    assert to_act is not None
    view = state.view(to_act)
    action = bot.choose(view)
    if action.kind == A.DISCARD and action.card == view.upcard:
        action = A.DISCARDS[_other_discard(bot, view)]
    return to_openspiel_action(action, state)


def make_bot(player: str | Bot, player_id: int, params: Mapping[str, Any] | None = None,
             seed: int | None = None) -> Any:
    """A ``pyspiel.Bot`` that plays OpenSpiel's euchre as our ``player`` does.

    ``player`` is a level name (``random`` … ``expert``, made with ``seed``) or a bot;
    ``params`` are the game's parameters (``game.get_parameters()``).
    """
    import pyspiel  # type: ignore[import-not-found, unused-ignore]

    ours = make(player, seed) if isinstance(player, str) else player
    rules_from_params(params)  # refuse unknown parameters now, not at the first move

    class EuchreBot(pyspiel.Bot):  # type: ignore[misc, unused-ignore]
        """One of our players seated as OpenSpiel player ``player_id``."""

        def __init__(self) -> None:
            pyspiel.Bot.__init__(self)
            self.player_id = player_id
            self.player = ours
            self.params = dict(params or {})

        def step(self, state: Any) -> int:
            legal = state.legal_actions()
            if state.current_player() != self.player_id:
                raise ConversionError(f"player {state.current_player()} is to act, "
                                      f"not this bot's player {self.player_id}")
            move = legal[0] if len(legal) == 1 else choose(self.player, state.history(),
                                                          self.params)
            if move not in legal:  # pragma: no cover - the engines agree on legal moves
                raise ConversionError(f"our move {move} is not among OpenSpiel's {legal}")
            return int(move)

        def restart_at(self, state: Any) -> None:
            """Nothing to forget: each step reads the whole history."""

        def inform_action(self, state: Any, player_id: int, action: int) -> None:
            """Nothing to remember: each step reads the whole history."""

        def provides_force_action(self) -> bool:
            return False

        def provides_policy(self) -> bool:
            return False

        def is_clone_implemented(self) -> bool:
            return False

    return EuchreBot()
