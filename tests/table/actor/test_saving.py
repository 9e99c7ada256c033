"""Saving a table: the first save writes the record whole, later saves only the lines
since, a failed save makes the next one whole again, what is read back is the record
written whole, and the pause after failed saves doubles up to its most."""

from __future__ import annotations

import random

import msgspec
import pytest

from euchre.game import GameState
from euchre.record import GameRecord
from euchre.rules import Rules
from euchre.shuffle import deck_from_seed
from euchre.storage import MemoryStore
from euchre.storage.base import FINISHED, PLAYING, StoredGame
from euchre.table.actor.saving import RETRY_FIRST, RETRY_MOST, Retry, TableSaver, TableState
from euchre.table.kinds.practice import PracticeOptions, practice_table


class _Flaky(MemoryStore):
    """A store that fails while ``down`` is set, and keeps every game it was handed."""

    def __init__(self) -> None:
        super().__init__()
        self.down = False
        self.handed: list[StoredGame] = []

    async def save(self, game: StoredGame) -> None:
        self.handed.append(game)
        if self.down:
            raise ConnectionError("the database is not answering")
        await super().save(game)


def _states(rules: Rules) -> list[TableState]:
    """A table's states as a game is played out at random."""
    rng = random.Random(3)
    game = GameState(rules, 0)
    seeds: list[str] = []
    clients: list[dict[int, str]] = []
    out = []
    while not game.is_over:
        if game.needs_deal:
            seeds.append(f"{rng.getrandbits(128):032x}")
            clients.append({})
            game = game.deal(deck_from_seed(seeds[-1], rules.benny))
        else:
            game = game.apply(rng.choice(game.legal_actions()))
        out.append(TableState(game, list(seeds), [dict(c) for c in clients], len(out) + 1,
                              game.is_over, {"policy": {}, "n": len(out)}))
    return out


async def test_saves_after_the_first_write_lines_and_read_back_as_the_whole_record() -> None:
    config, _ = practice_table(PracticeOptions(), table_id="t1")
    store = _Flaky()
    saver = TableSaver(config, clock=lambda: 1000.0)
    states = _states(config.rules)
    for i, state in enumerate(states):
        await saver.save(store, state)
        handed = store.handed[-1]
        if i == 0 or state.finished:
            assert handed.journal is None  # whole: the first save, and a finished game
        else:
            assert handed.journal is not None and len(handed.journal.lines) <= 9
        back = await store.get("t1")
        assert back is not None
        whole = GameRecord.from_game(state.game, state.seeds, state.client_seeds).to_json()
        assert back.record == whole and back.version == state.version
        assert back.meta == {"config": config.to_json(), **state.meta}
        assert back.status == (FINISHED if state.finished else PLAYING)
        assert back.updated_at == 1000.0


async def test_a_failed_save_makes_the_next_one_whole() -> None:
    config, _ = practice_table(PracticeOptions(), table_id="t2")
    store = _Flaky()
    saver = TableSaver(config)
    states = _states(config.rules)
    await saver.save(store, states[0])
    await saver.save(store, states[1])
    assert store.handed[-1].journal is not None
    store.down = True
    with pytest.raises(ConnectionError):
        await saver.save(store, states[2])
    store.down = False
    await saver.save(store, states[3])
    assert store.handed[-1].journal is None  # where the stored record ends was forgotten
    back = await store.get("t2")
    assert back is not None and back.record == GameRecord.from_game(
        states[3].game, states[3].seeds, states[3].client_seeds).to_json()


async def test_the_whole_table_for_a_copy_and_the_save_after_it() -> None:
    config, _ = practice_table(PracticeOptions(), table_id="t3")
    store = _Flaky()
    saver = TableSaver(config)
    states = _states(config.rules)
    await saver.save(store, states[0])
    whole = saver.whole(states[1])
    assert whole.meta_text is None and whole.journal is None  # other meta may be put in
    assert whole.record == GameRecord.from_game(states[1].game, states[1].seeds,
                                                states[1].client_seeds).to_json()
    await saver.save(store, states[2])
    assert store.handed[-1].journal is None  # after a whole copy, the next save is whole


def test_the_pause_after_failed_saves_doubles_up_to_its_most() -> None:
    retry = Retry()
    assert retry.at == float("-inf") and retry.failures == 0
    pauses = []
    for _ in range(8):
        retry.failed(100.0)
        pauses.append(retry.at - 100.0)
    assert pauses[:3] == [RETRY_FIRST, RETRY_FIRST * 2, RETRY_FIRST * 4]
    assert max(pauses) == RETRY_MOST and pauses == sorted(pauses)
    retry.succeeded()
    assert retry.at == float("-inf") and retry.failures == 0
    retry.failed(7.0)
    assert retry.at == 7.0 + RETRY_FIRST


async def test_a_change_of_settings_is_in_the_next_saves_text() -> None:
    """The computers' speed changes in the table's config (``extra``): the meta text the
    next save hands the store (which the SQL stores write) says the new speed."""
    config, _ = practice_table(PracticeOptions(), table_id="t4")
    store = _Flaky()
    saver = TableSaver(config)
    states = _states(config.rules)
    await saver.save(store, states[0])
    assert msgspec.json.decode(store.handed[-1].meta_text or "")["config"]["extra"] == {}
    config.extra["speed"] = "fast"
    saver.settings_changed()
    await saver.save(store, states[1])
    text = store.handed[-1].meta_text or ""
    assert msgspec.json.decode(text)["config"]["extra"] == {"speed": "fast"}
    assert msgspec.json.decode(text)["config"] == config.to_json()
