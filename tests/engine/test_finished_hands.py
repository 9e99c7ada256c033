"""A game keeps its finished hands whole (history, result, every property) without the
chain of states each hand passed through, which the garbage collector would walk for as
long as the game lives."""

from __future__ import annotations

import gc
import random
import types

from euchre.game import GameState
from euchre.hand import HandState
from euchre.rules import PRESETS


def _states_reachable(root: object) -> set[int]:
    """The ids of every HandState reachable from ``root`` by references (its data: not
    through classes, modules or functions, whose globals may hold another test's states)."""
    seen: set[int] = set()
    found: set[int] = set()
    todo = [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, type | types.ModuleType | types.FunctionType):
            continue
        if isinstance(obj, HandState):
            found.add(id(obj))
        todo.extend(gc.get_referents(obj))
    return found


def _play(seed: int) -> tuple[GameState, list[HandState], list[list[HandState]]]:
    """A whole random game; the state each hand ended in, and every state of each hand."""
    rng = random.Random(seed)
    game = GameState(PRESETS["classic"], first_dealer=seed % 4)
    ends: list[HandState] = []
    chains: list[list[HandState]] = []
    while not game.is_over:
        if game.needs_deal:
            if game.current is not None:
                ends.append(game.current)
            game = game.deal_random(rng)
            assert game.current is not None
            chains.append([game.current])
            continue
        game = game.apply(rng.choice(game.legal_actions()))
        assert game.current is not None
        chains[-1].append(game.current)
    assert game.current is not None
    ends.append(game.current)
    return game, ends, chains


def test_a_finished_hand_keeps_its_history_and_result_without_its_earlier_states() -> None:
    for seed in range(6):
        game, ends, chains = _play(seed)
        assert len(game.hands) == len(ends) - 1 >= 1
        for kept, end in zip(game.hands, ends, strict=False):
            assert kept.is_over and kept.history() == end.history()
            assert (kept.points, kept.tricks_won, kept.tricks, kept.trump, kept.maker,
                    kept.dealer, kept.deal, kept.score, kept.kitty_down, kept.reneged,
                    kept.thrown_in, kept.phase, kept.to_act) == (
                end.points, end.tricks_won, end.tricks, end.trump, end.maker, end.dealer,
                end.deal, end.score, end.kitty_down, end.reneged, end.thrown_in, end.phase,
                end.to_act)
            for seat in range(4):
                assert kept.view(seat) == end.view(seat)
        # Only the finished hands themselves and the hand in play's states stay reachable.
        del ends
        assert len(_states_reachable(game)) == len(game.hands) + len(chains[-1])


def test_actions_since_reads_a_finished_hand_as_it_reads_the_chain() -> None:
    game, _, chains = _play(11)
    for kept, chain in zip(game.hands, chains, strict=False):
        for i, earlier in enumerate(chain):
            assert kept.actions_since(earlier) == chain[-1].actions_since(earlier)
            assert earlier.history() + (kept.actions_since(earlier) or []) == kept.history()
            assert len(kept.actions_since(earlier) or []) == len(chain) - 1 - i
        assert kept.actions_since(kept) == []
    first, second = game.hands[0], game.hands[1]
    assert first.actions_since(chains[1][0]) is None
    assert second.actions_since(chains[0][3]) is None
    assert first.actions_since(second) is None
