"""What a table is built from: its deps' defaults (one table's pacing is not another's), and a
table built from a :class:`Resumed` starts where that says (its game, version, seeds, and the
seats a computer took from a person; a bot seat is never "taken")."""

from __future__ import annotations

import dataclasses

import pytest

from euchre.game import GameState
from euchre.table.actor.actor import TableActor
from euchre.table.actor.deps import HISTORY_LIMIT, Resumed, TableDeps
from euchre.table.actor.pacing import ManualScheduler
from euchre.table.kinds.practice import PracticeOptions, practice_table


def test_deps_default_to_no_store_no_clock_and_a_pacing_of_their_own() -> None:
    one, two = TableDeps(scheduler=ManualScheduler()), TableDeps(scheduler=ManualScheduler())
    assert one.store is None and one.policy is None and one.guard is None
    assert one.history_limit == HISTORY_LIMIT
    assert one.pacing == two.pacing and one.pacing is not two.pacing
    with pytest.raises(dataclasses.FrozenInstanceError):
        one.store = None  # type: ignore[misc]


def test_a_default_start_is_a_new_game_not_dealt() -> None:
    start = Resumed()
    assert start.game is None and start.version == 0 and list(start.seeds) == []
    config, _ = practice_table(PracticeOptions("classic", {}, "easy", "easy", "easy"),
                               table_id="d1", token="secret", first_dealer=2)
    actor = TableActor(config, TableDeps(scheduler=ManualScheduler()))
    assert actor.game.current is None and actor.game.needs_deal
    assert actor.game.next_dealer == 2 and actor.version == 0 and actor.replaced == {}


def test_a_table_resumed_starts_from_its_game_version_seeds_and_replaced_person_seats() -> None:
    config, _ = practice_table(PracticeOptions("classic", {}, "easy", "easy", "easy"),
                               table_id="d2", token="secret", first_dealer=0)
    game = GameState(config.rules, 0).deal(list(range(24)))
    actor = TableActor(config, TableDeps(scheduler=ManualScheduler()), Resumed(
        game=game, seeds=["s-0"], client_seeds=[{0: "mine"}], version=7,
        replaced={0: "left", 1: "left"}, seen=[0]))
    assert actor.game is game and actor.version == 7
    assert actor.seeds == ["s-0"] and actor.client_seeds == [{0: "mine"}]
    # Seat 0 is the person's: a computer plays it now. Seat 1 was always a computer's.
    assert actor.replaced == {0: "left"} and actor.is_replaced(0) and not actor.is_replaced(1)
