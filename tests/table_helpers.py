"""Helpers for the server tests: a recording subscriber, a deterministic table, a driver
that moves fake time until a person must act, and the cards a seat may see."""

from __future__ import annotations

import copy
import itertools
import json
import random
from collections.abc import Callable
from typing import Any

import msgspec

from euchre import actions as A
from euchre.bots import make
from euchre.cards import card_text
from euchre.game import GameState
from euchre.storage import GameStore, MemoryStore
from euchre.table.actor.actor import TableActor, TableDeps
from euchre.table.actor.delta import Folder
from euchre.table.actor.fanout import Outgoing
from euchre.table.actor.pacing import ManualScheduler, Pacing
from euchre.table.hosting.manager import TableManager
from euchre.table.kinds.practice import PracticeOptions, practice_table
from folding import folded, json_copy

CARD_TEXTS = {card_text(c): c for c in range(25)}
"""Every card's text (the joker included)."""


def seeds(prefix: str = "test") -> Callable[[], str]:
    """A deterministic seed source."""
    counter = itertools.count()
    return lambda: f"{prefix}-{next(counter)}"


def fixed_bots(level: str, seed: int | None) -> Any:
    """Computer players with a fixed seed, so games repeat."""
    return make(level, 7)


class Recorder:
    """A subscriber that keeps every message, with the game at the moment it was sent."""

    def __init__(self, seat: int | None, actor: TableActor | None = None) -> None:
        """A recorder for ``seat`` (set ``actor`` to remember the game at each message)."""
        self.seat = seat
        self.actor = actor
        self.messages: list[dict[str, Any]] = []
        self.folder = Folder()  # the table as a client folds it from the messages
        self.tables: list[dict[str, Any] | None] = []
        """The folded table after each message (None before the first snapshot)."""
        self.games: list[GameState | None] = []

    def send(self, message: Outgoing | dict[str, Any]) -> None:
        """Keep the message as a client gets it (its JSON text, decoded;
        a test may hand it plain data too, to check a scan)."""
        text = message.text if isinstance(message, Outgoing) else json.dumps(message)
        # Folded as a client folds it: a snapshot or event gets "table", the table so far
        # (tests/folding.py; a rejoin with ``since`` and no table yet: not folded).
        decoded = folded(self.folder, json.loads(text))
        self.messages.append(decoded)
        self.tables.append(json_copy(self.folder.table))
        self.games.append(self.actor.game if self.actor is not None else None)

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        """The messages of one type."""
        return [m for m in self.messages if m["type"] == kind]

    def events(self) -> list[dict[str, Any]]:
        """The event messages."""
        return self.of_type("event")

    def last_table(self) -> dict[str, Any]:
        """The table as folded from every message so far (a copy)."""
        assert self.folder.table is not None
        return copy.deepcopy(self.folder.table)

    def table_messages(self) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        """(message, the folded table right after it) of each snapshot and event."""
        return [(m, t) for m, t in zip(self.messages, self.tables, strict=True)
                if t is not None and m["type"] in ("snapshot", "event")]


def comparable(x: Any) -> Any:
    """A table as JSON, for comparing a folded one with one sent whole: a null field and
    an absent one are the same, and ``clock_played`` (a snapshot's own) is left out."""
    if isinstance(x, dict):
        return {k: comparable(v) for k, v in x.items()
                if v is not None and k != "clock_played"}
    if isinstance(x, list):
        return [comparable(v) for v in x]
    return x


def same_table(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two tables are the same (:func:`comparable`), the time-left fields aside
    when they were drawn at different moments."""
    return bool(comparable(a) == comparable(b))


def make_table(
    *, preset: str = "classic", level: str = "medium", rules: dict[str, Any] | None = None,
    store: GameStore | None = None, scheduler: ManualScheduler | None = None,
    pacing: Pacing | None = None, first_dealer: int = 0, prefix: str = "test",
    table_id: str = "t1",
) -> tuple[TableActor, str, ManualScheduler]:
    """A practice table (not started) with fake time; returns (actor, token, scheduler)."""
    options = PracticeOptions(preset, rules or {}, level, level, level)
    config, token = practice_table(options, table_id=table_id, token="secret",
                                   first_dealer=first_dealer)
    sched = scheduler or ManualScheduler()
    actor = TableActor(config, TableDeps(scheduler=sched, pacing=pacing or Pacing(0.5, 2.0),
                       store=store if store is not None else MemoryStore(),
                       bot_factory=fixed_bots, seed_source=seeds(prefix)))
    return actor, token, sched


def make_manager(store: GameStore, sched: ManualScheduler, prefix: str = "test") -> TableManager:
    """A manager with fake time, fixed bots and deterministic seeds."""
    return TableManager(store, sched, Pacing(0.5, 2.0), bot_factory=fixed_bots,
                        seed_source=seeds(prefix))


async def until_person(actor: TableActor, sched: ManualScheduler, seat: int = 0) -> bool:
    """Move fake time until ``seat`` must act (True) or the game is over (False)."""
    while True:
        await actor.settle()
        if actor.game.is_over:
            return False
        if actor.game.to_act == seat:
            return True
        due = sched.next_due()
        assert due is not None, "nothing is due but nobody is to act"
        sched.advance(due - sched.now())


async def play_game(actor: TableActor, sched: ManualScheduler, rng: random.Random,
                    on_turn: Callable[[], Any] | None = None) -> int:
    """Play the person's seat with random legal moves to the end; returns the moves made."""
    moves = 0
    while await until_person(actor, sched):
        view = actor.view(0)
        assert view is not None
        if on_turn is not None:
            await on_turn()
        await actor.act(0, str(rng.choice(view.legal)))
        moves += 1
    return moves


def cards_in(message: Any) -> set[int]:
    """Every card named anywhere in a message (as a whole word of any string, key or
    value)."""
    found: set[int] = set()
    # A loop over a stack, not a recursive walk: the law-11 scans call this for every
    # message of whole games, and the calls were most of their time.
    stack = [message]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            if x in CARD_TEXTS:
                found.add(CARD_TEXTS[x])
            elif " " in x or "," in x or not x.isprintable():  # more than one word
                for word in x.replace(",", " ").split():
                    if word in CARD_TEXTS:
                        found.add(CARD_TEXTS[word])
        elif isinstance(x, dict):
            stack.extend(x)
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return found


def visible_cards(game: GameState, seat: int) -> set[int]:
    """Every card ``seat`` has been allowed to see so far, from the engine's full state:
    its own cards (as dealt and as now held, and the kitty cards it took in a farmer's swap,
    which it may have discarded since), each upcard, and every card played."""
    seen: set[int] = set()
    for hand in game.all_hands():
        seen.update(hand.deal.hands[seat])
        seen.update(hand.hand(seat))
        if any(s == seat and a.kind == A.FARMER_SWAP for s, a in hand.history()):
            seen.update(hand.deal.kitty[1:4])  # the three it took from under the upcard
        seen.add(hand.upcard)
        for _, cards, _ in hand.tricks:
            seen.update(cards)
        seen.update(hand.trick[1])
    return seen


class StandInTable(msgspec.Struct):
    """A drawn table's stand-in, for tests of the actor's parts that only count what is
    shown and to whom: its table, seat and version, and no public view (so the observer
    draws every move whole, never taking a plain move's shortcut)."""

    table_id: str
    seat: int | None
    version: int
    view: None = None
