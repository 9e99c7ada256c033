"""The PettingZoo environment: PettingZoo's own API and seed tests, the action space and its
mask, rewards in points, whole games, and refusals that change nothing."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
from env_helpers import RULE_SETS, farmer_deal
from pettingzoo.test import api_test, render_test, seed_test
from pettingzoo.utils import wrappers

import euchre.env as euchre_env
from euchre import Deal, IllegalActionError, RulesError
from euchre.cards import JOKER
from euchre.env import AGENTS, NUM_ACTIONS, action_index, index_action, raw_env
from euchre.env.actions import (
    ACTIONS,
    DISCARD_BASE,
    FARMER_CARDS,
    FARMER_KEEP,
    FARMER_SWAP_BASE,
    FARMER_THROW,
    SWAPS,
)


@pytest.mark.parametrize(("preset", "options"), RULE_SETS)
@pytest.mark.parametrize("whole_game", [False, True])
def test_pettingzoos_api_test_passes(
    preset: str, options: dict[str, object], whole_game: bool
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its notes on dict observations, which it expects
        api_test(euchre_env.env(preset, whole_game=whole_game, **options), num_cycles=300)
        api_test(raw_env(preset, whole_game=whole_game, **options), num_cycles=300)


@pytest.mark.parametrize("whole_game", [False, True])
def test_pettingzoos_seed_test_passes(whole_game: bool) -> None:
    seed_test(lambda: euchre_env.env("kitchen-table", benny=True, whole_game=whole_game))


def test_a_seed_fixes_every_deal() -> None:
    a, b = raw_env(whole_game=True), raw_env(whole_game=True)
    a.reset(seed=5)
    b.reset(seed=5)
    assert a.hand_state.deal == b.hand_state.deal
    b.reset(seed=6)
    assert a.hand_state.deal != b.hand_state.deal


def test_every_index_names_one_action_and_back() -> None:
    assert NUM_ACTIONS == len(ACTIONS) == 120
    assert len(set(ACTIONS)) == 120
    for i in range(NUM_ACTIONS):
        assert action_index(index_action(i)) == i
        assert action_index(str(index_action(i))) == i
    assert action_index("play JK") == JOKER and action_index("discard JK") == DISCARD_BASE + JOKER
    assert len(SWAPS) == 56 and set(FARMER_CARDS) == {c for s in SWAPS for c in s}
    with pytest.raises(ValueError, match="outside the action space"):
        index_action(120)
    with pytest.raises(ValueError, match="no index"):
        action_index("renege 1 by 2")


def _mask_matches_legal(e: raw_env) -> None:
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    assert mask.dtype == np.int8
    legal = {action_index(a) for a in e.legal_actions()}
    assert set(np.flatnonzero(mask).tolist()) == legal
    for other in AGENTS:
        if other != agent:
            assert not e.observe(other)["action_mask"].any()


@pytest.mark.parametrize(("preset", "options"), RULE_SETS)
def test_the_mask_is_exactly_the_legal_actions(preset: str, options: dict[str, object]) -> None:
    e = raw_env(preset, **options)
    rng = random.Random(2)
    kinds: set[str] = set()
    for episode in range(40):
        e.reset(seed=episode)
        while not all(e.terminations.values()):
            _mask_matches_legal(e)
            action = rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))
            kinds.add(ACTIONS[action].kind)
            e.step(action)
    assert {"pass", "order", "play"} <= kinds


def test_every_farmers_swap_is_offered_and_applies() -> None:
    rng = random.Random(4)
    e = raw_env("kitchen-table")
    offered: set[int] = set()
    for _ in range(60):
        dealer = rng.randrange(4)
        farmer = (dealer + 1 + rng.randrange(4)) % 4
        e.reset(options={"dealer": dealer, "deal": farmer_deal(rng, farmer)})
        assert e.agent_selection == AGENTS[farmer]
        _mask_matches_legal(e)
        mask = e.observe(AGENTS[farmer])["action_mask"]
        swaps = [i for i in np.flatnonzero(mask) if i >= FARMER_SWAP_BASE]
        assert len(swaps) == 10 and mask[FARMER_KEEP] and mask[FARMER_THROW]
        offered.update(swaps)
        before = set(e.hand_state.hand(farmer))
        swap = rng.choice(swaps)
        gave = SWAPS[swap - FARMER_SWAP_BASE]
        e.step(swap)
        after = set(e.hand_state.hand(farmer))
        assert before - after == set(gave) and len(after) == 5
    assert len(offered) > 40  # the swaps come from every part of the 56


def test_the_joker_is_played_and_discarded_by_its_own_index() -> None:
    e = raw_env("benny")
    seen = {"play": False, "discard": False}
    rng = random.Random(9)
    for episode in range(400):
        e.reset(seed=episode)
        while not all(e.terminations.values()):
            mask = e.observe(e.agent_selection)["action_mask"]
            for kind, index in (("play", JOKER), ("discard", DISCARD_BASE + JOKER)):
                if mask[index]:
                    e.step(index)
                    seen[kind] = True
                    break
            else:
                e.step(rng.choice(np.flatnonzero(mask)))
        if all(seen.values()):
            return
    raise AssertionError(f"the joker was not both played and discarded: {seen}")


def _play_out(e: Any, rng: random.Random) -> dict[str, float]:
    """Play random legal actions to the end; each agent's rewards added up."""
    total = dict.fromkeys(AGENTS, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        total[agent] += reward
        if terminated or truncated:
            e.step(None)
        else:
            e.step(rng.choice(np.flatnonzero(obs["action_mask"])))
    return total


def test_rewards_are_the_hands_points_for_each_side() -> None:
    rng = random.Random(1)
    e = raw_env("kitchen-table")
    for episode in range(100):
        e.reset(seed=episode)
        hand_before = None
        total = dict.fromkeys(AGENTS, 0.0)
        for agent in e.agent_iter():
            obs, reward, terminated, _, _ = e.last()
            total[agent] += reward
            if terminated:
                hand_before = hand_before or e.hand_state
                e.step(None)
                continue
            assert reward == 0.0  # nothing is paid before the hand ends
            e.step(rng.choice(np.flatnonzero(obs["action_mask"])))
        assert hand_before is not None and hand_before.is_over
        us, them = hand_before.points
        assert total == {"player_0": us - them, "player_1": them - us,
                         "player_2": us - them, "player_3": them - us}


@pytest.mark.parametrize("win_reward", [0.0, 10.0])
def test_a_whole_game_is_paid_hand_by_hand_up_to_the_target(win_reward: float) -> None:
    rng = random.Random(8)
    e = raw_env("short", whole_game=True, win_reward=win_reward)
    for episode in range(10):
        e.reset(seed=episode)
        total = _play_out(e, rng)
        game = e.game_state
        assert game is not None and game.is_over and len(game.all_hands()) > 1
        assert max(game.score) >= 5
        sign = 1 if game.winner == 0 else -1
        margin = game.score[0] - game.score[1] + sign * win_reward
        assert total == {"player_0": margin, "player_1": -margin,
                         "player_2": margin, "player_3": -margin}


def _snapshot(e: raw_env) -> tuple[Any, ...]:
    return (e.hand_state.history(), e.agent_selection, dict(e.rewards),
            [e.observe(a)["observation"].tobytes() for a in AGENTS],
            e.observe(e.agent_selection)["action_mask"].tobytes())


def test_a_bad_action_is_refused_with_a_reason_and_changes_nothing() -> None:
    e = raw_env()
    e.reset(seed=3)
    before = _snapshot(e)
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match=rf"action {illegal} \(.*\) is not legal now"):
        e.step(illegal)
    with pytest.raises(IllegalActionError, match="outside the action space"):
        e.step(120)
    with pytest.raises(IllegalActionError, match="not an action index"):
        e.step(1.0)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="None is not an action"):
        e.step(None)
    assert _snapshot(e) == before
    e.step(np.int64(np.flatnonzero(mask)[0]))  # NumPy integers are indices too
    assert _snapshot(e) != before


def test_bad_rules_are_refused_when_the_environment_is_made() -> None:
    with pytest.raises(RulesError, match="unknown preset"):
        raw_env("poker")
    with pytest.raises(RulesError, match="unknown rule"):
        raw_env("classic", stick_to_dealer=True)
    with pytest.raises(RulesError, match="game_to"):
        euchre_env.env(game_to=9)
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="rgb_array")


def _pettingzoo_wrapped(illegal_reward: float) -> Any:
    inner = raw_env()
    wrapped = wrappers.TerminateIllegalWrapper(inner, illegal_reward=illegal_reward)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def test_env_ends_the_episode_on_an_illegal_action_as_pettingzoos_wrappers_do() -> None:
    for episode in range(30):
        ours, theirs = euchre_env.env(illegal_reward=-3), _pettingzoo_wrapped(-3)
        rng = random.Random(episode)
        cheat_at = rng.randrange(12)
        logs: list[list[Any]] = [[], []]
        for env, log in ((ours, logs[0]), (theirs, logs[1])):
            env.reset(seed=episode)
            pick = random.Random(episode)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                for turn, agent in enumerate(env.agent_iter()):
                    obs, reward, terminated, truncated, info = env.last()
                    log.append((agent, obs["observation"].tobytes(), reward, terminated,
                                truncated, info))
                    if terminated or truncated:
                        env.step(None)
                    elif turn == cheat_at:
                        env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
                    else:
                        env.step(pick.choice(np.flatnonzero(obs["action_mask"])))
        assert logs[0] == logs[1]
        if cheat_at < len(logs[0]) - 4:
            assert (-3 in [entry[2] for entry in logs[0]])


def test_env_refuses_use_before_reset_and_out_of_range_actions() -> None:
    e = euchre_env.env()
    with pytest.raises(AttributeError, match="before reset"):
        _ = e.agent_selection
    with pytest.raises(AssertionError, match="reset"):
        e.step(0)
    with pytest.raises(AssertionError, match="reset"):
        e.observe("player_0")
    e.reset(seed=1)
    with pytest.raises(IllegalActionError, match="outside the action space"):
        e.step(-1)
    assert str(e) == "euchre_v0"
    assert isinstance(e.unwrapped, raw_env)


def test_reset_options_fix_the_deal_the_dealer_and_the_score() -> None:
    hands = ((0, 1, 2, 3, 4), (5, 6, 7, 8, 9), (10, 11, 12, 13, 14), (15, 16, 17, 18, 19))
    deal = Deal(hands, (20, 21, 22, 23), "3-2")
    e = raw_env()
    e.reset(options={"dealer": 2, "deal": deal, "score": (4, 7), "unknown": 1})
    state = e.hand_state
    assert (state.deal, state.dealer, state.score) == (deal, 2, (4, 7))
    assert e.agent_selection == "player_3"
    with pytest.raises(TypeError, match=r"euchre\.Deal"):
        e.reset(options={"deal": "9C TC"})
    for bad in ((8, 10), (-1, 0), (1,), (1.5, 2)):
        with pytest.raises(ValueError, match="score"):
            e.reset(options={"score": bad})
    with pytest.raises(ValueError, match="dealer"):
        e.reset(options={"dealer": 4})
    e.reset(options={"score": (np.int64(9), 0)})  # NumPy integers are whole numbers too
    assert e.unwrapped.hand_state.score == (9, 0)


def test_ansi_render_shows_the_table() -> None:
    e = raw_env("benny", render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert text is not None and "upcard" in text and "player_0 (South)" in text
    quiet = raw_env()
    quiet.reset(seed=1)
    assert quiet.render() is None


def test_human_render_prints_the_table_and_pettingzoo_render_test_passes(capsys) -> None:
    shown = raw_env(render_mode="human")
    shown.reset(seed=1)
    assert shown.render() is None
    assert "player_0 (South)" in capsys.readouterr().out
    render_test(euchre_env.env)  # PettingZoo's own check: every mode in render_modes
