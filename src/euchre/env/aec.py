"""The PettingZoo AEC environment: four seats, one hand (or one whole game) per episode."""

from __future__ import annotations

import numbers
import operator
import random
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from ..actions import PLAY, Action
from ..cards import card_text, cards_text, suit_name
from ..errors import IllegalActionError
from ..game import GameState
from ..hand import PATTERNS, SEAT_NAMES, Deal, HandState
from ..rules import Rules
from ..shuffle import deal_from_deck, shuffled_deck
from ..view import HandView
from .actions import ACTIONS, INDEX, NUM_ACTIONS
from .observation import SIZE, Tracker

AGENTS: tuple[str, ...] = ("player_0", "player_1", "player_2", "player_3")
"""The agents' names; ``player_i`` sits in seat ``i`` (partners 0 & 2 and 1 & 3)."""

ILLEGAL_REWARD = -4.0
"""What an illegal action scores where it ends the episode (the worst a hand can score)."""

_SEAT = {name: seat for seat, name in enumerate(AGENTS)}
_NO_MASK = bytes(NUM_ACTIONS)

Observation = dict[str, npt.NDArray[np.int8]]


def _rules(preset: str | Rules, rule_options: dict[str, Any]) -> Rules:
    if isinstance(preset, Rules):
        return preset.replace(**rule_options) if rule_options else preset
    return Rules.preset(preset, **rule_options)


class raw_env(AECEnv):  # PettingZoo's own name for the unwrapped environment
    """Euchre for four agents under any rules, without PettingZoo's checking wrappers.

    ``raw_env(preset="classic", whole_game=False, **rule_options)``: ``preset`` names one of
    :data:`euchre.PRESETS` (or is a :class:`~euchre.Rules`), ``rule_options`` change any
    field of it (``stick_the_dealer=True``, ``farmers_hand="nines-and-tens"`` …). An episode
    is one hand, or with ``whole_game`` a game to ``game_to`` points. At the end of each hand
    every agent is rewarded its side's points minus the other side's; ``win_reward`` is added
    for the winners (and taken from the losers) when a whole game ends.

    ``reset(seed=..., options=...)``: the seed fixes every deal; ``options`` may hold
    ``dealer`` (the first dealer), ``deal`` (a :class:`~euchre.Deal` for the first hand) and,
    for single hands, ``score`` (the game score before the hand). Other keys are ignored.
    An illegal action raises :class:`~euchre.IllegalActionError` and changes nothing.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo reads it from the class
        "render_modes": ["human", "ansi"],
        "name": "euchre_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        preset: str | Rules = "classic",
        *,
        whole_game: bool = False,
        win_reward: float = 0.0,
        render_mode: str | None = None,
        **rule_options: Any,
    ) -> None:
        """An environment for the preset's rules with ``rule_options`` changed."""
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        self.rules: Rules = _rules(preset, rule_options)
        """The rules every hand is played by."""
        self.whole_game = bool(whole_game)
        """Whether an episode is a whole game (else one hand)."""
        self.win_reward = float(win_reward)
        """Added to the winners' reward (and taken from the losers') when a game ends."""
        self.render_mode = render_mode
        self.possible_agents: list[str] = list(AGENTS)
        self.agents: list[str] = []
        box = spaces.Box(low=0, high=1, shape=(SIZE,), dtype=np.int8)
        mask = spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": box, "action_mask": mask}) for a in AGENTS
        }
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in AGENTS}
        self._tracker = Tracker(self.rules)
        self._rng = random.Random()
        self._seeded = False
        self._game: GameState | None = None
        self._hand: HandState | None = None
        self._mask: bytes | None = None
        self._rewarded = False

    # -- spaces -------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """``Dict(observation=Box(0, 1, (SIZE,), int8), action_mask=Box(0, 1, (120,), int8))``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(120)``: see :mod:`euchre.env.actions`."""
        return self.action_spaces[agent]

    # -- the game -----------------------------------------------------------------------

    @property
    def hand_state(self) -> HandState:
        """The whole hand in progress, every card included (not for agents' eyes)."""
        if self._hand is None:
            raise RuntimeError("call reset() first")
        return self._hand

    @property
    def game_state(self) -> GameState | None:
        """The game in progress when ``whole_game`` is on (else None)."""
        return self._game

    def view(self, agent: str | int) -> HandView:
        """What an agent (or seat) may know now: the view a computer player is given."""
        seat = agent if isinstance(agent, int) else _SEAT[agent]
        return self.hand_state.view(seat)

    def _deal(self, dealer: int) -> Deal:
        rng = self._rng
        deck = shuffled_deck(self.rules.benny, rng)
        return deal_from_deck(deck, dealer, rng.choice(PATTERNS))

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new episode (see the class docstring for ``seed`` and ``options``)."""
        if seed is not None:
            self._rng = random.Random(seed)
            self._seeded = True
        elif not self._seeded:
            self._rng = random.Random(random.SystemRandom().getrandbits(64))
            self._seeded = True
        options = options or {}
        dealer = options.get("dealer")
        dealer = self._rng.randrange(4) if dealer is None else int(dealer)
        if dealer not in range(4):
            raise ValueError(f"options['dealer'] is a seat, 0-3, not {dealer}")
        deal = options.get("deal")
        if deal is not None and not isinstance(deal, Deal):
            raise TypeError("options['deal'] must be a euchre.Deal")
        if self.whole_game:
            game = GameState(self.rules, dealer)
            game = game.deal(deal if deal is not None else self._deal(dealer))
            self._game = game
            hand = game.current
            assert hand is not None
        else:
            score = tuple(options.get("score", (0, 0)))
            top = self.rules.game_to
            if len(score) != 2 or not all(isinstance(s, numbers.Integral) and 0 <= int(s) < top
                                          for s in score):
                raise ValueError(f"options['score'] is two whole numbers, each 0 to "
                                 f"{top - 1} (a game not yet won), not {score}")
            hand = HandState(self.rules, dealer, deal or self._deal(dealer),
                             (int(score[0]), int(score[1])))
        self._start_hand(hand)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self._rewarded = False

    def _start_hand(self, hand: HandState) -> None:
        self._hand = hand
        self._tracker.start(hand)
        self._mask = None
        assert hand.to_act is not None
        self.agent_selection = AGENTS[hand.to_act]

    def step(self, action: int | np.integer[Any] | None) -> None:
        """The agent to act takes the action with this index (None once it is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(f"{agent} is to act: None is not an action")
        try:
            index = operator.index(action)
        except TypeError:
            raise IllegalActionError(f"not an action index: {action!r}") from None
        if not 0 <= index < NUM_ACTIONS:
            raise IllegalActionError(
                f"action {index} is outside the action space 0-{NUM_ACTIONS - 1}"
            )
        before = self._hand
        assert before is not None
        seat = before.to_act
        assert seat is not None
        chosen = ACTIONS[index]
        try:
            if self._game is not None:
                game = self._game.apply(chosen)
                after = game.current
                assert after is not None
            else:
                after = before.apply(chosen)
        except IllegalActionError as e:
            raise IllegalActionError(f"action {index} ({chosen}) is not legal now: {e}") from None
        if self._game is not None:
            self._game = game
        self._hand = after
        self._mask = None
        self._tracker.step(before, after, seat, chosen)
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:
            self._clear_rewards()
            self._rewarded = False
        if after.to_act is not None:
            self.agent_selection = AGENTS[after.to_act]
            return
        self._end_hand(after)

    def _end_hand(self, hand: HandState) -> None:
        points = hand.points
        rewards = self.rewards
        if points != (0, 0):
            margin = float(points[0] - points[1])
            for seat, name in enumerate(AGENTS):
                rewards[name] = margin if seat % 2 == 0 else -margin
            self._rewarded = True
        game = self._game
        if game is not None and not game.is_over:
            self._accumulate_rewards()
            game = self._game = game.deal(self._deal(game.next_dealer))
            assert game.current is not None
            self._start_hand(game.current)
            return
        if game is not None and self.win_reward:
            winner = game.winner
            for seat, name in enumerate(AGENTS):
                rewards[name] += self.win_reward if seat % 2 == winner else -self.win_reward
            self._rewarded = True
        self.terminations = dict.fromkeys(AGENTS, True)
        self._accumulate_rewards()

    # -- observations -------------------------------------------------------------------

    def _legal_mask(self) -> bytes:
        mask = self._mask
        if mask is None:
            hand = self._hand
            assert hand is not None
            m = bytearray(NUM_ACTIONS)
            for a in hand.legal_actions():
                m[a.card if a.kind == PLAY else INDEX[a]] = 1
            mask = self._mask = bytes(m)
        return mask

    def action_mask(self, agent: str) -> npt.NDArray[np.int8]:
        """1 for each legal action of the agent now (all 0 when it is not its turn)."""
        hand = self._hand
        if hand is None or hand.to_act is None or AGENTS[hand.to_act] != agent:
            return np.zeros(NUM_ACTIONS, dtype=np.int8)
        return np.frombuffer(self._legal_mask(), dtype=np.int8).copy()

    def observe(self, agent: str) -> Observation:
        """``{"observation": the agent's vector, "action_mask": its legal actions}``."""
        rows = self._tracker.rows
        hand = self._hand
        seat = _SEAT[agent]
        mask = self._legal_mask() if hand is not None and hand.to_act == seat else _NO_MASK
        return {
            "observation": np.frombuffer(rows[seat], dtype=np.int8).copy(),
            "action_mask": np.frombuffer(mask, dtype=np.int8).copy(),
        }

    def legal_actions(self) -> list[Action]:
        """The engine actions the agent to act may take."""
        return [] if self._hand is None else self._hand.legal_actions()

    # -- rendering ----------------------------------------------------------------------

    def render(self) -> str | None:
        """The table as text (every hand shown, for onlookers): returned with
        ``render_mode="ansi"``, printed with ``"human"`` (which returns None)."""
        text = self._table_text()
        if self.render_mode == "human" and text is not None:
            print(text)
            return None
        return text if self.render_mode == "ansi" else None

    def _table_text(self) -> str | None:
        if self.render_mode is None or self._hand is None:
            return None
        hand = self._hand
        lines = [
            f"rules: {self.rules.to_text()}",
            f"dealer: {SEAT_NAMES[hand.dealer]}  upcard: {card_text(hand.upcard)}  "
            f"phase: {hand.phase_name}  score: {hand.score[0]}-{hand.score[1]}",
        ]
        if hand.trump >= 0:
            lines.append(
                f"trump: {suit_name(hand.trump)} made by {SEAT_NAMES[hand.maker]}"
                + (" alone" if hand.alone else "")
            )
        for seat in range(4):
            mark = "*" if hand.to_act == seat else " "
            lines.append(f"{mark} {AGENTS[seat]} ({SEAT_NAMES[seat]}): "
                         f"{cards_text(hand.hand(seat))}")
        leader, trick = hand.trick
        if trick:
            lines.append(f"trick led by {SEAT_NAMES[leader]}: {cards_text(trick)}")
        won = hand.tricks_won
        lines.append(f"tricks: {won[0]}-{won[1]}")
        if hand.is_over:
            lines.append(f"hand over: points {hand.points[0]}-{hand.points[1]}"
                         + (" (thrown in)" if hand.thrown_in else ""))
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release."""
