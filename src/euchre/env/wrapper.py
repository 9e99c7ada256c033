"""PettingZoo's three checking wrappers for classic games, in one cheap layer.

PettingZoo's classic games wrap their raw environment in ``TerminateIllegalWrapper``,
``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``. Each of those looks up the
environment's attributes through a chain of ``__getattr__`` calls, which made a step about
three times as dear as without them (docs/env.md has the figures). :class:`CheckedEnv`
does what the three do, in one layer that reads the raw environment directly:

- before ``reset()``, ``step``/``observe``/``render``/``agent_iter`` fail as PettingZoo's do;
- an action outside the action space is refused (:class:`~euchre.IllegalActionError`);
- an illegal action ends the episode for everyone, with ``illegal_reward`` for the agent
  that took it and 0 for the others; ``agent_iter`` insists on a ``step`` between turns.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator
from typing import Any

from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import BaseWrapper

from ..errors import IllegalActionError
from .actions import NUM_ACTIONS
from .aec import Observation, raw_env

_NEED_RESET = frozenset(
    ("agent_selection", "agents", "rewards", "terminations", "truncations", "infos",
     "num_agents")
)


class CheckedEnv(BaseWrapper):
    """The raw environment with PettingZoo's classic-game checks (see the module docstring)."""

    def __init__(self, env: raw_env, illegal_reward: float) -> None:
        """Wrap ``env``; an illegal action scores ``illegal_reward``."""
        super().__init__(env)
        self._raw = env
        self._illegal_reward = float(illegal_reward)
        self._has_reset = False
        self._has_updated = False
        self._terminated = False  # ended by an illegal action

    # The attributes every turn reads, straight from the raw environment.
    @property
    def agent_selection(self) -> str:
        """The agent to act."""
        self._check_reset("agent_selection")
        return self._raw.agent_selection

    @property
    def agents(self) -> list[str]:
        """The agents still in the episode."""
        self._check_reset("agents")
        return self._raw.agents

    @property
    def rewards(self) -> dict[str, float]:
        """Each agent's reward from the last step."""
        self._check_reset("rewards")
        return self._raw.rewards

    @property
    def terminations(self) -> dict[str, bool]:
        """Whether each agent's episode has ended."""
        self._check_reset("terminations")
        return self._raw.terminations

    @property
    def truncations(self) -> dict[str, bool]:
        """Whether each agent's episode was cut short (never, here)."""
        self._check_reset("truncations")
        return self._raw.truncations

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        """Each agent's info (empty dicts)."""
        self._check_reset("infos")
        return self._raw.infos

    @property
    def _cumulative_rewards(self) -> dict[str, float]:
        return self._raw._cumulative_rewards

    @property
    def num_agents(self) -> int:
        """How many agents are still in the episode."""
        self._check_reset("num_agents")
        return len(self._raw.agents)

    def _check_reset(self, name: str) -> None:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")

    def __getattr__(self, name: str) -> Any:
        """Other attributes of the raw environment (a property that refused before reset
        lands here too, and is refused again)."""
        if name in _NEED_RESET:
            self._check_reset(name)
        return super().__getattr__(name)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new episode (see :class:`~euchre.env.raw_env`)."""
        self._has_reset = True
        self._has_updated = True
        self._terminated = False
        self._raw.reset(seed=seed, options=options)

    def observe(self, agent: str) -> Observation | None:
        """The agent's observation and action mask."""
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self._raw.observe(agent)

    def last(
        self, observe: bool = True
    ) -> tuple[Observation | None, float, bool, bool, dict[str, Any]]:
        """Observation, reward so far, terminated, truncated and info of the agent to act."""
        raw = self._raw
        agent = raw.agent_selection
        return (
            raw.observe(agent) if observe else None,
            raw._cumulative_rewards[agent],
            raw.terminations[agent],
            raw.truncations[agent],
            raw.infos[agent],
        )

    def step(self, action: Any) -> None:
        """Take the action of the agent to act (None once its episode has ended)."""
        raw = self._raw
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        if not raw.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
            return
        self._has_updated = True
        agent = raw.agent_selection
        dead = raw.terminations[agent] or raw.truncations[agent]
        if dead:
            if self._terminated:
                raw._was_dead_step(action)
            else:
                raw.step(action)
            return
        try:
            index = operator.index(action)
        except TypeError:
            raise IllegalActionError(f"not an action index: {action!r}") from None
        if not 0 <= index < NUM_ACTIONS:
            raise IllegalActionError(
                f"action {index} is outside the action space 0-{NUM_ACTIONS - 1}"
            )
        if not raw._legal_mask()[index]:
            EnvLogger.warn_on_illegal_move()
            raw._cumulative_rewards[agent] = 0.0
            raw.terminations = dict.fromkeys(raw.agents, True)
            raw.truncations = dict.fromkeys(raw.agents, True)
            raw.rewards = dict.fromkeys(raw.agents, 0.0)
            raw.rewards[agent] = self._illegal_reward
            raw._accumulate_rewards()
            raw._deads_step_first()
            self._terminated = True
            return
        raw.step(index)

    def render(self) -> str | None:
        """The raw environment's rendering."""
        if not self._has_reset:
            EnvLogger.error_render_before_reset()
        return self._raw.render()

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """The agent to act, turn after turn (a ``step`` must come between)."""
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _Turns(self, max_iter)

    def __str__(self) -> str:
        """The environment's name, as PettingZoo's wrappers show it."""
        return str(self._raw)


class _Turns(Iterator[str]):
    def __init__(self, env: CheckedEnv, max_iter: int) -> None:
        self.env = env
        self.left = max_iter

    def __next__(self) -> str:
        env = self.env
        raw = env._raw
        if not raw.agents or self.left <= 0:
            raise StopIteration
        self.left -= 1
        if not env._has_updated:
            raise AssertionError("need to call step() or reset() in a loop over `agent_iter`")
        env._has_updated = False
        return raw.agent_selection
