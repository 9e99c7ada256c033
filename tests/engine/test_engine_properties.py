"""Property tests over random deals and random play, under every preset and random rule mixes.

Farmer's hands are rare in random deals, so a third of the deals give one seat three nines
and two tens on purpose.
"""

from __future__ import annotations

import random
from itertools import pairwise
from typing import Any

from engine_helpers import play_random_game, snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import euchre
from euchre import actions as A
from euchre.cards import JOKER, NINE, TEN, card_rank, effective_suit, trick_rank
from euchre.hand import Deal, HandState, is_farmers_hand
from euchre.record import GameRecord, ReplayError
from euchre.rules import GAME_LENGTHS, PRESETS, Rules
from euchre.shuffle import new_deck
from euchre.view import HandView

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

mixed_rules = st.builds(
    Rules,
    stick_the_dealer=st.booleans(),
    all_pass=st.sampled_from(["next-dealer", "same-dealer"]),
    defend_alone=st.booleans(),
    canadian_loner=st.booleans(),
    farmers_hand=st.sampled_from(["off", "nines-and-tens", "three-nines-two-tens"]),
    benny=st.booleans(),
    game_to=st.sampled_from(GAME_LENGTHS),
    lead_when_sitting_out=st.sampled_from(["dealer-left", "loner-left"]),
    dealer_exchanges_when_partner_alone=st.booleans(),
    renege_penalty=st.sampled_from(["hand", "flat"]),
)
any_rules = st.one_of(st.sampled_from(list(PRESETS.values())), mixed_rules)


@st.composite
def hands(draw: st.DrawFn) -> tuple[Rules, HandState, random.Random]:
    """Rules, a fresh hand from a random deal, and a random source for choosing actions."""
    rules = draw(any_rules)
    dealer = draw(st.integers(0, 3))
    deck = draw(st.permutations(new_deck(rules.benny)))
    rng = draw(st.randoms(use_true_random=False))
    if draw(st.integers(0, 2)) == 0:
        farmer = draw(st.integers(0, 3))
        nines = [c for c in deck if card_rank(c) == NINE][:3]
        tens = [c for c in deck if card_rank(c) == TEN][:2]
        rest = [c for c in deck if c not in nines + tens]
        dealt = [rest[5 * i : 5 * i + 5] for i in range(3)]
        dealt.insert(farmer, nines + tens)
        d = Deal(tuple(tuple(h) for h in dealt), tuple(rest[15:]), "3-2")
    else:
        from euchre.shuffle import deal_from_deck

        d = deal_from_deck(list(deck), dealer, draw(st.sampled_from(["3-2", "2-3"])))
    return rules, HandState(rules, dealer, d), rng


def step(state: HandState, rng: random.Random) -> HandState:
    """One uniformly random legal action."""
    options = state.legal_actions()
    return state.apply(options[rng.randrange(len(options))])


def states(state: HandState, rng: random.Random) -> list[HandState]:
    """Every state of one random hand, the first and the last included."""
    out = [state]
    while not state.is_over:
        state = step(state, rng)
        out.append(state)
    return out


def universe(state: HandState) -> list[A.Action]:
    """A broad set of actions to try: every kind, every card, legal or not."""
    swaps = [a for a in state.legal_actions() if a.kind == A.FARMER_SWAP][:3]
    return [A.PASS, A.ORDER_UP, A.ORDER_UP_ALONE, A.DEFEND_ALONE, A.KEEP, A.THROW,
            *A.CALLS, *A.CALLS_ALONE, *A.PLAYS, *A.DISCARDS, *swaps,
            A.farmer_swap([0, 1, 2])]


@SETTINGS
@given(hands())
def test_property_every_card_exactly_once(case: tuple[Rules, HandState, random.Random]) -> None:
    """Hands, kitty (with discards), played cards and the upcard hold every card once."""
    rules, state, rng = case
    deck = set(new_deck(rules.benny))
    for s in states(state, rng):
        played = [c for t in s.tricks for c in t[1]] + list(s.trick[1])
        cards = [c for seat in range(4) for c in s.hand(seat)] + list(s.kitty_down) + played
        if s.upcard not in cards:
            cards.append(s.upcard)  # still on the table (or turned down)
        assert len(cards) == len(set(cards)) and set(cards) == deck


@settings(max_examples=60, deadline=None)
@given(hands())
def test_property_only_legal_actions_apply(case: tuple[Rules, HandState, random.Random]) -> None:
    """An action applies exactly when it is listed as legal; a refusal changes nothing."""
    _, state, rng = case
    for s in states(state, rng):
        legal = set(s.legal_actions())
        before = snapshot(s)
        for action in universe(s):
            try:
                s.apply(action)
                applied = True
            except euchre.IllegalActionError:
                applied = False
            assert applied == (action in legal), (str(action), s.phase_name)
            assert snapshot(s) == before


@SETTINGS
@given(hands())
def test_property_follow_suit_left_bower_is_trump(
    case: tuple[Rules, HandState, random.Random],
) -> None:
    """Legal plays are the cards of the suit led (bowers and joker counted as trump) if any."""
    _, state, rng = case
    for s in states(state, rng):
        if s.phase_name != "play":
            continue
        hand = s.hand(s.to_act)  # type: ignore[arg-type]
        trick = s.trick[1]
        plays = {a.card for a in s.legal_actions()}
        if not trick:
            assert plays == set(hand)
            continue
        led = effective_suit(trick[0], s.trump)
        follow = {c for c in hand if effective_suit(c, s.trump) == led}
        assert plays == (follow or set(hand))


@SETTINGS
@given(hands())
def test_property_trick_winner_is_highest_trick_rank(
    case: tuple[Rules, HandState, random.Random],
) -> None:
    """Each trick goes to the card of highest trick rank; the winner leads next."""
    _, state, rng = case
    end = states(state, rng)[-1]
    for n, (leader, cards, winner) in enumerate(end.tricks):
        led = effective_suit(cards[0], end.trump)
        seats = [s for s in ((leader + i) % 4 for i in range(4)) if not end.sits_out(s)]
        ranks = [trick_rank(c, end.trump, led) for c in cards]
        scoring = [r for r in ranks if r > 0]  # off-suit discards all rank 0
        assert len(set(scoring)) == len(scoring) and ranks[0] > 0
        assert seats[ranks.index(max(ranks))] == winner
        if n + 1 < len(end.tricks):
            assert end.tricks[n + 1][0] == winner


def expected_points(end: HandState) -> tuple[int, int]:
    """The scoring table, written out independently of the engine."""
    if end.thrown_in:
        return (0, 0)
    side = end.maker % 2
    taken = end.tricks_won[side]
    if taken == 5:
        pts, scorer = (4 if end.alone else 2), side
    elif taken >= 3:
        pts, scorer = 1, side
    else:
        pts, scorer = (4 if end.lone_defender >= 0 else 2), 1 - side
    return (pts, 0) if scorer == 0 else (0, pts)


@SETTINGS
@given(hands())
def test_property_points_match_the_scoring_table(
    case: tuple[Rules, HandState, random.Random],
) -> None:
    """Points: 1 for 3-4 tricks, 2 for a march, 4 alone; a euchre 2, or 4 by a lone defender."""
    _, state, rng = case
    end = states(state, rng)[-1]
    assert end.points == expected_points(end)
    assert sum(end.tricks_won) == (0 if end.thrown_in else 5)


@SETTINGS
@given(hands())
def test_property_records_round_trip_and_replay(
    case: tuple[Rules, HandState, random.Random],
) -> None:
    """Text and JSON records round-trip exactly; replaying gives the same final state."""
    rules, state, rng = case
    all_states = states(state, rng)
    end = all_states[-1]
    for _, action in end.history():
        assert euchre.parse_action(str(action)) == action
    assert Rules.from_text(rules.to_text()) == rules
    assert Rules.from_dict(rules.to_dict()) == rules
    record = GameRecord.from_hand(end)
    text = record.to_text()
    assert GameRecord.from_text(text) == record
    assert GameRecord.from_text(text).to_text() == text
    assert GameRecord.from_json(record.to_json()) == record
    game = GameRecord.from_text(text).replay()
    assert game.current is not None and snapshot(game.current) == snapshot(end)


def rearranged(state: HandState, end: HandState, seat: int, rng: random.Random) -> Deal | None:
    """The deal with the cards ``seat`` never sees shuffled among the other seats and the
    kitty, keeping each holder's count per suit (under the final trump) so play stays legal.

    Cards named by actions (the dealer's discard, a farmer's swap), played cards and the
    upcard stay where they are. None if a farmer's hand would appear or disappear.
    """
    d = state.deal
    fixed = set(d.hands[seat]) | {d.kitty[0]}
    fixed |= {c for t in end.tricks for c in t[1]} | set(end.trick[1])
    for s, a in end.history():
        if a.kind == A.DISCARD:
            fixed.add(a.card)
        if a.kind == A.FARMER_SWAP:
            fixed |= set(a.cards)
            if s == seat:
                fixed |= set(d.kitty[1:4])
    slots: list[list[Any]] = [list(h) for h in d.hands] + [list(d.kitty)]
    groups: dict[int, list[tuple[int, int]]] = {}
    for i, cards in enumerate(slots):
        if i == seat:
            continue
        for j, c in enumerate(cards):
            if c not in fixed:
                groups.setdefault(effective_suit(c, end.trump) if end.trump >= 0 else 0,
                                  []).append((i, j))
    for places in groups.values():
        values = [slots[i][j] for i, j in places]
        rng.shuffle(values)
        for (i, j), c in zip(places, values, strict=True):
            slots[i][j] = c
    new = Deal(tuple(tuple(h) for h in slots[:4]), tuple(slots[4]), d.pattern)
    rule = state.rules.farmers_hand
    for s in range(4):
        if is_farmers_hand(new.hands[s], rule) != is_farmers_hand(d.hands[s], rule):
            return None
    return new


@settings(max_examples=200, deadline=None)
@given(hands(), st.integers(0, 3))
def test_property_views_ignore_cards_a_seat_cannot_see(
    case: tuple[Rules, HandState, random.Random], seat: int,
) -> None:
    """Two states that differ only in cards hidden from a seat give it identical views.

    Whether a seat holds a farmer's hand is public (the table waits for its decision), so the
    rearrangement keeps every seat's farmer status.
    """
    rules, state, rng = case
    path = states(state, rng)
    end = path[-1]
    new_deal = rearranged(state, end, seat, rng)
    if new_deal is None:
        return
    other = HandState(rules, state.dealer, new_deal)
    assert other.view(seat) == path[0].view(seat)
    for (actor, action), before in zip(end.history(), path[1:], strict=True):
        other = other.apply(action, seat=actor)
        assert other.view(seat) == before.view(seat)
    assert JOKER not in other.view(seat).hand or rules.benny


def test_property_card_and_suit_text_round_trip() -> None:
    """Every card and suit survives its text form (and full names parse back to suits)."""
    for card in [*range(24), JOKER]:
        assert euchre.parse_card(euchre.card_text(card)) == card
    for suit in range(4):
        assert euchre.parse_suit(euchre.suit_text(suit)) == suit
        assert euchre.parse_suit(euchre.suit_name(suit)) == suit


@settings(max_examples=15, deadline=None)
@given(any_rules, st.integers(0, 2**32))
def test_property_whole_game_records_round_trip(rules: Rules, seed: int) -> None:
    """A whole random game: the score adds up, the deal rotates per all_pass, and text and JSON
    records round-trip and replay to the same score."""

    rng = random.Random(seed)
    game = play_random_game(rules, rng.randrange(4), rng)
    hands_played = game.all_hands()
    assert game.score == tuple(sum(h.points[i] for h in hands_played) for i in (0, 1))
    for before, after in pairwise(hands_played):
        stays = before.thrown_in and rules.all_pass == "same-dealer"
        assert after.dealer == (before.dealer if stays else (before.dealer + 1) % 4)
        assert after.score == (before.score[0] + before.points[0],
                               before.score[1] + before.points[1])
    assert max(hands_played[-1].score) < rules.game_to <= max(game.score)
    record = GameRecord.from_game(game)
    again = GameRecord.from_text(record.to_text())
    assert again == record and GameRecord.from_json(record.to_json()) == record
    replayed = again.replay()
    assert replayed.score == game.score and replayed.winner == game.winner
    assert [h.history() for h in replayed.all_hands()] == [h.history() for h in game.all_hands()]


WORDS = ["play", "call", "order", "alone", "pass", "discard", "farmer", "swap", "keep", "throw",
         "renege", "by", "defend", "JH", "9C", "TD", "JK", "10s", "H", "X", "0", "3", "7", "|",
         "up", "pick", "hand", "1", "dealer", "hands", "kitty", "result", "end", "rules",
         "classic", "benny=yes", "game_to=7", "game_to=8", "#", "", "euchre-record"]
texts = st.lists(st.sampled_from(WORDS), max_size=8).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(texts)
def test_fuzz_action_notation_raises_only_action_error(text: str) -> None:
    """Any text either parses to an action that formats back to itself, or is an ActionError."""
    try:
        action = euchre.parse_action(text)
    except euchre.ActionError:
        return
    assert euchre.parse_action(str(action)) == action


@settings(max_examples=300, deadline=None)
@given(texts)
def test_fuzz_rules_text_raises_only_rules_error(text: str) -> None:
    """Any text either parses to rules that format back to themselves, or is a RulesError."""
    try:
        rules = Rules.from_text(text)
    except euchre.RulesError:
        return
    assert Rules.from_text(rules.to_text()) == rules


@settings(max_examples=200, deadline=None)
@given(st.lists(texts, max_size=12))
def test_fuzz_records_raise_only_record_errors(lines: list[str]) -> None:
    """A damaged record is refused with a RecordError (ReplayError), never another error."""
    base = ["euchre-record 1", "rules classic", "hand 1", "dealer 3",
            "hands AD 9C TC 9S TS | JD QD 9H AC KC | KD TD AH QC JC | 9D AS KS QS JS",
            "kitty KH JH QH TH"]
    try:
        record = GameRecord.from_text("\n".join(base + lines))
    except euchre.RecordError as e:
        assert str(e)
        return
    assert GameRecord.from_text(record.to_text()) == record
    try:
        game = record.replay()
    except ReplayError as e:
        assert e.reason and e.hand >= 1
        return
    assert game.current is not None


@SETTINGS
@given(hands())
def test_property_actions_since_an_earlier_state_complete_its_history(
    case: tuple[Rules, HandState, random.Random],
) -> None:
    """``later.actions_since(earlier)`` is what ``later``'s history adds to ``earlier``'s;
    None for a state the later one does not follow from (a later one, another hand)."""
    _, state, rng = case
    seen = states(state, rng)
    other = states(step(state, rng), rng) if not state.is_over else [state]
    for i, earlier in enumerate(seen):
        for later in seen[i:]:
            assert earlier.history() + (later.actions_since(earlier) or []) == later.history()
            assert later.actions_since(earlier) is not None
        for later in seen[:i]:
            assert later.actions_since(earlier) is None
    if len(other) > 1 and other[1] is not seen[1]:
        assert seen[-1].actions_since(other[1]) is None


def plain_view(state: HandState, seat: int) -> HandView:
    """A seat's view read field by field from the state's public properties: what
    ``make_view`` must give however it is built."""
    history: list[tuple[int, A.Action | None]] = []
    hidden: list[str] = []
    gave: tuple[int, ...] = ()
    for s, a in state.history():
        if a.kind in (A.DISCARD, A.FARMER_SWAP) and s != seat:
            history.append((s, None))
            hidden.append(a.kind)
            continue
        if a.kind == A.FARMER_SWAP:
            gave = a.cards
        history.append((s, a))
    leader, trick = state.trick
    return HandView(
        seat=seat, rules=state.rules, dealer=state.dealer, score=state.score,
        phase=state.phase_name, to_act=state.to_act, hand=tuple(state.hand(seat)),
        upcard=state.upcard,
        upcard_taken=state.phase_name == "discard" or any(
            a.kind == A.DISCARD for _, a in state.history()),
        history=tuple(history), hidden_kinds=tuple(hidden), trump=state.trump,
        maker=state.maker, alone=state.alone, lone_defender=state.lone_defender,
        sitting_out=tuple(s for s in range(4) if state.sits_out(s)),
        discard=state.discard if seat == state.dealer and state.discard >= 0 else None,
        farmer_gave=gave, leader=leader, trick=trick, tricks=tuple(state.tricks),
        tricks_won=state.tricks_won, points=state.points, thrown_in=state.thrown_in,
        reneged=state.reneged,
        legal=tuple(state.legal_actions()) if state.to_act == seat else ())


@SETTINGS
@given(hands())
def test_property_a_view_is_the_states_public_properties(
    case: tuple[Rules, HandState, random.Random],
) -> None:
    """Every seat's view of every state of a random hand is the state read field by field
    (so the fast build of a view leaves nothing out and shows nothing more)."""
    _, state, rng = case
    for s in states(state, rng):
        for seat in range(4):
            view = s.view(seat)
            assert view == plain_view(s, seat)
            assert vars(view) == vars(plain_view(s, seat))
