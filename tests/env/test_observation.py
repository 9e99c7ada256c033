"""The observation vector: built from the seat's view only, kept up to date exactly, and
blind to every card the seat may not see."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest
from env_helpers import RULE_SETS, farmer_deal, hidden_twin

from euchre.cards import JOKER
from euchre.env import FIELDS, OFFSETS, SIZE, describe, encode_view, raw_env
from euchre.env.actions import ACTIONS, INDEX

DOCS = Path(__file__).resolve().parents[2] / "docs" / "env.md"


def _check_every_seat(e: raw_env) -> None:
    for seat in range(4):
        got = e.observe(f"player_{seat}")["observation"]
        want = encode_view(e.view(seat))
        if not np.array_equal(got, want):
            diff = {k: (describe(got)[k], describe(want)[k])
                    for k in describe(want) if describe(got)[k] != describe(want)[k]}
            raise AssertionError(f"seat {seat} after {e.hand_state.history()}: {diff}")


def _play_checking(e: raw_env, rng: random.Random) -> None:
    _check_every_seat(e)
    while not all(e.terminations.values()):
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(rng.choice(np.flatnonzero(mask).tolist()))
        if not all(e.terminations.values()):
            _check_every_seat(e)
    _check_every_seat(e)


@pytest.mark.parametrize(("preset", "options"), RULE_SETS)
def test_tracked_vector_equals_the_view_encoding_after_every_step(
    preset: str, options: dict[str, object]
) -> None:
    e = raw_env(preset, **options)
    rng = random.Random(7)
    for episode in range(60):
        e.reset(seed=episode)
        _play_checking(e, rng)


@pytest.mark.parametrize("rule", ["nines-and-tens", "three-nines-two-tens"])
def test_tracked_vector_through_farmers_hands(rule: str) -> None:
    rng = random.Random(3)
    for benny in (False, True):
        e = raw_env("classic", farmers_hand=rule, benny=benny, defend_alone=True)
        for episode in range(40):
            dealer = rng.randrange(4)
            deal = farmer_deal(rng, (dealer + 1 + rng.randrange(4)) % 4, benny)
            e.reset(seed=episode, options={"dealer": dealer, "deal": deal})
            assert e.hand_state.phase_name == "farmer"
            _play_checking(e, rng)


def test_tracked_vector_through_whole_games() -> None:
    rng = random.Random(5)
    for preset, options in RULE_SETS[:6]:
        e = raw_env(preset, whole_game=True, **options)
        e.reset(seed=11)
        _play_checking(e, rng)


@pytest.mark.parametrize(("preset", "options"), [*RULE_SETS, ("classic", {"farmers_hand":
                                                                            "nines-and-tens"})])
def test_cards_a_seat_cannot_see_never_change_its_observation(
    preset: str, options: dict[str, object]
) -> None:
    rng = random.Random(13)
    different = 0
    for episode in range(60):
        seat = episode % 4
        a, b = raw_env(preset, **options), raw_env(preset, **options)
        if "farmers_hand" in options:
            dealer = rng.randrange(4)
            a.reset(options={"dealer": dealer, "deal": farmer_deal(rng, (dealer + 1) % 4,
                                                                       a.rules.benny)})
        else:
            a.reset(seed=episode)
        stop = rng.randrange(30)
        for _ in range(stop):
            if all(a.terminations.values()):
                break
            a.step(rng.choice(np.flatnonzero(a.observe(a.agent_selection)["action_mask"])))
        found = hidden_twin(a.hand_state, seat, rng)
        if found is None:
            continue
        twin, actions = found
        different += twin != a.hand_state.deal
        b.reset(options={"dealer": a.hand_state.dealer, "deal": twin})
        for action in actions:
            b.step(INDEX[action])
        me = f"player_{seat}"
        oa, ob = describe(a.observe(me)["observation"]), describe(b.observe(me)["observation"])
        assert oa == ob, {k: (oa[k], ob[k]) for k in oa if oa[k] != ob[k]}
        assert np.array_equal(a.observe(me)["action_mask"], b.observe(me)["action_mask"])
        assert np.array_equal(encode_view(a.view(seat)), encode_view(b.view(seat)))
    assert different >= 20


def test_the_dealers_discard_is_seen_by_the_dealer_only() -> None:
    e = raw_env("classic")
    for episode in range(200):
        e.reset(seed=episode)
        while e.hand_state.phase_name in ("order", "call"):
            legal = e.legal_actions()
            order = [a for a in legal if a.kind == "order" and not a.alone]
            e.step(INDEX[order[0]] if order else INDEX[legal[0]])
        if e.hand_state.phase_name != "discard":
            continue
        dealer = e.hand_state.dealer
        card = e.hand_state.hand(dealer)[0]
        e.step(INDEX[ACTIONS[25 + card]])
        seen = [describe(e.observe(f"player_{s}")["observation"])["discard"] for s in range(4)]
        for s in range(4):
            assert sum(seen[s]) == (1 if s == dealer else 0)
        assert seen[dealer][card] == 1
        return
    raise AssertionError("no hand reached the dealer's discard")


def test_joker_has_a_card_slot_when_the_benny_is_on() -> None:
    e = raw_env("benny")
    for episode in range(100):
        e.reset(seed=episode)
        for seat in range(4):
            if JOKER in e.hand_state.hand(seat):
                assert describe(e.observe(f"player_{seat}")["observation"])["hand"][JOKER] == 1
                return
    raise AssertionError("the joker was never dealt")


def test_fields_add_up_and_the_docs_list_every_field_in_order() -> None:
    assert sum(size for _, size in FIELDS) == SIZE == 416
    text = DOCS.read_text()
    rows = re.findall(r"^\| `(\w+)` \| (\d+) \| (\d+) \|", text, flags=re.MULTILINE)
    assert [(name, int(offset), int(size)) for name, offset, size in rows] == [
        (name, OFFSETS[name], size) for name, size in FIELDS
    ]
