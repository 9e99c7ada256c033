"""Euchre for reinforcement learning: a PettingZoo environment and a Gymnasium wrapper.

``euchre.env.env(preset="classic", **rule_options)`` is the AEC environment checked as
PettingZoo's classic games are (an illegal action ends the episode with a penalty);
``raw_env`` is the same without the wrappers (an illegal action raises). ``single_agent``
seats one learner with three of our computer players, as a Gymnasium environment.
Needs the ``rl`` extra: ``pip install 'euchre[rl]'``. See docs/env.md.
"""

from __future__ import annotations

from typing import Any

from ..rules import Rules
from .actions import NUM_ACTIONS, action_index, index_action
from .aec import AGENTS, ILLEGAL_REWARD, raw_env
from .observation import FIELDS, OFFSETS, SIZE, describe, encode_view
from .single import SingleAgentEnv
from .wrapper import CheckedEnv

__all__ = [
    "AGENTS",
    "FIELDS",
    "ILLEGAL_REWARD",
    "NUM_ACTIONS",
    "OFFSETS",
    "SIZE",
    "CheckedEnv",
    "SingleAgentEnv",
    "action_index",
    "describe",
    "encode_view",
    "env",
    "index_action",
    "raw_env",
    "single_agent",
]


def env(
    preset: str | Rules = "classic",
    *,
    illegal_reward: float = ILLEGAL_REWARD,
    **options: Any,
) -> CheckedEnv:
    """The AEC environment with the checks PettingZoo's classic games have (one layer doing
    what their three wrappers do, :class:`CheckedEnv`): an illegal action ends the episode
    with ``illegal_reward`` for the agent that took it; other options go to :class:`raw_env`
    (``whole_game``, ``win_reward``, ``render_mode`` and any rule option)."""
    return CheckedEnv(raw_env(preset, **options), illegal_reward)


def single_agent(preset: str | Rules = "classic", **options: Any) -> SingleAgentEnv:
    """A Gymnasium environment: one learner, a computer partner and two computer opponents
    (see :class:`SingleAgentEnv` for the options)."""
    return SingleAgentEnv(preset, **options)
