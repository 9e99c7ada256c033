"""Shared helpers for the engine tests: fixed deals, scripted bidding, exhaustive search."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import euchre
from euchre.game import GameState
from euchre.hand import HandState


def deal(
    rules: euchre.Rules, dealer: int, hands: str, kitty: str, score: tuple[int, int] = (0, 0)
) -> HandState:
    """A hand from text: ``hands`` is four groups of five cards split by ``|`` (seats 0-3)."""
    return euchre.deal(rules, dealer, [h.split() for h in hands.split("|")], kitty.split(), score)


def act(state: HandState, *actions: str) -> HandState:
    """Apply actions in order, each by the seat to act."""
    for a in actions:
        state = state.apply(a)
    return state


def legal(state: HandState) -> list[str]:
    """The legal actions as text."""
    return [str(a) for a in state.legal_actions()]


def endings(state: HandState) -> Iterator[HandState]:
    """Every finished hand reachable from ``state``, depth first in legal-action order."""
    if state.is_over:
        yield state
        return
    for a in state.legal_actions():
        yield from endings(state.apply(a))


def first_ending(state: HandState, wanted: Callable[[HandState], bool]) -> HandState:
    """The first finished hand reachable from ``state`` that satisfies ``wanted``."""
    for end in endings(state):
        if wanted(end):
            return end
    raise AssertionError("no such ending")


def snapshot(state: HandState) -> tuple[Any, ...]:
    """Everything a state holds, to check that a refused action changed nothing."""
    return (
        state.phase,
        state.to_act,
        state.trump,
        state.maker,
        state.alone,
        state.lone_defender,
        state.out,
        state.discard,
        state.points,
        state.thrown_in,
        state.reneged,
        tuple(state.hand_mask(s) for s in range(4)),
        state.kitty_down,
        state.trick,
        tuple(state.tricks),
        state.tricks_won,
        tuple(state.history()),
    )


def play_random(state: HandState, rng: Any) -> HandState:
    """Play uniformly random legal actions to the end of the hand."""
    while not state.is_over:
        options = state.legal_actions()
        state = state.apply(options[rng.randrange(len(options))])
    return state


def play_random_game(rules: euchre.Rules, first_dealer: int, rng: Any) -> GameState:
    """A whole game of uniformly random legal actions, dealt from ``rng``."""
    game = GameState(rules, first_dealer)
    while not game.is_over:
        if game.needs_deal:
            game = game.deal_random(rng)
        else:
            options = game.legal_actions()
            game = game.apply(options[rng.randrange(len(options))])
    return game
