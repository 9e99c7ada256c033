"""A table's shuffle: the next hand's seed is committed before people send theirs, each
person's seed is taken once, the deck comes from the mix, and a copy or a save keeps it."""

from __future__ import annotations

import itertools

import pytest

from euchre.game import GameState
from euchre.rules import Rules
from euchre.shuffle import commitment, deck_from_seed, mixed_seed
from euchre.table.actor.dealing import Shuffle
from euchre.table.actor.errors import TableError


def _seeds() -> Shuffle:
    counter = itertools.count()
    return Shuffle(lambda: f"{next(counter):064x}")


def test_the_deal_uses_the_committed_seed_mixed_with_the_peoples_and_draws_the_next() -> None:
    shuffle = _seeds()
    first = shuffle.next_seed
    assert shuffle.next_commitment() == commitment(first)
    assert shuffle.take(0, 1, 1, "ab" * 8) and shuffle.take(2, 1, 1, "cd" * 10)
    rules = Rules()
    game = GameState(rules, 3)
    new = shuffle.deal(game, rules.benny)
    expected = game.deal(deck_from_seed(mixed_seed(first, {0: "ab" * 8, 2: "cd" * 10})))
    assert new.current is not None and expected.current is not None
    assert new.current.view(0) == expected.current.view(0)
    assert shuffle.seeds == [first] and shuffle.client_seeds == [{0: "ab" * 8, 2: "cd" * 10}]
    assert shuffle.next_seed != first and shuffle.pending == {}
    assert shuffle.next_commitment() == commitment(shuffle.next_seed)
    assert shuffle.seed(0) == first and shuffle.seed(1) is None
    assert shuffle.clients(0) == {0: "ab" * 8, 2: "cd" * 10} and shuffle.clients(1) == {}


def test_a_seed_is_taken_once_for_the_next_hand_only() -> None:
    shuffle = _seeds()
    with pytest.raises(TableError, match="for hand 1 only"):
        shuffle.take(0, 2, 1, "ab" * 8)
    with pytest.raises(TableError, match="lower-case hex"):
        shuffle.take(0, 1, 1, "AB" * 8)
    with pytest.raises(TableError, match="lower-case hex"):
        shuffle.take(0, 1, 1, "ab")
    assert shuffle.pending == {}
    assert shuffle.take(0, 1, 1, "ab" * 8) is True
    assert shuffle.take(0, 1, 1, "ab" * 8) is False  # the same again: nothing changes
    with pytest.raises(TableError, match="already taken"):
        shuffle.take(0, 1, 1, "ef" * 8)
    assert shuffle.pending == {0: "ab" * 8}
    assert not shuffle.all_in([0, 2]) and shuffle.all_in([0]) and shuffle.all_in([])


def test_a_copy_is_independent_and_the_saved_state_restores_the_committed_seed() -> None:
    shuffle = _seeds()
    shuffle.take(1, 1, 1, "12" * 8)
    kept = shuffle.copy()
    rules = Rules()
    shuffle.deal(GameState(rules, 0), rules.benny)
    assert kept.seeds == [] and kept.pending == {1: "12" * 8}
    assert kept.next_seed == shuffle.seeds[0]
    saved = kept.to_json()
    assert saved == {"next_seed": kept.next_seed, "pending": {"1": "12" * 8}}
    drawn: list[str] = []
    again = Shuffle(lambda: drawn.append("x") or "f" * 64, state=saved)
    assert drawn == []  # the committed seed is kept, none drawn
    assert again.next_seed == kept.next_seed and again.pending == {1: "12" * 8}
    assert Shuffle(lambda: "e" * 64, state=None).next_seed == "e" * 64
