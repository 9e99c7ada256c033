"""A table's record journal: the lines added since the last save, worked out from the game,
fold back into exactly the record written whole, and a move adds a few lines however long
the game has run."""

from __future__ import annotations

import random

import pytest

from euchre.game import GameState
from euchre.record import GameRecord
from euchre.rules import Rules
from euchre.shuffle import deck_from_seed, mixed_seed
from euchre.storage.journal import RecordTail, fold_lines
from euchre.table.actor.journal import Mark, RecordJournal, lines_since, mark_of


def positions(rng: random.Random, rules: Rules) -> list[tuple[GameState, list[str],
                                                             list[dict[int, str]]]]:
    """Every position of a random game (after each deal and each action), with the seeds."""
    game = GameState(rules, rng.randrange(4))
    seeds: list[str] = []
    clients: list[dict[int, str]] = []
    out = []
    while not game.is_over:
        if game.needs_deal:
            seed = f"{rng.getrandbits(128):032x}"
            mine = {0: f"{rng.getrandbits(64):016x}"} if rng.random() < 0.5 else {}
            game = game.deal(deck_from_seed(mixed_seed(seed, mine), rules.benny))
            seeds.append(seed)
            clients.append(mine)
        else:
            game = game.apply(rng.choice(game.legal_actions()))
        out.append((game, list(seeds), [dict(c) for c in clients]))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_lines_saved_after_every_step_fold_into_the_whole_record(seed: int) -> None:
    rng = random.Random(seed)
    rules = Rules() if seed % 2 else Rules().replace(stick_the_dealer=True, game_to=5)
    base = GameRecord(rules).to_json()
    mark, stored = Mark(), []
    for game, seeds, clients in positions(rng, rules):
        tail, mark = lines_since(mark, game, seeds, clients)
        assert tail.start == len(stored)
        assert len(tail.lines) <= 9  # a deal's opening (7) or a move, its trick's end, the score
        stored += tail.lines
        whole = GameRecord.from_game(game, seeds, clients).to_json()
        assert fold_lines(base, stored) == whole
        assert mark_of(game) == Mark(mark.hands, mark.actions, mark.result, mark.final)
    assert GameRecord.from_json(fold_lines(base, stored)).replay().score == game.score


def test_lines_after_a_record_written_whole_mid_game_follow_it() -> None:
    steps = positions(random.Random(9), Rules())
    game, seeds, clients = steps[len(steps) // 2]
    base = GameRecord.from_game(game, seeds, clients).to_json()
    mark, stored = mark_of(game), []
    for game, seeds, clients in steps[len(steps) // 2 + 1:]:
        tail, mark = lines_since(mark, game, seeds, clients)
        stored += tail.lines
        assert fold_lines(base, stored) == GameRecord.from_game(game, seeds, clients).to_json()


def test_the_text_records_lines_fold_into_its_json() -> None:
    for seed in range(4):
        game, seeds, clients = positions(random.Random(100 + seed), Rules())[-1]
        record = GameRecord.from_game(game, seeds, clients)
        lines = record.to_text().splitlines()[2:]  # after the magic line and the rules
        assert fold_lines(GameRecord(record.rules).to_json(), lines) == record.to_json()


def test_a_renege_claim_line_names_its_claimer() -> None:
    base = {"format": "euchre-record", "hands": [{"actions": []}]}
    assert fold_lines(base, ["renege 1 by 2"])["hands"][0]["actions"] == [[2, "renege 1 by 2"]]
    assert base["hands"][0]["actions"] == []  # the base is not changed
    with pytest.raises(ValueError, match="unknown journal line"):
        fold_lines(base, ["nonsense"])


def test_tails_written_one_after_another_make_one() -> None:
    first = RecordTail(4, ("a", "b"))
    assert first.then(RecordTail(6, ("c",))) == RecordTail(4, ("a", "b", "c"))
    assert first.then(RecordTail(5, ("x",))) == RecordTail(4, ("a", "x"))  # b was undone
    assert first.then(RecordTail(2, ("y",))) == RecordTail(2, ("y",))
    with pytest.raises(ValueError, match="missing"):
        first.then(RecordTail(7, ("z",)))


def test_the_journal_forgets_and_a_save_begun_before_cannot_set_its_mark() -> None:
    journal = RecordJournal()
    assert journal.mark is None
    began = journal.generation
    journal.saved(Mark(1, 2), began)
    assert journal.mark == Mark(1, 2)
    began = journal.generation
    journal.forget()
    journal.saved(Mark(1, 3), began)  # began before the forgetting: unknown still
    assert journal.mark is None
