"""What a table is built from: :class:`TableDeps`, the things it runs with (clock, store,
its kind's parts, hooks), and :class:`Resumed`, where its game starts from (new, or as
stored). The manager and tests build these; :class:`~euchre.table.actor.actor.TableActor` takes
them."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...game import GameState
from ...shuffle import new_seed
from ...storage.base import GameStore
from .computers import BotFactory
from .kind import FinishHook, TableKind, TableObserver, TurnPolicy
from .pacing import Pacing, Scheduler

HISTORY_LIMIT = 64
"""Events kept per table for rejoining clients (at least 50): a rejoin is sent exactly the
events after its ``since`` while these hold them (and replaying keeps table law 11), else
a snapshot."""


@dataclass(frozen=True)
class TableDeps:
    """What a table is run with: its clock, its store, its kind's parts, its hooks (the
    manager builds one per table; tests build their own)."""

    scheduler: Scheduler
    """Where time comes from."""
    pacing: Pacing = field(default_factory=Pacing)
    """Bot delay and pauses."""
    store: GameStore | None = None
    """Where the game is saved, before any change is shown (None: nowhere)."""
    policy: TurnPolicy | None = None
    """Turn deadlines (None: none, as at practice tables)."""
    kind: TableKind | None = None
    """What this kind of table allows and does (None: the plain kind of its settings)."""
    on_finish: Sequence[FinishHook] = ()
    """Hooks called once when the game ends."""
    bot_factory: BotFactory | None = None
    """Makes the computer players (None: the standard ones)."""
    seed_source: Callable[[], str] = new_seed
    """Draws each hand's secret shuffle seed."""
    rng: random.Random | None = None
    """Draws the computers' jitter (None: a fresh one)."""
    observer: TableObserver | None = None
    """Told of moves, saves and bot decisions (the server's metrics)."""
    history_limit: int = HISTORY_LIMIT
    """Events kept for rejoining clients."""
    guard: Callable[[], bool] | None = None
    """While this says False the table handles no input (this process lost the right to
    run it; None: always runs)."""
    on_stale: Callable[[str], None] | None = None
    """Told the table's id once when a newer owner's fence refused a save (None: the
    actor stops itself)."""
    pace_for: Callable[[str], Pacing] | None = None
    """The pacing at a speed chosen at the table (None: the speed cannot be changed)."""


@dataclass(frozen=True)
class Resumed:
    """Where a table starts from: a game under way (as stored), or a new one."""

    game: GameState | None = None
    """The game so far (None: a new game, not dealt)."""
    seeds: Sequence[str] = ()
    """The shuffle seed of each hand dealt ("" for a set deal)."""
    client_seeds: Sequence[dict[int, str]] = ()
    """The people's seeds mixed into each hand dealt."""
    shuffle: dict[str, Any] | None = None
    """The next hand's seed and the people's seeds sent for it, as saved."""
    version: int = 0
    """The version of the last event."""
    replaced: dict[int, str] | None = None
    """Seats a computer took from their person, and why."""
    seen: Sequence[int] = ()
    """Seats whose person has connected."""
    away_left: dict[int, float] | None = None
    """Each away person's grace left when saved (seconds)."""
