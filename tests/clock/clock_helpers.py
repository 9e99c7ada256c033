"""A coin table on a fake clock, with scripted computer players, for the clock tests."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from typing import Any

from msgspec import to_builtins

from euchre import actions as A
from euchre.actions import Action
from euchre.storage.memory import MemoryStore
from euchre.table.actor.actor import TableActor, TableDeps
from euchre.table.actor.fanout import Outgoing
from euchre.table.actor.pacing import ManualScheduler, Pacing
from euchre.table.kinds.clock import ClockPolicy
from euchre.table.kinds.coin import CoinTurnPolicy, coin_table
from euchre.view import HandView

TOKEN = "the-token"
"""South's seat token."""


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


@dataclass
class Recorder:
    """A subscriber that keeps every message."""

    seat: int | None = 0
    messages: list[dict[str, Any]] = field(default_factory=list)

    def send(self, message: Outgoing) -> None:
        """Keep it as a client gets it (its JSON text, decoded)."""
        self.messages.append(json.loads(message.text))

    def events(self) -> list[dict[str, Any]]:
        """The events received."""
        return [m["event"] for m in self.messages if m["type"] == "event"]


class Harness:
    """A coin table with South played by the test, on a :class:`ManualScheduler`."""

    def __init__(self, first_dealer: int = 3, clock: ClockPolicy | None = None,
                 store: MemoryStore | None = None) -> None:
        self.levels: list[str] = []
        self.scheduler = ManualScheduler()
        self.store = store or MemoryStore()
        self.config, _ = coin_table("t1", "alice", 10, token=TOKEN, first_dealer=first_dealer)
        self.clock = clock
        seeds = itertools.count()
        self.seed_source = lambda: f"seed-{next(seeds)}"
        self.actor = TableActor(self.config, TableDeps(**self.kwargs()))

    def kwargs(self) -> dict[str, Any]:
        """The actor's arguments (also for restoring it)."""
        return {
            "scheduler": self.scheduler,
            "pacing": Pacing(bot_delay=1.0, hand_pause=2.0),
            "store": self.store,
            "policy": CoinTurnPolicy(self.config, self.clock),
            "bot_factory": lambda level, seed: ScriptBot(level, self.levels),
            "seed_source": self.seed_source,
        }

    async def run_for(self, seconds: float) -> None:
        """Let ``seconds`` pass, handling everything that falls due on the way."""
        target = self.scheduler.now() + seconds
        while True:
            await self.actor.settle()
            due = self.scheduler.next_due()
            if due is None or due > target:
                break
            self.scheduler.advance(due - self.scheduler.now())
        await self.actor.settle()
        self.scheduler.advance(target - self.scheduler.now())

    async def to_person_turn(self) -> None:
        """Run the table until it is South's turn."""
        for _ in range(200):
            await self.actor.settle()
            if self.actor.game.to_act == 0:
                return
            due = self.scheduler.next_due()
            assert due is not None, "the table stopped"
            self.scheduler.advance(due - self.scheduler.now())
        raise AssertionError("South never got a turn")

    def clock_json(self) -> dict[str, Any]:
        """South's clock in the table snapshot."""
        clock = to_builtins(self.actor.snapshot(0))["clock"]
        assert clock is not None and clock["seat"] == 0
        return dict(clock)

    @property
    def hand_number(self) -> int:
        """The hand being played (from 1)."""
        return len(self.actor.game.all_hands())

    @property
    def phase(self) -> str:
        """The current hand's phase."""
        current = self.actor.game.current
        assert current is not None
        return current.phase_name

    async def miss(self) -> tuple[int, str, float]:
        """Let South's clock run out; (hand number, phase, seconds allowed)."""
        await self.to_person_turn()
        hand, phase = self.hand_number, self.phase
        allowed = self.clock_json()["move_ms"] / 1000
        before = len(self.actor.game.current.history())  # type: ignore[union-attr]
        await self.run_for(allowed - 0.001)
        assert self.actor.game.to_act == 0, "played before the clock ran out"
        await self.run_for(0.002)
        if self.hand_number == hand:
            history = self.actor.game.current.history()  # type: ignore[union-attr]
            assert len(history) > before and history[before][0] == 0, (before, history)
        return hand, phase, allowed

    async def move(self) -> tuple[int, str, float]:
        """South moves (the first legal action) with most of the clock left."""
        await self.to_person_turn()
        hand, phase = self.hand_number, self.phase
        allowed = self.clock_json()["move_ms"] / 1000
        await self.run_for(allowed / 2)
        view = self.actor.view(0)
        assert view is not None
        await self.actor.act(0, str(view.legal_actions()[0]))
        return hand, phase, allowed
