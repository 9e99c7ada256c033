"""Table events as each seat may see them: another seat's discard or farmer's swap shows only
as its kind, everything else in full; a finished hand's summary says what happened (made,
euchred, march, thrown in) and holds no card."""

from __future__ import annotations

import random

import msgspec
import pytest

from euchre import actions as A
from euchre.cards import card_text
from euchre.game import GameState
from euchre.hand import HandState
from euchre.rules import Rules
from euchre.table.actor import events as E
from euchre.table.actor.events import Event, hand_summary
from euchre.table.actor.observer import event_for, hidden_kind
from euchre.table.actor.wire import (
    EVENTS,
    ActionEvent,
    BackEvent,
    ClosedEvent,
    DealEvent,
    SpectatorsEvent,
    TrickEvent,
)

CARDS = {card_text(c) for c in range(25)}


def test_each_kind_constant_is_the_tag_of_its_event_type() -> None:
    constants = {E.DEAL, E.ACTION, E.TRICK, E.HAND_OVER, E.GAME_OVER, E.CLOSED, E.PRESENCE,
                 E.AWAY, E.BACK, E.REPLACED, E.SPECTATORS, E.REMATCH,
                 E.SAY}
    assert {t.__struct_config__.tag for t in EVENTS} == constants
    assert Event(3, SpectatorsEvent(count=2)).kind == E.SPECTATORS
    assert Event(4, ClosedEvent(reason="left")).kind == E.CLOSED


@pytest.mark.parametrize("action, kind", [("discard 9H", A.DISCARD),
                                          ("farmer swap 9C TC QC", A.FARMER_SWAP)])
def test_another_seats_hidden_action_shows_only_its_kind(action: str, kind: str) -> None:
    body = ActionEvent(seat=3, action=action)
    assert hidden_kind(body) == kind
    event = Event(7, body)
    assert event_for(event.body, 3) == body  # its own seat sees the card(s)
    for seat in (0, 1, 2, None):  # the others and every spectator see the kind only
        seen = event_for(event.body, seat)
        assert isinstance(seen, ActionEvent) and (seen.seat, seen.action) == (3, kind)
        assert not set(msgspec.json.encode(seen).decode().replace('"', " ").split()) & CARDS
    assert event.body.action == action  # the event itself keeps the action whole


@pytest.mark.parametrize("body", [ActionEvent(seat=1, action="play JH"),
                                  ActionEvent(seat=0, action="order alone"),
                                  ActionEvent(seat=2, action="farmer keep"),
                                  TrickEvent(leader=0, cards=["9H", "TH", "JH", "QH"],
                                             winner=2),
                                  DealEvent(dealer=1, hand_number=1, commitment="c"),
                                  BackEvent(seat=2)])
def test_public_events_are_the_same_for_every_seat(body: E.EventBody) -> None:
    assert hidden_kind(body) is None
    assert all(event_for(body, seat) == body for seat in (0, 1, 2, 3, None))


def _finish(hand: HandState, rng: random.Random) -> HandState:
    while not hand.is_over:
        hand = hand.apply(rng.choice(hand.legal_actions()))
    return hand


def _strings(value: object) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return {s for k, v in value.items() for s in _strings(k) | _strings(v)}
    if isinstance(value, list):
        return {s for v in value for s in _strings(v)}
    return set()


def test_a_summary_says_who_made_it_and_whether_they_were_euchred_or_marched() -> None:
    seen: set[str] = set()
    for n in range(120):
        rng = random.Random(n)
        game = GameState(Rules.preset("classic"), n % 4).deal_random(rng)
        assert game.current is not None
        hand = _finish(game.current, rng)
        summary = hand_summary(hand, n + 1, (4, 6), f"seed-{n}", {2: "cy", 0: "ann"})
        assert (summary.hand_number, summary.dealer, summary.score) == (n + 1, n % 4, [4, 6])
        assert summary.points == list(hand.points)
        assert summary.tricks_won == list(hand.tricks_won)
        assert summary.client_seeds == {"0": "ann", "2": "cy"}
        assert summary.seed == f"seed-{n}" and summary.pattern == hand.deal.pattern
        assert not _strings(msgspec.to_builtins(summary)) & CARDS  # no card at all
        if summary.thrown_in:
            assert summary.maker is None and summary.trump is None
            assert not summary.euchred and not summary.march and summary.points == [0, 0]
            seen.add("thrown in")
            continue
        assert summary.maker == hand.maker and summary.trump is not None
        made = hand.tricks_won[hand.maker % 2]
        assert summary.euchred == (made < 3) and summary.march == (made == 5)
        assert summary.alone == hand.alone
        if summary.euchred:
            assert hand.points[1 - hand.maker % 2] > 0
        seen.add("euchred" if summary.euchred else "march" if summary.march else "made")
    assert {"euchred", "march", "made"} <= seen  # thrown in: the test below


def test_a_hand_thrown_in_has_no_maker_and_no_points() -> None:
    game = GameState(Rules.preset("classic"), 2).deal_random(random.Random(3))
    for _ in range(8):
        game = game.apply(A.PASS)
    assert game.current is not None
    summary = hand_summary(game.current, 1, (0, 0), None)
    assert summary.thrown_in and summary.maker is None and summary.trump is None
    assert (summary.euchred, summary.march, summary.points) == (False, False, [0, 0])
    assert summary.seed is None and summary.client_seeds == {}
