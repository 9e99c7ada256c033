"""The information state as text and as a tensor: blind to hidden cards, with perfect recall."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest
from env_helpers import RULE_SETS, hidden_twin

from euchre.cards import card_text
from euchre.env import (
    FIELDS,
    INFO_FIELDS,
    INFO_SIZE,
    SIZE,
    encode_view,
    information_state_tensor,
    information_state_text,
    raw_env,
)
from euchre.hand import HandState
from euchre.rules import Rules

DOCS = Path(__file__).resolve().parents[2] / "docs" / "env.md"


def _random_hand(rules: Rules, rng: random.Random, stop: int) -> HandState:
    e = raw_env(rules)
    e.reset(seed=rng.randrange(10**9))
    for _ in range(stop):
        if all(e.terminations.values()):
            break
        e.step(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])))
    return e.hand_state


@pytest.mark.parametrize(("preset", "options"), RULE_SETS)
def test_hidden_cards_never_change_the_information_state(
    preset: str, options: dict[str, object]
) -> None:
    rules = Rules.preset(preset).replace(**options)
    rng = random.Random(5)
    different = 0
    for episode in range(40):
        seat = episode % 4
        state = _random_hand(rules, rng, rng.randrange(30))
        found = hidden_twin(state, seat, rng)
        if found is None:
            continue
        deal, actions = found
        twin = HandState(rules, state.dealer, deal, state.score)
        for (actor, _), action in zip(state.history(), actions, strict=True):
            twin = twin.apply(action, actor)
        different += deal != state.deal
        assert information_state_text(twin.view(seat)) == information_state_text(state.view(seat))
        assert np.array_equal(information_state_tensor(twin.view(seat)),
                              information_state_tensor(state.view(seat)))
    assert different >= 15


def test_the_text_names_no_card_the_seat_has_not_seen() -> None:
    rng = random.Random(11)
    for episode in range(200):
        rules = Rules.preset(RULE_SETS[episode % len(RULE_SETS)][0])
        state = _random_hand(rules, rng, rng.randrange(30))
        seat = rng.randrange(4)
        view = state.view(seat)
        seen = {*view.hand, view.upcard, *view.farmer_gave}
        seen |= {c for _, cards, _ in view.tricks for c in cards} | set(view.trick)
        if view.discard is not None:
            seen.add(view.discard)
        words = set(re.split(r"[\s,;:()]+", information_state_text(view)))
        hidden = {card_text(c) for s in range(4) for c in state.hand(s)} - {
            card_text(c) for c in seen}
        hidden |= {card_text(c) for c in state.kitty_down} - {card_text(c) for c in seen}
        assert not words & hidden, (words & hidden, information_state_text(view))


def test_the_tensor_is_the_observation_and_every_trick_in_order() -> None:
    rng = random.Random(2)
    for _ in range(50):
        state = _random_hand(Rules(), rng, 40)
        seat = rng.randrange(4)
        view = state.view(seat)
        tensor = information_state_tensor(view)
        assert tensor.shape == (INFO_SIZE,) and tensor.dtype == np.int8
        assert np.array_equal(tensor[:SIZE], encode_view(view))
        tricks = tensor[SIZE:].reshape(5, 4, 25)
        for i, (leader, cards, _) in enumerate(view.tricks):
            assert set(np.flatnonzero(tricks[i].sum(axis=0))) == set(cards)
            assert tricks[i][(leader - seat) % 4][cards[0]] == 1  # the leader led its card
        assert int(tricks.sum()) == sum(len(c) for _, c, _ in view.tricks) + len(view.trick)


def test_the_tensor_tells_which_trick_a_card_fell_in() -> None:
    # The same cards played in another order give the same observation's "played" field
    # but a different information state.
    from euchre import deal

    hands = "9C TC QC KC AC|9D TD QD KD AD|9H TH QH KH AH|9S TS QS KS AS"
    start = deal(Rules(), 3, [h.split() for h in hands.split("|")], ["JC", "JD", "JH", "JS"])
    start = start.apply("order").apply("discard JC")  # clubs are trump; the dealer has none
    one = two = start
    for card in ("9C", "9D", "9H", "9S", "TC", "TD", "TH", "TS"):
        one = one.apply(f"play {card}")
    for card in ("TC", "TD", "TH", "TS", "9C", "9D", "9H", "9S"):
        two = two.apply(f"play {card}")
    a, b = one.view(1), two.view(1)
    assert np.array_equal(encode_view(a), encode_view(b))
    assert not np.array_equal(information_state_tensor(a), information_state_tensor(b))
    assert information_state_text(a) != information_state_text(b)


def test_the_docs_table_matches_the_tensor_fields() -> None:
    rows = re.findall(r"^\| `(\w+)` \| (\d+)-(\d+) \| (\d+) \|", DOCS.read_text(), re.M)
    extra = [(name, SIZE, SIZE + size - 1, size) for name, size in INFO_FIELDS[len(FIELDS):]]
    assert [(n, int(a), int(b), int(c)) for n, a, b, c in rows] == extra
    assert SIZE + sum(size for *_, size in extra) == INFO_SIZE
