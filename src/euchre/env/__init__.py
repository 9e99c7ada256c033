"""Euchre for reinforcement learning: a PettingZoo environment and a Gymnasium wrapper.

``euchre.env.env(preset="classic", **rule_options)`` is the AEC environment checked as
PettingZoo's classic games are (an illegal action ends the episode with a penalty);
``raw_env`` is the same without the wrappers (an illegal action raises). ``single_agent``
seats one learner with three of our computer players, as a Gymnasium environment, also
registered as ``gymnasium.make("euchre/Euchre-v0", **options)`` (:data:`GYM_ID`).
:func:`information_state_tensor` and :func:`information_state_text` give a seat's information
state. Needs the ``rl`` extra: ``pip install 'euchre[rl]'``. See docs/env.md.
"""

from __future__ import annotations

from typing import Any

import gymnasium

from ..infostate import information_state_text
from ..rules import Rules
from .actions import NUM_ACTIONS, action_index, index_action
from .aec import AGENTS, ILLEGAL_REWARD, raw_env
from .infostate import INFO_FIELDS, INFO_SIZE, information_state_tensor
from .observation import FIELDS, OFFSETS, SIZE, describe, encode_view
from .single import SingleAgentEnv
from .wrapper import CheckedEnv

__all__ = [
    "AGENTS",
    "FIELDS",
    "GYM_ID",
    "ILLEGAL_REWARD",
    "INFO_FIELDS",
    "INFO_SIZE",
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
    "information_state_tensor",
    "information_state_text",
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


GYM_ID = "euchre/Euchre-v0"
"""The Gymnasium id of :class:`SingleAgentEnv`, registered when this package is imported:
``gymnasium.make(GYM_ID, preset="canadian", opponents="hard")`` passes its options on."""

if GYM_ID not in gymnasium.registry:  # importing twice (a reload) must not register twice
    gymnasium.register(id=GYM_ID, entry_point="euchre.env.single:SingleAgentEnv")
