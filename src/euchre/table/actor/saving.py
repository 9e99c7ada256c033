"""Saving a table: what a save writes, and when to try again after one fails.

A table is saved before any change is shown (save, then show). :class:`TableSaver`
writes the table's meta and its record's lines added since its last save (the
:class:`~euchre.table.actor.journal.RecordJournal` knows how much is stored), or the record
whole when that is not known; the settings are encoded once. :class:`Retry` says how long
a table waits before what is due (a computer's move, the clock, the next deal) is tried
again after saves failed in a row.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec

from ...game import GameState
from ...storage.base import FINISHED, PLAYING, GameStore, StoredGame
from ...storage.journal import RecordTail
from .journal import Mark, RecordJournal, lines_since, mark_of
from .records import game_record
from .seats import TableConfig

RETRY_FIRST = 0.25
"""Seconds before a computer's or the clock's move is tried again after a failed save."""
RETRY_MOST = 5.0
"""The longest pause between two tries (the pause doubles from :data:`RETRY_FIRST`)."""

_ENCODER = msgspec.json.Encoder()  # stateless: encodes what a save writes


@dataclass(slots=True)
class TableState:
    """A table as a save writes it; read-only by convention (not frozen: one is made for
    every save, and a plain ``__init__`` is several times cheaper)."""

    game: GameState
    """The game now."""
    seeds: list[str]
    """The table's shuffle seed of each hand dealt."""
    client_seeds: list[dict[int, str]]
    """The people's seeds mixed into each hand dealt."""
    version: int
    """The version of the last event."""
    finished: bool
    """Whether the game is over or the table closed."""
    meta: dict[str, Any]
    """What the table keeps beside its record (its settings are added by the saver); built
    afresh for each save and not changed after (the saver keeps the last one it encoded,
    and encodes it again only when a new one differs)."""


def _encoded(config: TableConfig) -> tuple[dict[str, Any], msgspec.Raw]:
    """``config`` as JSON values, and as encoded JSON to put in a save's meta as it is."""
    json = config.to_json()
    return json, msgspec.Raw(_ENCODER.encode(json))


class TableSaver:
    """Writes one table to its store: its meta, and its record's new lines."""

    def __init__(self, config: TableConfig, clock: Callable[[], float] = time.time) -> None:
        """A saver of the table ``config``; ``clock`` gives the wall time saved with it."""
        self.config = config
        """The table's fixed settings."""
        self.clock = clock
        """The wall clock (seconds since the epoch), for ``updated_at``."""
        self.journal = RecordJournal()
        """How much of the record is stored."""
        self._config_json, self._config_raw = _encoded(config)  # again only if settings change
        self._meta_of: dict[str, Any] | None = None  # the table's meta last saved ...
        self._meta: dict[str, Any] = {}  # ... with the settings, and encoded:
        self._meta_text = ""  # unchanged meta (most moves) is not built or encoded again

    def settings_changed(self) -> None:
        """The config's changeable settings (``extra``) changed: the next save writes the
        settings as they are now."""
        self._config_json, self._config_raw = _encoded(self.config)
        self._meta_of = None

    def whole(self, state: TableState) -> StoredGame:
        """The table as storage keeps it, its record whole. The next save writes the
        record whole too (whether or not this one is saved), so the lines it appends after
        that always follow the record stored. Its meta is not pre-encoded, so a copy with
        other meta (``dataclasses.replace``) saves that meta."""
        self.journal.forget()
        return dataclasses.replace(self._stored(state, None), meta_text=None)

    def to_save(self, state: TableState) -> tuple[StoredGame, Mark]:
        """What the next save writes, and where the stored record ends once it is saved:
        the record's lines since the last save, or the record whole when where the store's
        copy ends is not known (or the game is over, so a finished game is read whole)."""
        mark = self.journal.mark
        if mark is None or (state.finished and mark.lines):
            return self._stored(state, None), mark_of(state.game)
        tail, after = lines_since(mark, state.game, state.seeds, state.client_seeds)
        return self._stored(state, tail), after

    async def save(self, store: GameStore, state: TableState) -> None:
        """Save ``state`` to ``store`` (its record's new lines); the journal knows them
        stored after, and forgets where the stored record ends if the save fails (then it
        raises)."""
        generation = self.journal.generation
        game, mark = self.to_save(state)
        try:
            await store.save(game)
        except BaseException:
            self.journal.forget()
            raise
        self.journal.saved(mark, generation)

    def _stored(self, state: TableState, tail: RecordTail | None) -> StoredGame:
        """The table to save: with ``tail``, only those lines of its record (appended to
        the stored ones), else its record whole."""
        now = self.clock()
        if state.meta != self._meta_of:
            self._meta = {"config": self._config_json, **state.meta}
            self._meta_text = _ENCODER.encode({"config": self._config_raw, **state.meta}).decode()
            self._meta_of = state.meta
        record: dict[str, Any] = {}
        record_text = None
        if tail is None:
            record = game_record(state.game, state.seeds, state.client_seeds).to_json()
            record_text = _ENCODER.encode(record).decode()
        config = self.config
        # By position, in the fields' order (id, kind, status, version, meta, record,
        # created_at, updated_at, fence, record_text, meta_text, journal): made for every
        # save, and a call by keyword costs twice as much.
        return StoredGame(config.id, config.kind, FINISHED if state.finished else PLAYING,
                          state.version, self._meta, record, config.created_at or now, now,
                          0, record_text, self._meta_text, tail)


class Retry:
    """When to try again after saves failed in a row: the pause doubles from
    :data:`RETRY_FIRST` up to :data:`RETRY_MOST`, and is over after a save succeeds."""

    def __init__(self) -> None:
        """No save has failed."""
        self.failures = 0
        """Saves failed in a row."""
        self.at = -math.inf
        """Nothing due is scheduled before this (scheduler time)."""

    def failed(self, now: float) -> None:
        """A save failed at ``now``: nothing is tried again for a pause that grows."""
        self.failures += 1
        self.at = now + min(RETRY_MOST, RETRY_FIRST * 2 ** (self.failures - 1))

    def succeeded(self) -> None:
        """A save succeeded (or there was nowhere to save): no pause."""
        self.failures = 0
        self.at = -math.inf
