"""The computers at a table: one for each bot seat, a move worked out from the start of a
turn and taken when due (never worked out twice), stale thinking dropped, a fresh computer
for a person out of time, and a computer that takes a seat decides the same after a
restart.

Computer moves are published at the table's pace, never when their thinking ends: over
whole games on a fake clock, a two-sample Kolmogorov–Smirnov test cannot tell the publish
delays of forced moves (one legal card) from those of free ones (a choice), although the
computer takes far longer to think when it has a choice."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import itertools
import json
import math
import random
import threading
from typing import Any

import pytest

from euchre.actions import Action
from euchre.bots import make
from euchre.game import GameState
from euchre.hand import HandState
from euchre.rules import Rules
from euchre.shuffle import deck_from_seed
from euchre.storage import MemoryStore
from euchre.table.actor.actor import TableActor, TableDeps
from euchre.table.actor.computers import JITTER_STEP, Computers, jittered
from euchre.table.actor.fanout import Outgoing
from euchre.table.actor.kind import TableObserver
from euchre.table.actor.pacing import ManualScheduler, Pacing
from euchre.table.actor.seats import BOT, HUMAN, Seat, TableConfig
from euchre.table.kinds.coin import CoinTurnPolicy, coin_table
from euchre.table.kinds.online import OnlineOptions, online_policy
from euchre.table.kinds.practice import PracticeOptions, practice_table
from euchre.view import HandView
from online_registry import MemoryOnlineTables


class _Bot:
    def __init__(self, level: str, seed: int | None, log: list[tuple[str, int | None]]) -> None:
        self.level, self.seed, self.log = level, seed, log

    def choose(self, view: HandView) -> Action:
        self.log.append((self.level, self.seed))
        return view.legal[0]


class _Observer(TableObserver):
    def __init__(self) -> None:
        self.decided: list[str] = []

    def bot_decided(self, level: str, seconds: float) -> None:
        assert seconds >= 0
        self.decided.append(level)


def _table() -> tuple[Computers, list[Any], list[tuple[str, int | None]], _Observer]:
    made: list[Any] = []
    chose: list[tuple[str, int | None]] = []

    def factory(level: str, seed: int | None) -> Any:
        bot = _Bot(level, seed, chose)
        made.append(bot)
        return bot

    observer = _Observer()
    seats = [Seat(HUMAN, "Ann"), Seat(BOT, "West", "easy", 11), Seat(HUMAN, "Bo"),
             Seat(BOT, "East", "medium", 13)]
    return Computers(factory, observer, seats), made, chose, observer


def _hand() -> HandState:
    game = GameState(Rules(), 0).deal(deck_from_seed("ab" * 32))
    assert game.current is not None
    return game.current


def _view(seat: int) -> HandView:
    return _hand().view(seat)


def test_a_computer_for_each_bot_seat_only() -> None:
    computers, made, _, _ = _table()
    assert sorted(computers.bots) == [1, 3] and len(made) == 2
    assert [(b.level, b.seed) for b in made] == [("easy", 11), ("medium", 13)]
    assert computers.plays(1) and not computers.plays(0)


async def test_the_move_thought_ahead_is_taken_when_due_and_not_worked_out_again() -> None:
    computers, made, chose, observer = _table()
    view = _view(1)
    computers.think_ahead(computers.bots[1], "easy", _hand(), 5, 1)
    await computers.settled()
    asked: list[int] = []

    def look() -> HandView:
        asked.append(1)
        return view

    action = await computers.move(computers.bots[1], "easy", look, 5, 1)
    assert action == view.legal[0]
    assert chose == [("easy", 11)] and asked == [] and len(made) == 2  # once, no new bot
    assert observer.decided == ["easy"] and computers.thinking is None


async def test_thinking_for_another_turn_is_dropped_and_the_move_worked_out_now() -> None:
    computers, made, chose, observer = _table()
    computers.think_ahead(computers.bots[3], "medium", _hand(), 5, 3)
    stale = computers.thinking
    assert stale is not None
    view = _view(1)
    action = await computers.move(computers.bots[1], "easy", lambda: view, 6, 1)
    assert action == view.legal[0] and ("easy", 11) in chose
    await asyncio.sleep(0)  # the cancelled task ends at its next turn of the loop
    assert stale.task.cancelled()
    assert ("medium", 13) not in chose  # the stale turn's computer never chose
    # A person out of time: a fresh computer of the clock's level, from the seat's seed.
    action = await computers.move(None, "hard", lambda: _view(1), 7, 1, seed=99)
    assert made[-1].level == "hard" and made[-1].seed == 99 and chose[-1] == ("hard", 99)
    assert "hard" in observer.decided


async def test_drop_cancels_the_thinking() -> None:
    computers, _, _, _ = _table()
    computers.think_ahead(computers.bots[1], "easy", _hand(), 1, 1)
    thinking = computers.thinking
    assert thinking is not None
    computers.drop()
    assert computers.thinking is None
    await asyncio.sleep(0)
    assert thinking.task.done()
    await computers.settled()  # nothing to wait for


def test_a_computer_takes_a_seat_the_same_way_each_time_and_gives_it_back() -> None:
    first, made_first, _, _ = _table()
    again, made_again, _, _ = _table()
    first.take_over("table-1", 2, "medium")
    again.take_over("table-1", 2, "medium")
    assert first.plays(2) and made_first[-1].seed == made_again[-1].seed
    assert made_first[-1].level == "medium"
    other, made_other, _, _ = _table()
    other.take_over("table-2", 2, "medium")
    assert made_other[-1].seed != made_first[-1].seed
    first.give_back(2)
    assert not first.plays(2)
    first.give_back(2)  # already given back: nothing happens


async def test_a_forced_move_is_the_one_legal_action_without_a_view() -> None:
    observer = _Observer()
    seats = [Seat(BOT, f"S{i}", "medium", i) for i in range(4)]
    computers = Computers(make, observer, seats)
    game = GameState(Rules(), 0).deal(deck_from_seed("cd" * 32))
    forced = free = 0
    step = 0
    while not game.is_over and not game.needs_deal:  # one whole hand among computers
        hand = game.current
        assert hand is not None and hand.to_act is not None
        seat = hand.to_act
        view = hand.view(seat)
        computers.think_ahead(computers.bots[seat], "medium", hand, step, seat)
        thinking = computers.thinking
        assert thinking is not None
        if len(view.legal) == 1:
            forced += 1
            assert thinking.task.done()  # answered at once, no view built for it
        else:
            free += 1
            assert not thinking.task.done()  # chosen on the loop's next turn
        action = await computers.move(computers.bots[seat], "medium", lambda v=view: v, step,
                                      seat)
        # the same move a medium player chooses from the seat's own view
        assert action == make("medium", seat).choose(view)
        game = game.apply(action, seat=seat)
        step += 1
    assert forced >= 1 and free >= 1, (forced, free)
    assert len(observer.decided) == step  # every decision told, forced ones too


def ks_statistic(a: list[float], b: list[float]) -> float:
    """The two-sample Kolmogorov–Smirnov statistic: the largest gap between the samples'
    empirical distribution functions."""
    xs, ys = sorted(a), sorted(b)
    i = j = 0
    gap = 0.0
    while i < len(xs) and j < len(ys):
        x = min(xs[i], ys[j])
        while i < len(xs) and xs[i] == x:
            i += 1
        while j < len(ys) and ys[j] == x:
            j += 1
        gap = max(gap, abs(i / len(xs) - j / len(ys)))
    return gap


def ks_critical(n: int, m: int, alpha: float = 0.01) -> float:
    """The statistic above which two samples of sizes ``n`` and ``m`` differ at ``alpha``
    (the large-sample approximation)."""
    return math.sqrt(-math.log(alpha / 2) / 2) * math.sqrt((n + m) / (n * m))


def test_the_statistic_tells_different_samples_apart_and_not_alike_ones() -> None:
    rng = random.Random(5)
    a = [rng.random() for _ in range(400)]
    b = [rng.random() for _ in range(300)]
    c = [0.1 + rng.random() for _ in range(300)]
    assert ks_statistic(a, b) < ks_critical(400, 300)
    assert ks_statistic(a, c) > ks_critical(400, 300)
    assert ks_statistic([1.0, 2.0], [1.0, 2.0]) == 0.0
    assert ks_statistic([1.0], [2.0]) == 1.0


def test_jitter_is_a_small_exact_stretch_of_the_delay() -> None:
    rng = random.Random(1)
    delays = [jittered(0.5, rng, 0.15) for _ in range(1000)]
    assert all(0.5 <= d < 0.575 for d in delays)
    assert all((d - 0.5) / JITTER_STEP == int((d - 0.5) / JITTER_STEP) for d in delays)
    assert len(set(delays)) > 50
    assert jittered(0.0, rng, 0.15) == 0.0


class ThinkingBot:
    """A computer whose thinking takes fake time: a few ms for a forced move, 50–120 ms for
    a choice (as the hard player at a coin table did), then a random legal move."""

    def __init__(self, sched: ManualScheduler, loop: asyncio.AbstractEventLoop,
                 seed: int, log: list[tuple[int, bool]]) -> None:
        self.sched = sched
        self.loop = loop
        self.rng = random.Random(seed)
        self.log = log

    def choose(self, view: HandView) -> Action:
        """Think (move the fake clock on, as real thinking moves the real one), then move."""
        forced = len(view.legal) == 1
        follow = view.phase == "play" and bool(view.trick)
        # bids, discards and leads (-1) are left out of the comparison: only follows can be
        # forced or free
        self.log.append((view.seat, forced) if follow else (-1, False))
        think = 0.005 if forced else 0.05 + 0.07 * self.rng.random()
        if threading.current_thread() is threading.main_thread():
            self.sched.advance(think)
        else:  # a slow level thinks in a worker thread: move the clock on the loop's thread
            done = threading.Event()

            def advance() -> None:
                self.sched.advance(think)
                done.set()

            self.loop.call_soon_threadsafe(advance)
            done.wait()
        return self.rng.choice(view.legal)


class Watcher:
    """A subscriber that notes the fake time of each event it receives."""

    def __init__(self, sched: ManualScheduler) -> None:
        self.seat: int | None = 0
        self.sched = sched
        self.events: list[tuple[float, dict[str, Any]]] = []

    def send(self, message: Outgoing) -> None:
        """Note the event and when it came."""
        data = json.loads(message.text)
        if data["type"] == "event":
            self.events.append((self.sched.now(), data["event"]))


def config_of(kind: str, game: int) -> tuple[TableConfig, Any]:
    """A table of ``kind`` with a person South and computers elsewhere, and its policy."""
    if kind == "practice":
        config, _ = practice_table(PracticeOptions(), table_id=f"p{game}", first_dealer=game % 4)
        return config, None
    if kind == "coin":
        config, _ = coin_table(f"c{game}", "alice", 10, token="t", first_dealer=game % 4)
        return config, CoinTurnPolicy(config)
    registry = MemoryOnlineTables(now=lambda: 0.0)
    opened, ann = registry.create(OnlineOptions(name="Ann"), table_id=f"o{game}")
    registry.start(opened.id, ann)
    config = opened.config(first_dealer=game % 4)
    return config, online_policy(config)


async def play_one(kind: str, game: int, bot_delay: float
                   ) -> tuple[list[tuple[float, dict[str, Any]]], list[tuple[int, bool]]]:
    """One whole game, South playing at random and at once: the events with their times,
    and each computer thought as (seat, forced) in order (seat -1: not a follow)."""
    sched = ManualScheduler()
    log: list[tuple[int, bool]] = []
    loop = asyncio.get_running_loop()
    config, policy = config_of(kind, game)
    seeds = itertools.count()
    actor = TableActor(
        config, TableDeps(scheduler=sched, pacing=Pacing(bot_delay, 2.0), store=MemoryStore(),
        policy=policy, rng=random.Random(game),
        bot_factory=lambda level, seed: ThinkingBot(sched, loop, seed or 0, log),
        seed_source=lambda: f"timing-{kind}-{game}-{next(seeds)}"))
    watcher = Watcher(sched)
    person = random.Random(game)
    actor.start()
    await actor.join(watcher)
    await play_out(actor, sched, person, threads=True)
    await actor.stop()
    return watcher.events, log


async def play_out(actor: TableActor, sched: ManualScheduler, person: random.Random,
                   threads: bool = False) -> None:
    """Play ``actor``'s game to its end on the fake clock: the person (seat 0) makes a
    random legal move whenever asked; else the clock moves to the next timer (with
    ``threads``, once a computer's thought in a worker thread has finished)."""
    while True:
        await actor.settle()
        if actor.game.is_over:
            return
        if actor.game.to_act == 0:
            view = actor.view(0)
            assert view is not None
            await actor.act(0, str(person.choice(view.legal)))
            continue
        # A thought in a worker thread moves the fake clock on when the thread gets to it:
        # let it finish before the clock is moved to the next timer, whatever the machine's
        # load (else a busy machine's late thread adds its thinking after the pause).
        thinking = actor._computers.thinking if threads else None
        if thinking is not None and not thinking.task.done():
            await asyncio.wait([thinking.task])
            continue
        due = sched.next_due()
        assert due is not None
        sched.advance(due - sched.now())


async def publish_delays(kind: str, games: int, bot_delay: float
                         ) -> tuple[list[float], list[float]]:
    """Over whole games, the delays from the previous event to each computer's follow,
    for forced and for free ones."""
    forced: list[float] = []
    free: list[float] = []
    for game in range(games):
        events, log = await play_one(kind, game, bot_delay)
        moves = [(t, e) for t, e in events if e["kind"] == "action" and e["seat"] != 0]
        assert len(moves) == len(log), "one thought per computer move"
        times = [t for t, _ in events]
        for (t, event), (seat, is_forced) in zip(moves, log, strict=True):
            if seat < 0:
                continue
            assert seat == event["seat"]
            before = max(p for p in times if p < t)
            (forced if is_forced else free).append(t - before)
    return forced, free


@pytest.mark.parametrize("kind", ["practice", "coin", "online"])
async def test_forced_and_free_computer_moves_are_published_alike(kind: str) -> None:
    forced, free = await publish_delays(kind, games=4, bot_delay=0.5)
    assert len(forced) >= 40 and len(free) >= 40, (len(forced), len(free))
    d = ks_statistic(forced, free)
    assert d < ks_critical(len(forced), len(free)), (d, len(forced), len(free))
    # moves come at the table's pace, with its jitter, whatever the thinking took (in one
    # whole-suite run a few came outside the window, not reproduced alone: see the note in
    # docs/server.md; the test above is what tells forced from free)
    outside = sorted(x for x in forced + free if not 0.5 <= x < 0.575)
    assert len(outside) <= 0.05 * len(forced + free), outside


async def test_the_same_measurement_tells_them_apart_when_moves_come_as_thinking_ends() -> None:
    # With no pacing delay a move is published as soon as it is worked out: the thinking
    # time shows, and the test above would catch it.
    forced, free = await publish_delays("practice", games=2, bot_delay=0.0)
    assert ks_statistic(forced, free) > ks_critical(len(forced), len(free))


async def fixed_game_actions(preset: str, levels: tuple[str, str, str], game: int) -> str:
    """One whole practice game with fixed seeds (the computers', the deals', the person's
    random moves) on a fake clock: every action of every hand, in order, as text."""
    options = PracticeOptions(preset=preset, left=levels[0], partner=levels[1],
                              right=levels[2])
    config, _ = practice_table(options, table_id=f"f{game}", first_dealer=game % 4)
    s0, s1, s2, s3 = (dataclasses.replace(s, bot_seed=1000 * game + i) if s.is_bot() else s
                      for i, s in enumerate(config.seats))
    config = dataclasses.replace(config, seats=(s0, s1, s2, s3))
    sched = ManualScheduler()
    seeds = itertools.count()
    actor = TableActor(config, TableDeps(
        scheduler=sched, pacing=Pacing(0.5, 2.0), store=MemoryStore(), rng=random.Random(game),
        seed_source=lambda: f"fixed-{preset}-{game}-{next(seeds)}"))
    actor.start()
    await play_out(actor, sched, random.Random(game))
    await actor.stop()
    return "|".join(";".join(f"{s}{a}" for s, a in hand.history())
                    for hand in actor.game.all_hands())


FIXED_GAMES = "50ef43669056a72f"
"""The digest of :func:`fixed_game_actions` over the games of the test below, as the
computers played them before their hot path was made cheaper (367bfc2): a change that
makes a computer decide otherwise changes it."""


async def test_whole_games_with_fixed_seeds_play_the_same_moves() -> None:
    digest = hashlib.sha256()
    for preset in ("classic", "canadian", "kitchen-table", "benny"):
        for game, levels in enumerate([("medium",) * 3, ("easy", "random", "medium")]):
            digest.update((await fixed_game_actions(preset, levels, game)).encode())
    assert digest.hexdigest()[:16] == FIXED_GAMES
