"""Print environment steps per second for random legal play through the PettingZoo API.

One step is one agent's turn of the standard AEC loop: ``env.last()`` (the observation and
its action mask), a uniformly random legal action from the mask, ``env.step(action)``;
episodes are reset as they end (their dead steps are not counted). The process is pinned
to one core and timed by its own CPU time (``time.process_time``), so other work on a
shared machine slows the figure less than it would a wall-clock one; the load average is
printed beside it. Four ways are timed: ``env()`` (as people use it), ``raw_env()`` through
the same loop, ``raw_env()`` driven directly (``observe`` of the agent to act, then
``step``), the loop a trainer that owns the environment would write, and, for comparison,
``raw_env()`` in PettingZoo's own three wrappers, which ``env()`` replaces by one layer.

Usage: python scripts/bench/bench_env.py [--steps N] [--rounds R] [--preset NAME] [--whole-game]
                                   [--cpu C] [--seed S]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from pettingzoo.utils import wrappers

import euchre.env as euchre_env


def agent_loop(env: Any, steps: int, rng: random.Random) -> float:
    """Steps per second through ``agent_iter`` / ``last`` / ``step``."""
    flat = np.flatnonzero
    choice = rng.choice
    env.reset(seed=rng.getrandbits(32))
    done = 0
    start = time.process_time()
    while done < steps:
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(choice(flat(obs["action_mask"])))
            done += 1
        env.reset()
    return done / (time.process_time() - start)


def direct_loop(env: Any, steps: int, rng: random.Random) -> float:
    """Steps per second calling ``observe`` and ``step`` of the raw environment."""
    flat = np.flatnonzero
    choice = rng.choice
    env.reset(seed=rng.getrandbits(32))
    done = 0
    start = time.process_time()
    while done < steps:
        agent = env.agent_selection
        if env.terminations[agent]:
            env.reset()
            continue
        env.step(choice(flat(env.observe(agent)["action_mask"])))
        done += 1
    return done / (time.process_time() - start)


def pettingzoo_wrapped(preset: str, whole_game: bool) -> Any:
    """``raw_env`` in PettingZoo's own three classic-game wrappers (what ``env()`` replaces)."""
    env: Any = euchre_env.raw_env(preset, whole_game=whole_game)
    env = wrappers.TerminateIllegalWrapper(env, illegal_reward=euchre_env.ILLEGAL_REWARD)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


def main() -> None:
    """Time each way ``--rounds`` times and print the median and the best."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--whole-game", action="store_true")
    parser.add_argument("--cpu", type=int, default=None, help="core to pin to (default: last)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    cpus = sorted(os.sched_getaffinity(0))
    cpu = cpus[-1] if args.cpu is None else args.cpu
    os.sched_setaffinity(0, {cpu})
    rng = random.Random(args.seed)
    ways: list[tuple[str, Callable[[], Any], Callable[[Any, int, random.Random], float]]] = [
        ("env() agent_iter/last/step",
         lambda: euchre_env.env(args.preset, whole_game=args.whole_game), agent_loop),
        ("raw_env() agent_iter/last/step",
         lambda: euchre_env.raw_env(args.preset, whole_game=args.whole_game), agent_loop),
        ("raw_env() observe/step",
         lambda: euchre_env.raw_env(args.preset, whole_game=args.whole_game), direct_loop),
        ("PettingZoo's 3 wrappers, same loop",
         lambda: pettingzoo_wrapped(args.preset, args.whole_game), agent_loop),
    ]
    mode = "whole games" if args.whole_game else "single hands"
    print(f"random legal play, preset {args.preset}, {mode}, {args.steps} steps x "
          f"{args.rounds} rounds, pinned to core {cpu}, load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for name, make, loop in ways:
        env = make()
        loop(env, min(args.steps, 5_000), rng)  # warm up
        rates = [loop(env, args.steps, rng) for _ in range(args.rounds)]
        print(f"  {name:36s} median {statistics.median(rates):9,.0f} steps/s"
              f"   best {max(rates):9,.0f}")


if __name__ == "__main__":
    main()
