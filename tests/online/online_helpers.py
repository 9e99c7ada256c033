"""An online table with two people (Ann South, Bob West) on a fake clock, scripted computers."""

from __future__ import annotations

import itertools
import json
from typing import Any

from euchre import actions as A
from euchre.actions import Action
from euchre.cards import card_text
from euchre.game import GameState
from euchre.table.actor.actor import TableActor, TableDeps
from euchre.table.actor.delta import Folder
from euchre.table.actor.fanout import Outgoing
from euchre.table.actor.kind import TableKind
from euchre.table.actor.pacing import ManualScheduler, Pacing
from euchre.table.kinds.online import ONLINE_KIND, OnlineOptions, online_policy
from euchre.view import HandView
from folding import folded, json_copy
from online_registry import MemoryOnlineTables

CARD_TEXTS = {card_text(c): c for c in range(25)}
"""Card notation -> card, the joker included."""


class ScriptBot:
    """Orders up (never alone), names the first suit it may, else its first legal action."""

    def __init__(self, level: str, log: list[str]) -> None:
        self.level = level
        self.log = log

    def choose(self, view: HandView) -> Action:
        """A fixed choice, logged with the level that made it."""
        self.log.append(self.level)
        legal = view.legal_actions()
        for a in legal:
            if a.kind in (A.ORDER, A.CALL) and not a.alone:
                return a
        return legal[0]


class Recorder:
    """A subscriber that keeps every message with the game at the moment it was sent."""

    def __init__(self, seat: int, actor: TableActor) -> None:
        self.seat: int | None = seat
        self.actor = actor
        self.messages: list[dict[str, Any]] = []
        self.folder = Folder()  # the table as a client folds it from the messages
        self.tables: list[dict[str, Any] | None] = []
        """The folded table after each message (None before the first snapshot)."""
        self.games: list[GameState] = []

    def send(self, message: Outgoing | dict[str, Any]) -> None:
        """Keep it as a browser gets it (its JSON text, decoded;
        a test may hand it plain data too, to check a scan)."""
        text = message.text if isinstance(message, Outgoing) else json.dumps(message)
        # Folded as a client folds it: a snapshot or event gets "table", the table so far
        # (tests/folding.py; a rejoin with ``since`` and no table yet: not folded).
        decoded = folded(self.folder, json.loads(text))
        self.messages.append(decoded)
        self.tables.append(json_copy(self.folder.table))
        self.games.append(self.actor.game)

    def events(self) -> list[dict[str, Any]]:
        """The events received."""
        return [m["event"] for m in self.messages if m["type"] == "event"]


def cards_in(message: Any) -> set[int]:
    """Every card named anywhere in a message (as a whole word of any string)."""
    found: set[int] = set()

    def walk(x: Any) -> None:
        if isinstance(x, str):
            found.update(CARD_TEXTS[w] for w in x.replace(",", " ").split() if w in CARD_TEXTS)
        elif isinstance(x, dict):
            for k, v in x.items():
                walk(k)
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(message)
    return found


def visible_cards(game: GameState, seat: int) -> set[int]:
    """Cards ``seat`` may have seen so far: its own, each upcard, every card played."""
    seen: set[int] = set()
    for hand in game.all_hands():
        seen.update(hand.deal.hands[seat])
        seen.update(hand.hand(seat))
        seen.add(hand.upcard)
        for _, cards, _ in hand.tricks:
            seen.update(cards)
        seen.update(hand.trick[1])
    return seen


class Table:
    """Ann (South, the creator) and Bob (West) at an online table with a 30 s clock."""

    def __init__(self, seconds: float = 30.0, kind: TableKind = ONLINE_KIND) -> None:
        self.registry = MemoryOnlineTables(now=lambda: 0.0)
        opened, self.ann = self.registry.create(
            OnlineOptions(seconds_per_move=seconds, name="Ann"), table_id="on1")
        self.bob = self.registry.claim(opened.id, 1, "Bob")
        self.registry.start(opened.id, self.ann)
        self.config = opened.config(first_dealer=3)
        self.levels: list[str] = []
        self.scheduler = ManualScheduler()
        counter = itertools.count()
        self.actor = TableActor(
            self.config, TableDeps(
                scheduler=self.scheduler, pacing=Pacing(bot_delay=1.0, hand_pause=2.0),
                policy=online_policy(self.config), kind=kind,
                bot_factory=lambda level, seed: ScriptBot(level, self.levels),
                seed_source=lambda: f"online-{next(counter)}"))

    async def step(self) -> None:
        """Handle what is queued, then move fake time to the next timer."""
        await self.actor.settle()
        due = self.scheduler.next_due()
        assert due is not None, "the table stopped"
        self.scheduler.advance(due - self.scheduler.now())
        await self.actor.settle()

    async def until_person(self) -> int | None:
        """Run computers and deals until a person must act; that seat (None: game over)."""
        for _ in range(500):
            await self.actor.settle()
            seat = self.actor.game.to_act
            if self.actor.game.is_over:
                return None
            if seat in (0, 1):
                return seat
            await self.step()
        raise AssertionError("no person got a turn")
