"""The Gymnasium wrapper: one learner with three of our computer players."""

from __future__ import annotations

import random
import warnings

import gymnasium
import numpy as np
import pytest
from env_helpers import farmer_deal
from gymnasium.utils.env_checker import check_env

from euchre import IllegalActionError
from euchre.bots import make
from euchre.env import GYM_ID, SingleAgentEnv, action_index, single_agent


def test_gymnasiums_env_checker_passes() -> None:
    check_env(single_agent("kitchen-table", partner="easy", opponents="random"),
              skip_render_check=True)  # the render modes: made through the id, below


def test_gymnasium_make_finds_the_registered_id_and_its_checker_passes(capsys) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker warns when it cannot try a render mode
        made = gymnasium.make(GYM_ID, preset="canadian", partner="easy", opponents="random")
        assert made.spec is not None and made.spec.id == "euchre/Euchre-v0"
        assert isinstance(made.unwrapped, SingleAgentEnv)
        assert made.unwrapped.aec.rules.canadian_loner
        check_env(made.unwrapped)  # with a spec: every render mode is made and tried
    assert "upcard" in capsys.readouterr().out  # the human mode printed the table


def test_a_vector_env_gives_an_all_zero_mask_when_an_episode_ends() -> None:
    envs = gymnasium.make_vec(GYM_ID, num_envs=2, vectorization_mode="sync",
                              partner="easy", opponents="random")
    _, info = envs.reset(seed=3)
    ended = 0
    rng = random.Random(0)
    pending = [False, False]  # an episode ended: the next step resets, the action is ignored
    while ended < 6:
        masks = info["action_mask"]
        for i in range(2):
            assert masks[i].any() != pending[i]
        actions = [rng.choice(np.flatnonzero(m).tolist()) if m.any() else 0 for m in masks]
        _, _, terminated, truncated, info = envs.step(np.array(actions))
        pending = [bool(t or u) for t, u in zip(terminated, truncated, strict=True)]
        ended += sum(pending)
    envs.close()


def _run(env: SingleAgentEnv, seed: int | None, rng: random.Random) -> tuple[list[int], float]:
    obs, info = env.reset(seed=seed)
    actions: list[int] = []
    total = 0.0
    done = False
    while not done:
        assert env.observation_space.contains(obs)
        mask = info["action_mask"]
        assert mask.any() and np.array_equal(mask, env.action_masks())
        action = rng.choice(np.flatnonzero(mask).tolist())
        actions.append(action)
        obs, reward, done, truncated, info = env.step(action)
        assert not truncated
        total += reward
    return actions, total


@pytest.mark.parametrize("seat", [0, 1, 2, 3, None])
def test_the_learner_is_paid_its_sides_points(seat: int | None) -> None:
    env = single_agent("classic", seat=seat, partner="medium", opponents=("easy", "random"))
    rng = random.Random(1)
    for episode in range(30):
        _, total = _run(env, episode, rng)
        hand = env.aec.hand_state
        us = env.seat % 2
        assert total == hand.points[us] - hand.points[1 - us]
        assert all(env.aec.terminations.values())


def test_the_learner_acts_only_in_its_own_seat_and_sees_its_own_view() -> None:
    env = single_agent(seat=None)
    rng = random.Random(2)
    for episode in range(20):
        _, info = env.reset(seed=episode)
        view = env.view()
        assert view.seat == env.seat and view.to_act == env.seat
        assert {action_index(a) for a in view.legal} == set(np.flatnonzero(info["action_mask"]))
        env.step(rng.choice(np.flatnonzero(info["action_mask"]).tolist()))


def test_a_seed_repeats_the_episode() -> None:
    a = single_agent(seat=None, opponents="medium")
    b = single_agent(seat=None, opponents="medium")
    for seed in range(5):
        assert _run(a, seed, random.Random(seed)) == _run(b, seed, random.Random(seed))
        assert a.seat == b.seat
        # The unseeded episodes after a seeded one follow from that seed too.
        assert _run(a, None, random.Random(seed)) == _run(b, None, random.Random(seed))


def test_a_whole_game_runs_to_the_target() -> None:
    env = single_agent("short", whole_game=True, partner="easy", opponents="easy")
    _, total = _run(env, 3, random.Random(3))
    game = env.aec.game_state
    assert game is not None and game.is_over
    us = env.seat % 2
    assert total == game.score[us] - game.score[1 - us]


def test_a_computer_player_can_stand_in_for_the_learner() -> None:
    env = single_agent(partner="medium", opponents="medium")
    bot = make("medium", seed=1)
    points = 0.0
    for episode in range(30):
        env.reset(seed=episode)
        done = False
        while not done:
            _, reward, done, _, _ = env.step(action_index(bot.choose(env.view())))
            points += reward
    assert -60 <= points <= 60


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="seat"):
        single_agent(seat=4)
    with pytest.raises(ValueError, match="unknown level"):
        single_agent(partner="grandmaster")
    with pytest.raises(ValueError, match="pair"):
        single_agent(opponents=("easy", "easy", "easy"))  # type: ignore[arg-type]
    env = single_agent()
    env.reset(seed=1)
    _run(env, 1, random.Random(1))
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_an_illegal_action_ends_the_episode_or_raises_when_asked() -> None:
    env = single_agent()
    _, info = env.reset(seed=4)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, done, _, info = env.step(illegal)
    assert (reward, done, info["illegal_action"]) == (-4.0, True, True)
    strict = single_agent(illegal_reward=None)
    _, info = strict.reset(seed=4)
    history = strict.aec.hand_state.history()
    with pytest.raises(IllegalActionError, match="not legal now"):
        strict.step(illegal)
    assert strict.aec.hand_state.history() == history
    strict.step(int(np.flatnonzero(info["action_mask"])[0]))


def test_a_hand_over_before_the_learner_decides_is_skipped_and_counted() -> None:
    # Seat 1 decides first on a farmer's hand; a random player throws it in one time in 12.
    env = single_agent("classic", seat=0, partner="random", opponents="random",
                       farmers_hand="nines-and-tens")
    rng = random.Random(6)
    skipped = 0
    for seed in range(80):
        _, info = env.reset(seed=seed, options={"dealer": 0, "deal": farmer_deal(rng, 1)})
        skipped += info["hands_skipped"]
        view = env.view()
        assert view.to_act == 0 and view.legal  # the episode starts at the learner's decision
    assert skipped >= 2
