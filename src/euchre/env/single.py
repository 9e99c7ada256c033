"""A Gymnasium environment for one learner seated with three of our computer players."""

from __future__ import annotations

import operator
import random
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..bots import LEVELS, Bot, make
from ..rules import Rules
from ..view import HandView
from .actions import INDEX, NUM_ACTIONS
from .aec import AGENTS, ILLEGAL_REWARD, raw_env
from .observation import SIZE

Vector = npt.NDArray[np.int8]

_ROLE = {2: 0, 1: 1, 3: 2}  # a seat relative to the learner -> partner, left, right


class SingleAgentEnv(gymnasium.Env[Vector, int]):
    """One seat learns; a computer partner and two computer opponents play the others.

    ``SingleAgentEnv(preset="classic", seat=0, partner="medium", opponents="medium",
    whole_game=False, win_reward=0.0, **rule_options)``: ``seat`` is the learner's seat
    (None: a random seat each episode); ``partner`` is a level of :func:`euchre.bots.make`
    and ``opponents`` one level or a pair (left, right). The observation is the learner's
    vector (:mod:`euchre.env.observation`); ``info["action_mask"]`` (and
    :meth:`action_masks`) marks its legal actions. The reward is the learner's side's points
    minus the other side's, at the end of each hand. An illegal action ends the episode
    with ``illegal_reward`` (-4, the worst a hand scores) and ``info["illegal_action"]``,
    as PettingZoo's classic games do; with ``illegal_reward=None`` it raises
    :class:`~euchre.IllegalActionError` and changes nothing.

    An episode starts at the learner's first decision: a hand that ends before the learner
    has anything to decide (thrown in by a farmer, or played out while it sits out) is
    skipped when single hands are played, and counted in ``info["hands_skipped"]``.
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 4}  # noqa: RUF012 - Gymnasium's

    def __init__(
        self,
        preset: str | Rules = "classic",
        *,
        seat: int | None = 0,
        partner: str = "medium",
        opponents: str | tuple[str, str] = "medium",
        whole_game: bool = False,
        win_reward: float = 0.0,
        illegal_reward: float | None = ILLEGAL_REWARD,
        render_mode: str | None = None,
        **rule_options: Any,
    ) -> None:
        """An environment for the preset's rules with ``rule_options`` changed."""
        self.illegal_reward = illegal_reward
        """What an illegal action scores; it ends the episode (None: it raises instead)."""
        self._over = True
        if seat is not None and seat not in (0, 1, 2, 3):
            raise ValueError(f"seat must be 0-3 or None, not {seat!r}")
        pair = (opponents, opponents) if isinstance(opponents, str) else tuple(opponents)
        if len(pair) != 2:
            raise ValueError("opponents is one level or a pair of levels")
        for level in (partner, *pair):
            if level.strip().lower() not in LEVELS:
                raise ValueError(f"unknown level {level!r}: choose one of {', '.join(LEVELS)}")
        self.levels: tuple[str, str, str] = (partner, pair[0], pair[1])
        """The computer players' levels: partner, left opponent, right opponent."""
        self.fixed_seat = seat
        """The learner's seat, or None for a random seat each episode."""
        self.aec = raw_env(
            preset, whole_game=whole_game, win_reward=win_reward, render_mode=render_mode,
            **rule_options,
        )
        """The four-seat environment underneath."""
        self.render_mode = render_mode
        self.observation_space = spaces.Box(low=0, high=1, shape=(SIZE,), dtype=np.int8)
        self.action_space: spaces.Space[int] = spaces.Discrete(NUM_ACTIONS)  # type: ignore[assignment]
        self.seat = 0 if seat is None else seat
        """The learner's seat this episode."""
        self._bots: tuple[Bot, ...] = ()
        self._rng = random.Random()

    def _make_bots(self, seed: int) -> None:
        # Partner, left and right: a bot answers from its seed and the view it is given, so
        # the same three serve whichever seat the learner takes.
        self._bots = tuple(make(level, seed * 3 + i) for i, level in enumerate(self.levels))

    def _advance(self) -> float:
        """Let the computer players act until it is the learner's turn or the episode ends;
        the learner's reward on the way."""
        aec = self.aec
        me = AGENTS[self.seat]
        reward = 0.0
        while not aec.terminations[me] and aec.agent_selection != me:
            seat = AGENTS.index(aec.agent_selection)
            action = self._bots[_ROLE[(seat - self.seat) % 4]].choose(aec.view(seat))
            aec.step(INDEX[action])
            reward += aec.rewards[me]
        return reward

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.aec.action_mask(AGENTS[self.seat])}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Vector, dict[str, Any]]:
        """Deal until the learner has a decision; a seed fixes the deals, seats and computer
        players' choices of this episode and of the unseeded ones after it."""
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        if seed is not None or not self._bots:
            self._make_bots(self._rng.getrandbits(48))
        if self.fixed_seat is None:
            self.seat = self._rng.randrange(4)
        skipped = 0
        aec_seed: int | None = self._rng.getrandbits(63)
        while True:
            self.aec.reset(seed=aec_seed, options=options)
            aec_seed = None
            options = None
            self._advance()
            if not self.aec.terminations[AGENTS[self.seat]]:
                break
            skipped += 1
        self._over = False
        info = self._info()
        info["hands_skipped"] = skipped
        return self._observation(), info

    def _observation(self) -> Vector:
        return self.aec.observe(AGENTS[self.seat])["observation"]

    def step(self, action: int) -> tuple[Vector, float, bool, bool, dict[str, Any]]:
        """The learner takes the action with this index; the others play until its next
        decision or the end of the episode."""
        aec = self.aec
        me = AGENTS[self.seat]
        if self._over:
            raise RuntimeError("the episode is over: call reset()")
        if self.illegal_reward is not None and not self._is_legal(action):
            self._over = True
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), self.illegal_reward, True, False, info
        aec.step(action)
        reward = aec.rewards[me] + self._advance()
        done = self._over = aec.terminations[me]
        return self._observation(), float(reward), done, False, self._info()

    def _is_legal(self, action: Any) -> bool:
        try:
            index = operator.index(action)
        except TypeError:
            return False
        return 0 <= index < NUM_ACTIONS and bool(self.aec._legal_mask()[index])

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The learner's legal actions now, as 0/1 (the name sb3-contrib's maskable
        algorithms look for)."""
        return self.aec.action_mask(AGENTS[self.seat])

    def view(self) -> HandView:
        """The learner's own view of the hand (to ask a computer player what it would do)."""
        return self.aec.view(self.seat)

    def render(self) -> str | None:
        """The table as text with ``render_mode="ansi"``, printed with ``"human"``."""
        return self.aec.render()
