"""A whole game: hands in turn, the dealer rotating, until one side reaches the target
(or, in a tournament round with :attr:`~euchre.rules.Rules.hands_limit`, for that many hands).

A :class:`GameState` is immutable. The deal is a chance step: when
:attr:`GameState.needs_deal` is true, call :meth:`GameState.deal` with a shuffled deck
(or a :class:`~euchre.hand.Deal`); otherwise apply the seat to act's actions.
"""

from __future__ import annotations

import random

from .actions import RENEGE, Action, parse_action
from .errors import IllegalActionError
from .hand import Deal, HandState, finished
from .rules import Rules
from .shuffle import deal_from_deck, shuffled_deck


class GameState:
    """A game of euchre at one moment; immutable."""

    __slots__ = ("_over", "_winner", "current", "first_dealer", "hands", "rules", "score")

    rules: Rules
    first_dealer: int
    hands: tuple[HandState, ...]
    current: HandState | None
    score: tuple[int, int]

    def __init__(self, rules: Rules, first_dealer: int = 0) -> None:
        """A new game: no hand dealt yet, score 0-0."""
        if first_dealer not in (0, 1, 2, 3):
            raise ValueError("the first dealer must be a seat 0-3")
        self.rules = rules
        self.first_dealer = first_dealer
        self.hands = ()
        self.current = None
        self.score = (0, 0)
        self._over, self._winner = _result(rules, self.score, (), None)

    def _with(
        self, hands: tuple[HandState, ...], current: HandState | None, score: tuple[int, int]
    ) -> GameState:
        new = GameState.__new__(GameState)
        new.rules = self.rules
        new.first_dealer = self.first_dealer
        new.hands = hands
        new.current = current
        new.score = score
        # Worked out once: a table asks whether the game is over dozens of times a move.
        new._over, new._winner = _result(self.rules, score, hands, current)
        return new

    @property
    def winner(self) -> int | None:
        """The side that won (0: seats 0 & 2, 1: seats 1 & 3), or None (not over, or a round
        of hands that ended level)."""
        return self._winner

    @property
    def is_over(self) -> bool:
        """Whether a side has reached the target, or the round's hands have all been played."""
        return self._over

    @property
    def needs_deal(self) -> bool:
        """Whether the next step is dealing a new hand."""
        return not self.is_over and (self.current is None or self.current.is_over)

    @property
    def next_dealer(self) -> int:
        """Who deals the next hand: the deal passes left (a throw-in may keep the dealer)."""
        last = self.current
        if last is None:
            return self.first_dealer
        if last.thrown_in and self.rules.all_pass == "same-dealer":
            return last.dealer
        return (last.dealer + 1) % 4

    @property
    def to_act(self) -> int | None:
        """The seat to act in the current hand, or None (game over, or a deal is due)."""
        if self.current is None or self.current.is_over:
            return None
        return self.current.to_act

    def deal(self, cards: list[int] | Deal, pattern: str = "3-2") -> GameState:
        """Deal the next hand from a deck order (or a ready :class:`Deal`)."""
        if not self.needs_deal:
            raise IllegalActionError(
                "the game is over" if self.is_over else "the current hand is not over"
            )
        d = cards if isinstance(cards, Deal) else deal_from_deck(cards, self.next_dealer, pattern)
        hand = HandState(self.rules, self.next_dealer, d, self.score)
        # A finished hand is kept with its history as one tuple: its earlier states go.
        done = self.hands if self.current is None else (*self.hands, finished(self.current))
        return self._with(done, hand, self.score)

    def deal_random(self, rng: random.Random | None = None) -> GameState:
        """Deal the next hand from a shuffled deck (secure shuffle when ``rng`` is None)."""
        deck = shuffled_deck(self.rules.benny, rng)
        pattern = (rng or random.SystemRandom()).choice(("3-2", "2-3"))
        return self.deal(deck, pattern)

    def legal_actions(self) -> list[Action]:
        """The legal actions in the current hand."""
        return [] if self.current is None else self.current.legal_actions()

    def apply(self, action: Action | str, seat: int | None = None) -> GameState:
        """The game after the seat to act takes ``action``."""
        if isinstance(action, str):
            action = parse_action(action)
        current = self.current
        if self.is_over:
            # The result stands once the game is won: a late renege claim cannot flip it.
            raise IllegalActionError("the game is over")
        if current is None or (current.is_over and action.kind != RENEGE):
            raise IllegalActionError("no hand is in progress: deal first")
        # A renege found after the last trick still stops the hand: its points replace the score.
        hand = current.apply(action, seat)
        score = self.score
        if current.is_over:
            score = (score[0] - current.points[0], score[1] - current.points[1])
        if hand.is_over:
            score = (score[0] + hand.points[0], score[1] + hand.points[1])
        return self._with(self.hands, hand, score)

    def __repr__(self) -> str:
        """A short summary for debugging: hands dealt and the score."""
        length = (f"of {self.rules.hands_limit} hands" if self.rules.hands_limit
                  else f"to {self.rules.game_to}")
        return (f"<GameState hands={len(self.all_hands())} score={self.score[0]}-{self.score[1]}"
                f" {length}>")

    def all_hands(self) -> list[HandState]:
        """Every hand of the game so far, the current one last."""
        return [*self.hands, *([self.current] if self.current is not None else [])]


def _result(
    rules: Rules, score: tuple[int, int], hands: tuple[HandState, ...], current: HandState | None
) -> tuple[bool, int | None]:
    """Whether the game is over, and who won (None: nobody yet, or a level round)."""
    if not rules.hands_limit:
        won = _winner(score, rules.game_to)
        return won is not None, won
    played = sum(not h.thrown_in for h in hands)
    if current is not None and current.is_over and not current.thrown_in:
        played += 1
    if played < rules.hands_limit:
        return False, None
    if score[0] == score[1]:
        return True, None
    return True, 0 if score[0] > score[1] else 1


def _winner(score: tuple[int, int], target: int) -> int | None:
    """The side that has won with ``score`` in a game to ``target`` (None: nobody yet)."""
    if score[0] >= target and score[0] > score[1]:
        return 0
    if score[1] >= target and score[1] > score[0]:
        return 1
    return None
