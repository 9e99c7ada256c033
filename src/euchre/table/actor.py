"""One actor per table: every input goes through the table's own queue, one at a time.

Inputs are a person's move, a computer's move when its delay has passed, a turn
deadline, the next deal after the pause between hands, and people connecting or
leaving. Each handler calls the pure engine and produces versioned :class:`Event`s; each
subscriber gets every event with its own seat's snapshot. Time comes from an injected
:class:`~euchre.table.pacing.Scheduler`, so tests move time without sleeping.

With a store, a change is shown only once it is stored (save, then publish): the events a
handler makes are held, and the actor saves the table before it sends them to anyone or
answers the person who moved. People's inputs that queued while a save was in flight are
handled together and go in the next save. A save that fails undoes every change since the
last stored one: the mover is told (:class:`NotStored`), nobody sees the change, and a
computer's or the clock's move is tried again after a growing pause (:data:`RETRY_FIRST`
to :data:`RETRY_MOST`). A save refused by a newer owner's fence stops the actor (another
process runs the table). Connection facts (presence, away, spectators) are not decisions:
they are shown even if their save fails, and carried by the next save.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import logging
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from .. import actions as A
from ..actions import Action, ActionError, parse_action
from ..bots import make as make_bot
from ..cards import card_text
from ..errors import DomainError, IllegalActionError
from ..game import GameState
from ..record import GameRecord
from ..shuffle import commitment, deck_from_seed, is_client_seed, mixed_seed, new_seed
from ..storage.base import FINISHED, PLAYING, GameStore, StaleFenceError, StoredGame
from ..storage.journal import RecordTail
from ..view import HandView
from .events import Event, Frame, hand_summary, hidden_kind
from .fanout import Fanout, Subscriber, release_all
from .journal import Mark, RecordJournal, lines_since, mark_of
from .kinds import PRACTICE, FinishHook, TableKind, TableObserver, TurnPolicy
from .logcontext import TABLE_ID
from .pacing import SPEEDS, Pacing, Scheduler, TimerHandle
from .records import game_record, public_record
from .seats import SeatKey, TableConfig
from .snapshot import table_snapshot
from .timing import Thinking, jittered, start_thinking, think
from .wire import (
    ActionEvent,
    AwayEvent,
    BackEvent,
    ClosedEvent,
    DealEvent,
    EventBody,
    GameOverEvent,
    HandOverEvent,
    HandSummary,
    NextCommitment,
    PresenceEvent,
    ReplacedEvent,
    SpectatorsEvent,
    TableSnapshot,
    TrickEvent,
)

log = logging.getLogger(__name__)

BotFactory = Callable[[str, int | None], Any]
"""``(level, seed) -> bot`` with ``bot.choose(view) -> Action``."""

HISTORY_LIMIT = 160
"""Events kept per table for rejoining clients (about two hands); older means a snapshot."""

SLOW_LEVELS = frozenset({"hard", "expert"})
"""Computer levels whose thinking runs in a thread, so the event loop stays free."""


NOT_OURS = "this server no longer runs this table: reconnect to carry on"
"""Why an input is refused when the actor's guard says the table is not ours."""


class TableError(DomainError):
    """A request the table refuses; the message is for the person who made it."""

    code = "illegal"


NOT_STORED = "the move could not be stored (the database is not answering): try again"
"""Why a change was refused when its save failed (nothing changed, nobody saw it)."""

RETRY_FIRST = 0.25
"""Seconds before a computer's or the clock's move is tried again after a failed save."""
RETRY_MOST = 5.0
"""The longest pause between two tries (the pause doubles from :data:`RETRY_FIRST`)."""


class NotStored(TableError):
    """The change could not be stored (the database did not answer): it was undone, nobody
    saw it, and the caller may try again."""

    code = "not_stored"
    retry_after = 1


class TableStopped(TableError):
    """The table has stopped in this process (it may be loaded again): nothing changed."""


class SeatReplaced(TableError):
    """The seat's person left the game: a computer plays it to the end (nothing changed)."""

    code = "replaced"


LEFT = "left"
"""Why a computer took a seat: its person left the game (the Leave button)."""
AWAY_TOO_LONG = "away"
"""Why a computer took a seat: its person's connection was gone past the grace."""
REPLACED_TEXT = "you left this game: a computer plays your seat to the end"
"""The refusal of a move, a seed or a join from a seat a computer took over."""


@dataclass
class _Act:
    seat: int
    text: str
    done: asyncio.Future[None]


@dataclass
class _BotTurn:
    step: int


@dataclass
class _Deadline:
    seat: int
    step: int


@dataclass
class _PrepareTimeout:
    seat: int
    step: int
    deadline: float


@dataclass
class _DealNext:
    step: int


@dataclass
class _GoOn:
    seat: int
    hand_number: int
    done: asyncio.Future[None]


@dataclass
class _Pace:
    seat: int
    speed: str
    done: asyncio.Future[None]


@dataclass
class _Join:
    subscriber: Subscriber
    since: int | None
    done: asyncio.Future[None]


@dataclass
class _Leave:
    subscriber: Subscriber


@dataclass
class _Seed:
    seat: int
    hand_number: int
    seed: str
    done: asyncio.Future[None]


@dataclass
class _Replace:
    seat: int
    reason: str
    done: asyncio.Future[bool]


@dataclass
class _AwayDue:
    seat: int
    generation: int


@dataclass
class _Close:
    reason: str
    done: asyncio.Future[None]


@dataclass
class _CountSpectators:
    """Time to publish the spectator count held back by :data:`SPECTATOR_COUNT_EVERY`."""


@dataclass
class _Stop:
    done: asyncio.Future[None] = field(default_factory=lambda: asyncio.get_running_loop()
                                       .create_future())


_Command = (_Act | _BotTurn | _Deadline | _PrepareTimeout | _DealNext | _Join | _Leave
            | _Close | _Stop | _Seed | _Replace | _AwayDue | _CountSpectators | _GoOn | _Pace)

_GATHERED = (_Act, _Seed)
"""People's inputs that may share one save when several are queued (a save was in flight)."""

GATHER_MOST = 32
"""The most inputs handled before one save."""


class _Inbox(asyncio.Queue[_Command]):
    """The actor's queue, whose next input can be looked at without taking it."""

    def peek(self) -> _Command | None:
        """The next input, or None if the queue is empty."""
        items = self._queue  # type: ignore[attr-defined]  # asyncio.Queue's own deque
        return items[0] if items else None


@dataclass
class _Kept:
    """The decisions as last stored: what a failed save goes back to."""

    game: GameState
    seeds: list[str]
    client_seeds: list[dict[int, str]]
    next_seed: str
    pending: dict[int, str]
    policy: TurnPolicy
    replaced: dict[int, str]
    closed: str | None
    summary: HandSummary | None
    clock_played: list[tuple[int, int]]

SPECTATOR_COUNT_EVERY = 1.0
"""Seconds between two spectator-count events of one table: the first change is published
at once, later ones at most this often (spectators coming and going in a flood would
otherwise send every subscriber an event each)."""

STOPPED = "the table has stopped: reload the page to carry on"
"""The refusal of a move or a join at a table that has stopped (it may be loaded again)."""


class TableActor:
    """A table: its game, its seats, its event history and its subscribers."""

    def __init__(
        self,
        config: TableConfig,
        *,
        scheduler: Scheduler,
        pacing: Pacing | None = None,
        store: GameStore | None = None,
        policy: TurnPolicy | None = None,
        bot_factory: BotFactory | None = None,
        seed_source: Callable[[], str] = new_seed,
        on_finish: Sequence[FinishHook] = (),
        history_limit: int = HISTORY_LIMIT,
        kind: TableKind | None = None,
        observer: TableObserver | None = None,
        game: GameState | None = None,
        seeds: Sequence[str] = (),
        version: int = 0,
        client_seeds: Sequence[dict[int, str]] = (),
        shuffle_state: dict[str, Any] | None = None,
        rng: random.Random | None = None,
        guard: Callable[[], bool] | None = None,
        replaced: dict[int, str] | None = None,
        seen: Sequence[int] = (),
        away_left: dict[int, float] | None = None,
        on_stale: Callable[[str], None] | None = None,
        pace_for: Callable[[str], Pacing] | None = None,
    ) -> None:
        """A table from its settings, optionally resuming ``game`` at ``version``; while
        ``guard()`` is False the table handles no input (this process lost the right to
        run it). ``on_stale(id)`` is told once when a save is refused by a newer owner's
        fence (the actor has stopped acting; None: it stops itself)."""
        self.config = config
        """The table's fixed settings."""
        self.kind = kind or TableKind(config.kind)
        """What this kind of table allows (hints) and does (its clock, its finish)."""
        self.observer = observer or TableObserver()
        """Told of moves, saves and bot decisions (the server's metrics)."""
        self.scheduler = scheduler
        """Where time comes from."""
        self.pacing = pacing or Pacing()
        """Bot delay and pauses."""
        self._pace_for = pace_for
        """The pacing at a speed chosen at the table (None: the speed cannot be changed)."""
        self.store = store
        """Where the game is saved, before any change is shown (None: nowhere)."""
        self.policy = policy or TurnPolicy()
        """Turn deadlines (none at practice tables)."""
        self.game = game or GameState(config.rules, config.first_dealer)
        """The game now."""
        self.seeds: list[str] = list(seeds)
        """The shuffle seed of each hand dealt (the current one is secret)."""
        self.client_seeds: list[dict[int, str]] = [dict(c) for c in client_seeds]
        """The people's seeds mixed into each hand dealt, by seat."""
        self.version = version
        """The version of the last event."""
        self.on_finish = list(on_finish)
        """Hooks called once when the game ends."""
        self.closed: str | None = None
        """Why the table was closed before its game ended (a person left a coin game)."""
        self.guard = guard
        """Whether this process may still run the table (None: always)."""
        self.on_stale = on_stale
        """Told the table's id when a newer owner's fence refused a save."""
        self._factory: BotFactory = bot_factory or make_bot
        self._rng = rng or random.Random()
        self._thinking: Thinking | None = None
        self._stopping = False
        self._clock_played: list[tuple[int, int]] = []  # (hand number, history index)
        self._seed_source = seed_source
        # The next hand's table seed is drawn and committed before people send their seeds.
        shuffle = shuffle_state or {}
        self._next_seed: str = shuffle.get("next_seed") or seed_source()
        self._pending: dict[int, str] = {int(s): str(c) for s, c in
                                         (shuffle.get("pending") or {}).items()}
        self._bots = {
            i: self._factory(s.level or "medium", s.bot_seed)
            for i, s in enumerate(config.seats)
            if s.is_bot()
        }
        self.replaced: dict[int, str] = {}
        """Seats a computer plays since their person left, and why (``left``, ``away``)."""
        for seat, why in (replaced or {}).items():
            if 0 <= seat < 4 and not config.seats[seat].is_bot():
                self.replaced[seat] = why
                self._bots[seat] = self._replacement(seat)
                self.policy.forget(seat)
        self._seen: set[int] = {s for s in seen if s not in self.replaced}
        self._away: dict[int, float] = {}  # seat -> when its grace runs out (scheduler time)
        self._away_timers: dict[int, TimerHandle] = {}
        self._away_generation = 0
        self._away_generation_of: dict[int, int] = {}
        self._away_restore = dict(away_left or {})  # seat -> seconds left, set at start
        self._fanout = Fanout(config.id, self._render, history_limit)
        self._history = self._fanout.history  # the fan-out's, read here
        self._subscribers = self._fanout.subscribers
        self._joining = 0  # joins queued, not yet handled
        self._leaving = 0  # leaves queued, not yet handled
        self._queue = _Inbox()
        self._busy = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._timer: TimerHandle | None = None
        self._count_timer: TimerHandle | None = None  # the held-back spectator count
        self._count_at = -math.inf  # when the spectator count was last published
        self._deadline: tuple[int, float] | None = None
        self._step = 0
        self._summary: HandSummary | None = None
        self._frame = self._make_frame()
        self._journal = RecordJournal()  # how much of the record is stored
        self._held: list[Event] = []  # made, not yet shown: waiting for their save
        self._shown = self._frame  # the frame last shown (while events are held)
        self._waiting: list[tuple[asyncio.Future[Any], Any]] = []  # answered once stored
        self._changed = False  # a decision since the last stored state
        self._unsaved = False  # anything since the last save (a decision or a connection)
        self._stale = False  # a newer owner's fence refused a save: act on nothing
        self._stopper: asyncio.Future[None] | None = None  # stopping itself (stale)
        self._failures = 0  # failed saves in a row
        self._retry_at = -math.inf  # nothing is scheduled before this after a failed save
        self._stored_version = version  # the version of the state last stored
        self._config_json = config.to_json()
        self._config_raw = msgspec.Raw(_ENCODER.encode(self._config_json))  # encoded once
        self.last_active = scheduler.now()
        """When the table last handled an input (scheduler time)."""
        if self.game.hands or self.game.current is not None:
            self._summary = self._last_summary()
            self._frame = self._make_frame()
            self._shown = self._frame
        self._kept = self._keep()

    # -- life cycle -------------------------------------------------------------------

    @property
    def id(self) -> str:
        """The table id."""
        return self.config.id

    @property
    def finished(self) -> bool:
        """Whether the game is over (or the table was closed)."""
        return self.game.is_over or self.closed is not None

    def is_idle(self, now: float, idle_after: float) -> bool:
        """Whether nobody is connected and nothing will happen by itself: the game is over,
        or a person has not moved for ``idle_after`` seconds and no clock runs."""
        if self._subscribers or not self._queue.empty():
            return False
        if self.finished:
            return True
        waiting_for_person = self._deadline is None and self.game.to_act is not None \
            and self.game.to_act not in self._bots
        return waiting_for_person and now - self.last_active >= idle_after

    @property
    def subscribed(self) -> int:
        """How many connections (seats and spectators) receive this table's events, counting
        those whose join or leave waits its turn in the queue (the table may be busy
        storing a move)."""
        return max(0, len(self._subscribers) + self._joining - self._leaving)

    @property
    def running(self) -> bool:
        """Whether the actor's task is alive."""
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        """Start the actor's task and whatever is due (the first deal, a bot's move)."""
        if self._task is None:
            self._stopping = False
            self._task = asyncio.get_running_loop().create_task(self._run(), name=self.id)
            self._schedule()
            self._resume_away()
            self._show()  # who is away: connection facts, shown without a save
            self._frame = self._make_frame()  # snapshots show a deadline started here
            self._kept = self._keep()  # with the clock started here

    async def stop(self, reason: str = STOPPED) -> None:
        """Stop the task: moves and joins are refused from now on, pending timers are
        cancelled, inputs still queued are refused, and subscribers are released with
        ``reason`` (the table can be loaded again later)."""
        self._stopping = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for timer in self._away_timers.values():
            timer.cancel()
        self._away_timers.clear()
        if self._count_timer is not None:
            self._count_timer.cancel()
            self._count_timer = None
        self._drop_thinking()
        if self.running:
            stop = _Stop()
            self._queue.put_nowait(stop)
            await stop.done
        self._task = None
        _refuse_queued(self._queue)
        self._leaving = 0
        release_all(self._subscribers, reason)
        if self.store is not None and not self._stale and (self._away or self._unsaved):
            async with self._busy:
                await self._save_quietly()  # the grace left now, so a restart resumes it

    async def settle(self) -> None:
        """Wait until every queued input has been handled (and stored), and any
        computer's thinking has ended (for tests)."""
        while True:
            await self._queue.join()
            thinking = self._thinking
            if thinking is None or thinking.task.done():
                break
            await asyncio.wait([thinking.task])

    # -- inputs ---------------------------------------------------------------------------

    async def act(self, seat: int, text: str) -> None:
        """A person's move in notation; raises :class:`TableError` (nothing changes) if refused."""
        self._check_open()
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Act(seat, text, done))
        if self.running and self.store is None and not self.on_finish \
                and self._queue.qsize() == 1 and not self._busy.locked():
            # The table is idle and this move is the only input queued: take it from the
            # queue and handle it here, still one input at a time (the lock), saving the
            # task switches on the way to everyone's update. (Without a store or finish
            # hooks handling a move never waits, so it cannot be cut off half-way; a save
            # could be, so a table with a store handles every input in its own task.)
            cmd = self._queue.get_nowait()
            await self._handle_batch(cmd)
        await done

    async def go_on(self, seat: int, hand_number: int) -> None:
        """The person at a table with no other person is done reading hand
        ``hand_number``'s result: the next hand is dealt now, not after the hold. Anywhere
        else (other people wait too, or that hand is not the last one over) nothing
        happens; a seat with no person raises :class:`TableError`."""
        await self._input(lambda done: _GoOn(seat, hand_number, done))

    async def set_speed(self, seat: int, speed: str) -> None:
        """The person at a practice table chose the computers' ``speed`` (from the next
        pause on); :class:`TableError` where the speed is not the person's to change."""
        await self._input(lambda done: _Pace(seat, speed, done))

    async def _input(self, make: Callable[[asyncio.Future[None]], _Command]) -> None:
        self._check_open()
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(make(done))
        await done

    @property
    def watchable(self) -> bool:
        """Whether spectators may watch: the kind allows it and the table was not made
        private to them (``extra["spectators"]`` false)."""
        return self.kind.spectators and self.config.extra.get("spectators", True) is not False

    async def watch(self, subscriber: Subscriber, since: int | None = None) -> None:
        """Subscribe a spectator (``subscriber.seat`` None) like :meth:`join`; refused with
        :class:`TableError` where the table is not :attr:`watchable`."""
        if not self.watchable:
            raise TableError("this table is private: it cannot be watched")
        if subscriber.seat is not None:
            raise TableError("a spectator has no seat")
        await self.join(subscriber, since)

    async def join(self, subscriber: Subscriber, since: int | None = None) -> None:
        """Subscribe; the subscriber gets a ``joined`` message, then the events after
        ``since`` if they are all still in the history, else a snapshot."""
        self._check_open()
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Join(subscriber, since, done))
        self._joining += 1
        try:
            await done
        finally:
            self._joining -= 1

    async def close(self, reason: str) -> None:
        """End the table before its game is over: nothing more is played; saved as finished.
        :class:`NotStored` if that cannot be stored (the table plays on)."""
        if self.running and not self._stopping:
            done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._queue.put_nowait(_Close(reason, done))
            try:
                await done
                return
            except NotStored:
                raise
            except TableError:  # the table stopped before it got there: close it here
                pass
        if self.closed is not None or self.game.is_over:
            return
        self.closed = reason
        if self.store is None or self._stale:
            return
        async with self._busy:
            try:
                await self._save()
            except StaleFenceError:
                log.warning("table %s: not closed here: another process runs it", self.id)
            except Exception as e:
                self.closed = None
                log.warning("table %s: could not store its closing: %s", self.id, e)
                raise NotStored(NOT_STORED) from e

    def _check_open(self) -> None:
        """Refuse at once if the table is not running: a queued input would never be
        handled, and whoever waits for it would wait for ever."""
        if self._stopping or not self.running:
            raise TableStopped(STOPPED)

    async def contribute(self, seat: int, hand_number: int, seed: str) -> None:
        """A person's shuffle seed for hand ``hand_number``, sent after its commitment; raises
        :class:`TableError` (nothing changes) if refused."""
        self._check_open()
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Seed(seat, hand_number, seed, done))
        await done

    async def replace(self, seat: int, reason: str = LEFT) -> bool:
        """A computer plays ``seat`` to the end of the game (its person left); True if it
        was taken over now, False if it already was (or the game is over)."""
        self._check_open()
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Replace(seat, reason, done))
        return await done

    def is_replaced(self, seat: int) -> bool:
        """Whether a computer plays ``seat`` since its person left."""
        return seat in self.replaced

    def away_seconds(self, seat: int) -> float | None:
        """Seconds left of an away person's grace, or None if they are not away."""
        until = self._away.get(seat)
        return None if until is None else max(0.0, until - self.scheduler.now())

    def leave(self, subscriber: Subscriber) -> None:
        """Unsubscribe (the connection closed)."""
        if self.running:
            self._queue.put_nowait(_Leave(subscriber))
            self._leaving += 1
        elif subscriber in self._subscribers:
            self._subscribers.remove(subscriber)

    # -- reading ----------------------------------------------------------------------------

    def seat_of(self, token: SeatKey) -> int | None:
        """The seat a token (or a signed-in account) belongs to, or None."""
        return self.config.seat_of(token)

    @property
    def shown_version(self) -> int:
        """The version of the last event sent (later ones wait for their save)."""
        return self.version - len(self._held)

    def _shown_frame(self) -> Frame:
        """The table as last shown: changes waiting for their save are not in it."""
        return self._shown if self._held else self._frame

    def view(self, seat: int) -> HandView | None:
        """The seat's view of the current hand as shown, or None before the first deal."""
        current = self._shown_frame().game.current
        return current.view(seat) if current is not None else None

    def snapshot(self, seat: int | None) -> TableSnapshot:
        """The seat's TABLE object as shown (a change waiting for its save is not in it)."""
        frame = self._shown_frame()
        # Which moves of this hand the clock played, so a seat that rejoins with a
        # snapshot (not the events) still sees them marked.
        hand = len(frame.game.all_hands())
        return table_snapshot(self.config, frame, seat, self.policy, self.scheduler.now(),
                              [i for h, i in self._clock_played if h == hand])

    def _render(self, frame: Frame, seat: int | None) -> TableSnapshot:
        """A seat's snapshot of a frame, as an event carries it."""
        return table_snapshot(self.config, frame, seat, self.policy, self.scheduler.now())

    def record(self) -> GameRecord:
        """The full record so far (private: includes the hand in progress and its seed)."""
        return game_record(self.game, self.seeds, self.client_seeds)

    def public_record(self) -> GameRecord:
        """The record as shown, without the hand in progress."""
        game = self._shown_frame().game
        return public_record(game_record(game, self.seeds, self.client_seeds))

    def stored(self) -> StoredGame:
        """The table as storage keeps it, its record whole. The table's next save writes
        its record whole too (whether or not this one is saved), so the lines it appends
        after that always follow the record stored. Its meta is not pre-encoded, so a copy
        with other meta (``dataclasses.replace``) saves that meta."""
        self._journal.forget()
        return dataclasses.replace(self._stored(None), meta_text=None)

    def _stored(self, tail: RecordTail | None) -> StoredGame:
        """The table to save: with ``tail``, only those lines of its record (appended to
        the stored ones), else its record whole."""
        now = time.time()
        meta = {"config": self._config_json, "policy": self.policy.to_json(),
                "shuffle": {"next_seed": self._next_seed,
                            "pending": {str(s): c for s, c in self._pending.items()}},
                **self._presence_json(), **({"closed": self.closed} if self.closed else {})}
        record: dict[str, Any] = {}
        record_text = None
        if tail is None:
            record = self.record().to_json()
            record_text = _ENCODER.encode(record).decode()
        return StoredGame(
            id=self.id,
            kind=self.config.kind,
            status=FINISHED if self.finished else PLAYING,
            version=self.version,
            meta=meta,
            meta_text=_ENCODER.encode({**meta, "config": self._config_raw}).decode(),
            record=record,
            record_text=record_text,
            created_at=self.config.created_at or now,
            updated_at=now,
            journal=tail,
        )

    def _to_save(self) -> tuple[StoredGame, Mark]:
        """What the next save writes, and where the stored record ends once it is saved:
        the record's lines since the last save, or the record whole when where the store's
        copy ends is not known (or the game is over, so a finished game is read whole)."""
        mark = self._journal.mark
        if mark is None or (self.finished and mark.lines):
            return self._stored(None), mark_of(self.game)
        tail, after = lines_since(mark, self.game, self.seeds, self.client_seeds)
        return self._stored(tail), after

    async def _save(self) -> None:
        """Save the table (its record's new lines); the journal knows them stored after,
        and forgets where the stored record ends if the save fails."""
        assert self.store is not None
        generation = self._journal.generation
        game, mark = self._to_save()
        try:
            await self.store.save(game)
        except BaseException:
            self._journal.forget()
            raise
        self._journal.saved(mark, generation)

    def _presence_json(self) -> dict[str, Any]:
        """Who left, who has been seen, and each away person's grace left (seconds), to
        save with the table: a restart keeps them (and never shortens a grace)."""
        out: dict[str, Any] = {}
        if self.replaced:
            out["replaced"] = {str(s): why for s, why in sorted(self.replaced.items())}
        if self._seen:
            out["seen"] = sorted(self._seen)
        if self._away:
            now = self.scheduler.now()
            out["away"] = {str(s): round(max(0.0, t - now), 3)
                           for s, t in sorted(self._away.items())}
        return out

    def _seed(self, index: int) -> str | None:
        """The shuffle seed of the game's hand ``index`` (from 0), if it was dealt here."""
        return (self.seeds[index] or None) if index < len(self.seeds) else None

    def _clients(self, index: int) -> dict[int, str]:
        """The people's seeds mixed into hand ``index`` (from 0)."""
        return self.client_seeds[index] if index < len(self.client_seeds) else {}

    # -- the loop -----------------------------------------------------------------------

    async def _run(self) -> None:
        TABLE_ID.set(self.id)  # this task's own context: its log lines name the table
        while True:
            cmd = await self._queue.get()
            if isinstance(cmd, _Stop):
                self._queue.task_done()
                cmd.done.set_result(None)
                return
            await self._handle_batch(cmd)

    async def _handle_batch(self, first: _Command) -> None:
        """Handle ``first`` (taken from the queue), and if it is a person's input, the
        people's inputs queued behind it (they came while the last save was in flight);
        then store the changes and show them (:meth:`_store`)."""
        taken = 1
        try:
            async with self._busy:
                await self._handle_one(first)
                while isinstance(first, _GATHERED) and taken < GATHER_MOST \
                        and isinstance(self._queue.peek(), _GATHERED):
                    cmd = self._queue.get_nowait()
                    taken += 1
                    await self._handle_one(cmd)
                if self._held or self._waiting or self._unsaved:
                    with contextlib.suppress(TableError):  # undone; the callers were told
                        await self._store()
        finally:
            for _ in range(taken):
                self._queue.task_done()

    async def _handle_one(self, cmd: _Command) -> None:
        if isinstance(cmd, _Leave):
            self._leaving -= 1
        if self._stale or (self.guard is not None and not self.guard()):
            # Another process may own the table now: act on nothing, tell a waiting caller.
            done = getattr(cmd, "done", None)
            if done is not None and not done.done():
                done.set_exception(TableError(NOT_OURS))
            return
        try:
            self.last_active = self.scheduler.now()
            await self._handle(cmd)
        except TableError as e:  # a save failed: the changes were undone (see _store)
            done = getattr(cmd, "done", None)
            if done is not None and not done.done():
                done.set_exception(e)
        except Exception:  # a bug must not kill the table, nor leave a caller waiting
            log.exception("table %s: error handling %r", self.id, cmd)
            error = TableError("the table could not do that (a server error)")
            self._roll_back(error)  # nothing half done is kept
            done = getattr(cmd, "done", None)
            if done is not None and not done.done():
                done.set_exception(error)

    async def _handle(self, cmd: _Command) -> None:
        if isinstance(cmd, _Act):
            try:
                await self._on_act(cmd.seat, cmd.text)
            except TableError as e:
                if not cmd.done.done():
                    cmd.done.set_exception(e)
                return
            self._answer(cmd.done, None)
        elif isinstance(cmd, _BotTurn):
            if cmd.step == self._step:
                await self._on_bot_turn()
        elif isinstance(cmd, _Deadline):
            if cmd.step == self._step:
                await self._on_deadline(cmd.seat)
        elif isinstance(cmd, _PrepareTimeout):
            if cmd.step == self._step:
                self._prepare_timeout(cmd.seat, cmd.deadline)
        elif isinstance(cmd, _DealNext):
            if cmd.step == self._step and self.game.needs_deal:
                await self._deal()
        elif isinstance(cmd, _Join):
            try:
                changed = self._on_join(cmd.subscriber, cmd.since)
            except TableError as e:
                cmd.done.set_exception(e)
                return
            if not cmd.done.done():
                cmd.done.set_result(None)
            self._unsaved |= changed
        elif isinstance(cmd, _Leave):
            self._unsaved |= self._on_leave(cmd.subscriber)
        elif isinstance(cmd, _CountSpectators):
            self._count_timer = None
            self._publish_count()
        elif isinstance(cmd, _Seed):
            try:
                self._on_seed(cmd.seat, cmd.hand_number, cmd.seed)
            except TableError as e:
                cmd.done.set_exception(e)
                return
            self._answer(cmd.done, None)
        elif isinstance(cmd, _Replace):
            try:
                taken = await self._replace(cmd.seat, cmd.reason)
            except TableError as e:
                cmd.done.set_exception(e)
                return
            cmd.done.set_result(taken)
        elif isinstance(cmd, _AwayDue):
            if self._away_generation_of.get(cmd.seat) == cmd.generation \
                    and cmd.seat in self._away:
                if self.finished:
                    self._end_away(cmd.seat)
                else:
                    await self._replace(cmd.seat, AWAY_TOO_LONG)
        elif isinstance(cmd, (_GoOn, _Pace)):
            try:
                if isinstance(cmd, _GoOn):
                    await self._on_go_on(cmd.seat, cmd.hand_number)
                else:
                    self._on_pace(cmd.seat, cmd.speed)
            except TableError as e:
                cmd.done.set_exception(e)
                return
            self._answer(cmd.done, None)
        elif isinstance(cmd, _Close):
            if self.closed is None and not self.game.is_over:
                self.closed = cmd.reason
                self._decided()
                self._step += 1  # a computer's move or a clock already queued is void
                self._schedule()
                self._publish([ClosedEvent(reason=cmd.reason)])
                await self._store()
            cmd.done.set_result(None)

    # -- handlers ---------------------------------------------------------------------------

    async def _on_act(self, seat: int, text: str) -> None:
        if seat in self.replaced:
            raise SeatReplaced(REPLACED_TEXT)
        if not 0 <= seat < 4 or self.config.seats[seat].is_bot():
            raise TableError("you have no seat at this table")
        game = self.game
        if self.closed is not None:
            raise TableError("the table is closed")
        if game.is_over:
            raise TableError("the game is over")
        if game.to_act is None:
            raise TableError("the hand is over: the next hand is being dealt")
        try:
            action = parse_action(text)
        except ActionError as e:
            raise TableError(str(e)) from None
        if action.kind == A.RENEGE:
            raise TableError("renege claims are not made at online tables: every card is "
                             "checked as it is played")
        try:
            new = game.apply(action, seat=seat)
        except IllegalActionError as e:
            raise TableError(str(e)) from None
        self.policy.moved(seat, self.scheduler.now(), timed_out=False)
        self.observer.moved("person")
        await self._advance(new, seat, action)

    def _on_seed(self, seat: int, hand_number: int, seed: str) -> None:
        if seat in self.replaced:
            raise SeatReplaced(REPLACED_TEXT)
        if not 0 <= seat < 4 or self.config.seats[seat].is_bot():
            raise TableError("you have no seat at this table")
        if self.finished:
            raise TableError("the game is over: no more hands are dealt")
        upcoming = len(self.game.all_hands()) + 1
        if hand_number != upcoming:
            raise TableError(f"seeds are taken for hand {upcoming} only (its commitment is "
                             f"published), not hand {hand_number}")
        if not is_client_seed(seed):
            raise TableError("a shuffle seed is 16 to 128 lower-case hex digits")
        if self._pending.get(seat) == seed:
            return  # the same seed again (a page reloaded): taken already, nothing changes
        if seat in self._pending:
            raise TableError(f"your seed for hand {hand_number} was already taken")
        self._pending[seat] = seed
        self._decided()
        if self.game.current is None and self._all_seeds_in():
            self._later(0.0, _DealNext(self._step))  # everyone's seed is in: deal now

    def _check_person(self, seat: int) -> None:
        if seat in self.replaced:
            raise SeatReplaced(REPLACED_TEXT)
        if not 0 <= seat < 4 or self.config.seats[seat].is_bot():
            raise TableError("you have no seat at this table")

    def _alone_with_computers(self, seat: int) -> bool:
        return all(i in self._bots for i in range(4) if i != seat)

    async def _on_go_on(self, seat: int, hand_number: int) -> None:
        self._check_person(seat)
        game = self.game
        if (self.closed is None and not game.is_over and game.needs_deal
                and game.current is not None and len(game.all_hands()) == hand_number
                and self._alone_with_computers(seat)):
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            await self._deal()

    def _on_pace(self, seat: int, speed: str) -> None:
        self._check_person(seat)
        if self._pace_for is None or self.config.kind != PRACTICE:
            raise TableError("the computers' speed is chosen at practice tables only")
        if speed not in SPEEDS:
            raise TableError(f"speed is one of {', '.join(SPEEDS)}")
        if self.config.extra.get("speed", "normal") == speed:
            return
        self.pacing = self._pace_for(speed)
        self.config.extra["speed"] = speed  # the TABLE says it; stored with the next save
        self._decided()
        self._schedule()  # a pause under way is measured again at the new pace

    def _all_seeds_in(self) -> bool:
        """Whether every person's seat has sent its seed for the next hand."""
        return all(i in self._pending for i in range(4) if i not in self._bots)

    async def _on_bot_turn(self) -> None:
        seat = self.game.to_act
        if seat is None or seat not in self._bots:
            return
        level = self.config.seats[seat].level or "medium"
        action = await self._thought(self._bots[seat], level, seat)
        self.observer.moved("computer")
        await self._advance(self.game.apply(action, seat=seat), seat, action)

    async def _on_deadline(self, seat: int) -> None:
        if self.game.to_act != seat:
            return
        now = self.scheduler.now()
        level = self.policy.on_timeout(seat, now)
        action = await self._thought(None, level, seat)
        self.policy.moved(seat, self.scheduler.now(), timed_out=True)
        self.observer.moved("timeout")
        hand = self.game.current
        if hand is not None:
            number = len(self.game.all_hands())
            self._clock_played = [m for m in self._clock_played if m[0] == number]
            self._clock_played.append((number, len(hand.history())))
        await self._advance(self.game.apply(action, seat=seat), seat, action, timed_out=True)

    async def _thought(self, bot: Any, level: str, seat: int) -> Action:
        """The move thought out for ``seat`` since its turn started; worked out now if
        nothing was (``bot`` None: a fresh player of ``level``, for a person out of time)."""
        thinking, self._thinking = self._thinking, None
        if thinking is not None and thinking.is_for(self._step, seat):
            return await thinking.task
        if thinking is not None:
            thinking.cancel()
        if bot is None:
            bot = self._factory(level, self.config.seats[seat].bot_seed)
        view = self.game.current.view(seat)  # type: ignore[union-attr]
        return await think(self._timed(bot, level), view, level in SLOW_LEVELS)

    def _timed(self, bot: Any, level: str) -> Any:
        """``bot``, its decision time told to the observer (from a worker thread too)."""
        return _TimedBot(bot, level, self.observer)

    def _think_ahead(self, bot: Any, level: str, seat: int) -> None:
        """Start working out ``seat``'s move now (published later, at the table's pace)."""
        self._drop_thinking()
        view = self.game.current.view(seat)  # type: ignore[union-attr]
        self._thinking = start_thinking(self._timed(bot, level), view, self._step, seat,
                                        SLOW_LEVELS, level)

    def _prepare_timeout(self, seat: int, deadline: float) -> None:
        """A person's clock is about to run out: the computer that will move for them
        starts thinking, so its move lands at the deadline, however long it thinks."""
        now = self.scheduler.now()
        if self.game.to_act == seat:
            level = self.policy.on_timeout(seat, now)
            self._think_ahead(self._factory(level, self.config.seats[seat].bot_seed),
                              level, seat)
        self._later(deadline - now, _Deadline(seat, self._step))

    def _drop_thinking(self) -> None:
        if self._thinking is not None:
            self._thinking.cancel()
            self._thinking = None

    async def _deal(self) -> None:
        seed, clients = self._next_seed, self._pending
        deck = deck_from_seed(mixed_seed(seed, clients), self.config.rules.benny)
        new = self.game.deal(deck)
        self.seeds.append(seed)
        self.client_seeds.append(clients)
        self._next_seed, self._pending = self._seed_source(), {}
        assert new.current is not None
        number = len(new.all_hands())
        deal = DealEvent(dealer=new.current.dealer, hand_number=number,
                         commitment=commitment(seed),
                         client_seeds={str(s): c for s, c in sorted(clients.items())},
                         next_commitment=NextCommitment(
                             hand_number=number + 1, commitment=commitment(self._next_seed)))
        await self._commit(new, [deal])

    async def _advance(self, new: GameState, seat: int, action: Action,
                       timed_out: bool = False) -> None:
        old = self.game.current
        hand = new.current
        assert old is not None and hand is not None
        events: list[EventBody] = [
            ActionEvent(seat=seat, action=str(action), timed_out=True if timed_out else None)
        ]
        if len(hand.tricks) > len(old.tricks):
            leader, cards, winner = hand.tricks[-1]
            events.append(TrickEvent(leader=leader, cards=[card_text(c) for c in cards],
                                     winner=winner))
        if hand.is_over and not old.is_over:
            number = len(new.all_hands())
            seed = self._seed(number - 1)
            self._summary = hand_summary(hand, number, new.score, seed, self._clients(number - 1))
            self.policy.hand_over(self.scheduler.now())
            events.append(HandOverEvent(points=list(hand.points), score=list(new.score),
                                        summary=self._summary))
        if new.is_over and not self.game.is_over:
            assert new.winner is not None
            events.append(GameOverEvent(winner=new.winner, score=list(new.score)))
        await self._commit(new, events)

    async def _commit(self, new: GameState, events: list[EventBody]) -> None:
        finished_now = new.is_over and not self.game.is_over
        self.game = new
        self._step += 1
        self._decided()
        self._schedule()
        self._publish(events)
        if finished_now and self.on_finish:
            # The finished record is stored and the hooks (a coin payout) run before anyone
            # is told the game is over, so the balance they look at is already settled.
            await self._store(show=False)
            for hook in self.on_finish:
                try:
                    await hook(self)
                except Exception:
                    log.exception("table %s: finish hook failed", self.id)

    def _publish(self, events: list[EventBody]) -> None:
        """Number the events and hold them: :meth:`_show` sends them once they are stored."""
        if not self._held:
            self._shown = self._frame
        self.version += len(events)
        self._frame = self._make_frame()
        first = self.version - len(events) + 1
        for i, body in enumerate(events):
            self._held.append(Event(first + i, body, self._frame, hidden_kind(body)))

    def _show(self) -> None:
        """Send the held events to every subscriber (in order, each once, encoded once per
        audience: :class:`~.fanout.Fanout`), then answer the callers waiting for them."""
        held, self._held = self._held, []
        self._fanout.show(held)
        self._shown = self._frame
        waiting, self._waiting = self._waiting, []
        for done, value in waiting:
            if not done.done():
                done.set_result(value)

    def _answer(self, done: asyncio.Future[Any], value: Any) -> None:
        """Answer a caller now, or once the changes made so far are stored and shown."""
        if self._held or self._changed:
            self._waiting.append((done, value))
        elif not done.done():
            done.set_result(value)

    def _decided(self) -> None:
        """A decision was made (a move, a deal, a seed, a seat taken over, a closing): it
        is shown only once stored, and undone if it cannot be."""
        self._changed = True
        self._unsaved = True

    async def _store(self, *, show: bool = True) -> None:
        """Save the table if anything changed, then (``show``) send the held events and
        answer the waiting callers. If the save fails, every decision since the last
        stored state is undone and :class:`NotStored` raised (connection facts are shown
        all the same); a newer owner's fence stops the actor (``TableError``)."""
        if self.store is not None and self._unsaved:
            started = time.perf_counter()
            try:
                await self._save()
            except StaleFenceError as e:
                self.observer.saved(time.perf_counter() - started, False)
                log.warning("table %s: a newer owner runs it (%s): stopped here", self.id, e)
                self._fenced_out()
                raise TableError(NOT_OURS) from e
            except Exception as e:
                self.observer.saved(time.perf_counter() - started, False)
                if self._changed:
                    log.warning("table %s: could not save (%s): its last changes are undone",
                                self.id, e)
                    self._roll_back(NotStored(NOT_STORED))
                    raise NotStored(NOT_STORED) from e
                log.warning("table %s: could not save (%s)", self.id, e)
            else:
                self.observer.saved(time.perf_counter() - started, True)
                self._stored_version = self.version
                self._unsaved = False
                if self._changed:
                    self._changed = False
                    self._kept = self._keep()
                self._failures = 0
                self._retry_at = -math.inf
        elif self._changed:  # nowhere to save it (no store)
            self._changed = False
            self._kept = self._keep()
            self._failures = 0
            self._retry_at = -math.inf
        if show:
            self._show()

    async def _save_quietly(self) -> None:
        """Save as the actor stops (the grace left of whoever is away); a failure is logged."""
        assert self.store is not None
        try:
            await self._save()
        except Exception as e:
            log.warning("table %s: could not save as it stopped: %s", self.id, e)
        else:
            self._unsaved = False

    def _keep(self) -> _Kept:
        """The decisions now, to go back to if the next save fails."""
        return _Kept(self.game, list(self.seeds), list(self.client_seeds), self._next_seed,
                     dict(self._pending), self.policy.copy(), dict(self.replaced),
                     self.closed, self._summary, list(self._clock_played))

    def _roll_back(self, error: TableError) -> None:
        """Go back to the decisions last stored: the held events not stored are dropped
        (their versions are used again), the callers waiting get ``error``, and what
        is due (a computer's move, the clock, the next deal) is scheduled again after a
        pause that grows with each failure in a row."""
        kept = self._kept
        self.game = kept.game
        self.seeds = list(kept.seeds)
        self.client_seeds = list(kept.client_seeds)
        self._next_seed = kept.next_seed
        self._pending = dict(kept.pending)
        self.policy = kept.policy.copy()
        for seat in [s for s in self.replaced if s not in kept.replaced]:
            self._bots.pop(seat, None)  # its person plays it again
        self.replaced = dict(kept.replaced)
        self.closed = kept.closed
        self._summary = kept.summary
        self._clock_played = list(kept.clock_played)
        # Events already stored (a finished game, before its hooks ran) stay, and are shown.
        stored = [e for e in self._held if e.version <= self._stored_version]
        self.version -= len(self._held) - len(stored)
        self._held = stored
        self._changed = False
        self._unsaved = False
        waiting, self._waiting = self._waiting, []
        for fut, _ in waiting:
            if not fut.done():
                fut.set_exception(error)
        self._failures += 1
        pause = min(RETRY_MOST, RETRY_FIRST * 2 ** (self._failures - 1))
        self._retry_at = self.scheduler.now() + pause
        self._step += 1  # whatever was scheduled for the undone state is void
        self._schedule()
        self._frame = self._make_frame()
        self._show()

    def _fenced_out(self) -> None:
        """A newer owner's fence refused a save: undo, act on nothing more, and have the
        table stopped here (by :attr:`on_stale`, else by itself)."""
        self._stale = True
        self._roll_back(TableError(NOT_OURS))
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._drop_thinking()
        if self.on_stale is not None:
            self.on_stale(self.id)
        else:
            self._stopper = asyncio.ensure_future(self.stop(NOT_OURS))

    def _on_join(self, sub: Subscriber, since: int | None) -> bool:
        if sub.seat is not None and sub.seat in self.replaced:
            raise SeatReplaced(REPLACED_TEXT)
        was = self._connected()
        self._fanout.join(sub, since, self.version, self.game, self.snapshot)
        changed = self._presence(was) | self._spectators(sub)
        if sub.seat is not None:
            changed |= sub.seat not in self._seen
            self._seen.add(sub.seat)
            if sub.seat in self._away:
                self._end_away(sub.seat)
                self._publish([BackEvent(seat=sub.seat)])
                changed = True
        return changed

    def _on_leave(self, sub: Subscriber) -> bool:
        was = self._connected()
        if not self._fanout.leave(sub):
            return False
        changed = self._presence(was) | self._spectators(sub)
        seat = sub.seat
        if seat is not None and not self._connected()[seat]:
            changed |= self._go_away(seat, self.kind.away_grace)
        return changed

    # -- away and replaced -----------------------------------------------------------------

    def _go_away(self, seat: int, seconds: float | None) -> bool:
        """Start ``seat``'s grace (its person's last connection is gone); True if it did."""
        if seconds is None or self.kind.away_grace is None or self.finished \
                or seat in self._bots or seat in self._away:
            return False
        self._arm_away(seat, self.scheduler.now() + seconds)
        self._publish([AwayEvent(seat=seat, ms_left=math.ceil(seconds * 1000))])
        return True

    def _arm_away(self, seat: int, until: float) -> None:
        """``seat`` is away until ``until`` (scheduler time), when a computer takes it."""
        self._away_generation += 1
        generation = self._away_generation
        self._away_generation_of[seat] = generation
        self._away[seat] = until
        self._away_timers[seat] = self.scheduler.call_later(
            max(0.0, until - self.scheduler.now()),
            lambda: self._post(_AwayDue(seat, generation)))

    def _end_away(self, seat: int) -> None:
        """The seat is no longer away (back, replaced, or the game ended)."""
        self._away.pop(seat, None)
        self._away_generation_of.pop(seat, None)
        timer = self._away_timers.pop(seat, None)
        if timer is not None:
            timer.cancel()

    def _resume_away(self) -> None:
        """At the start: people seen before but not connected now are away, with the grace
        they had left when saved (a restart's downtime counts against nobody), else all of
        it (their connection was cut by the restart)."""
        grace = self.kind.away_grace
        restore, self._away_restore = self._away_restore, {}
        if grace is None or self.finished:
            return
        connected = self._connected()
        for seat in sorted(self._seen):
            if not connected[seat] and seat not in self._away:
                left = restore.get(seat)
                self._go_away(seat, min(grace, left) if left is not None else grace)

    def _replacement(self, seat: int) -> Any:
        """The computer that plays ``seat`` once its person left (seeded from the table and
        seat, so a resumed table's computer decides the same)."""
        seed = int.from_bytes(hashlib.sha256(f"{self.id}:{seat}".encode()).digest()[:7], "big")
        return self._factory(self.kind.replacement_level, seed)

    async def _replace(self, seat: int, reason: str) -> bool:
        """A computer takes ``seat`` for the rest of the game: the token no longer moves,
        the clock is dropped; stored and shown, then the person's connections are released
        and the kind's hooks run (a stake table charges the leaving fee). :class:`NotStored`
        if it cannot be stored (nothing changed; a grace that ran out is tried again)."""
        if not 0 <= seat < 4 or self.config.seats[seat].is_bot():
            raise TableError("that seat is not a person's")
        if seat in self.replaced or self.finished:
            return False
        away_until = self._away.get(seat)
        seen = seat in self._seen
        self.replaced[seat] = reason
        self._seen.discard(seat)
        self._end_away(seat)
        self._bots[seat] = self._replacement(seat)
        self.policy.forget(seat)
        self._decided()
        if self.game.to_act == seat:
            self._step += 1  # the person's clock and its timeout move are void
            self._schedule()
        self._publish([ReplacedEvent(seat=seat, reason=reason,  # type: ignore[arg-type]
                                     level=self.kind.replacement_level)])
        if self.game.current is None and self._all_seeds_in() and self.game.needs_deal:
            self._later(0.0, _DealNext(self._step))
        try:
            await self._store()
        except NotStored:
            # Undone: the person still holds the seat (and its grace, tried again later).
            if seen:
                self._seen.add(seat)
            if away_until is not None:
                self._arm_away(seat, max(away_until, self._retry_at))
            raise
        gone = [s for s in self._subscribers if s.seat == seat]
        for sub in gone:
            self._subscribers.remove(sub)
        release_all(gone, REPLACED_TEXT)
        for hook in self.kind.on_replaced:
            try:
                await hook(self, seat, reason)
            except Exception:
                log.exception("table %s: replace hook failed", self.id)
        return True

    def _spectators(self, sub: Subscriber) -> bool:
        """Publish the new count of spectators if ``sub`` was one: at once, unless a count
        went out less than :data:`SPECTATOR_COUNT_EVERY` ago (then when that time is up).
        Always False: a count is not worth a save."""
        if sub.seat is None and self._count_timer is None:
            wait = self._count_at + SPECTATOR_COUNT_EVERY - self.scheduler.now()
            if wait <= 0:
                self._publish_count()
            else:
                self._count_timer = self.scheduler.call_later(
                    wait, lambda: self._post(_CountSpectators()))
        return False

    def _publish_count(self) -> None:
        """Publish the spectator count, if it differs from the one the table last showed."""
        self._count_at = self.scheduler.now()
        if self._watching() != self._frame.spectators:
            self._publish([SpectatorsEvent(count=self._watching())])

    def _watching(self) -> int:
        return self._fanout.watching()

    def _presence(self, was: tuple[bool, bool, bool, bool]) -> bool:
        """Publish presence changes; True if there were any."""
        now = self._connected()
        events: list[EventBody] = [
            PresenceEvent(seat=i, connected=now[i]) for i in range(4) if now[i] != was[i]
        ]
        if events:
            self._publish(events)
        return bool(events)

    # -- helpers ---------------------------------------------------------------------------

    def _connected(self) -> tuple[bool, bool, bool, bool]:
        seats = {s.seat for s in self._subscribers}
        c = [s.is_bot() or i in seats or i in self.replaced
             for i, s in enumerate(self.config.seats)]
        return (c[0], c[1], c[2], c[3])

    def _make_frame(self) -> Frame:
        current = self.game.current
        return Frame(
            version=self.version,
            game=self.game,
            summary=self._summary,
            commitment=(
                commitment(self.seeds[-1])
                if current is not None and not current.is_over and self.seeds and self.seeds[-1]
                else None
            ),
            connected=self._connected(),
            spectators=self._watching(),
            replaced=tuple(sorted(self.replaced.items())),
            away=tuple(sorted(self._away.items())),
            replacement_level=self.kind.replacement_level,
            deadline=self._deadline,
            closed=self.closed,
            next_commitment=None if self.finished else NextCommitment(
                hand_number=len(self.game.all_hands()) + 1,
                commitment=commitment(self._next_seed)),
        )

    def _last_summary(self) -> HandSummary | None:
        hands = self.game.all_hands()
        done = [h for h in hands if h.is_over]
        if not done:
            return None
        number = len(done)
        score = (sum(h.points[0] for h in done), sum(h.points[1] for h in done))
        seed = self._seed(number - 1)
        return hand_summary(done[-1], number, score, seed, self._clients(number - 1))

    def _schedule(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._drop_thinking()
        self._deadline = None
        if self._task is None or self._stale:
            return
        game = self.game
        step = self._step
        if game.is_over or self.closed is not None:
            return
        if game.needs_deal:
            delay = 0.0 if game.current is None else self.pacing.hand_pause
            if game.current is None and not self._all_seeds_in():
                delay = self.pacing.seed_wait  # the first deal waits a little for seeds
            self._later(delay, _DealNext(step))
            return
        seat = game.to_act
        assert seat is not None
        if seat in self._bots:
            # Think from the start of the turn; publish at the table's pace (timing.py),
            # and a lead after a trick waits for the trick pause (the trick is read).
            self._think_ahead(self._bots[seat], self.config.seats[seat].level or "medium", seat)
            wait = self.pacing.bot_wait(_leads_after_trick(game))
            self._later(jittered(wait, self._rng, self.pacing.jitter), _BotTurn(step))
            return
        now = self.scheduler.now()
        deadline = self.policy.deadline(seat, now)
        if deadline is not None:
            self._deadline = (seat, deadline)
            # The computer that moves for a person out of time thinks a computer's delay
            # ahead, so its move lands on the deadline whatever it had to choose from.
            self._later(deadline - self.pacing.bot_delay - now,
                        _PrepareTimeout(seat, step, deadline))

    def _later(self, delay: float, cmd: _Command) -> None:
        delay = max(delay, self._retry_at - self.scheduler.now())  # after a failed save
        if delay <= 0:
            self._post(cmd)
        else:
            self._timer = self.scheduler.call_later(delay, lambda: self._post(cmd))

    def _post(self, cmd: _Command) -> None:
        if self.running:
            self._queue.put_nowait(cmd)


def _leads_after_trick(game: GameState) -> bool:
    """Whether the next move is a lead right after a completed trick (the trick is on view)."""
    hand = game.current
    return (hand is not None and not hand.is_over and bool(hand.tricks)
            and not hand.trick[1])


class _TimedBot:
    """A computer player whose every decision's time is told to a :class:`TableObserver`."""

    def __init__(self, bot: Any, level: str, observer: TableObserver) -> None:
        self.bot = bot
        self.level = level
        self.observer = observer

    def choose(self, view: HandView) -> Action:
        started = time.perf_counter()
        action: Action = self.bot.choose(view)
        self.observer.bot_decided(self.level, time.perf_counter() - started)
        return action


def _refuse_queued(queue: asyncio.Queue[_Command]) -> None:
    """Fail every input left in a stopped table's queue, so nobody waits for it."""
    while not queue.empty():
        cmd = queue.get_nowait()
        queue.task_done()
        done = getattr(cmd, "done", None)
        if done is not None and not done.done():
            if isinstance(cmd, _Close):
                done.set_result(None)
            else:
                done.set_exception(TableStopped(STOPPED))


_ENCODER = msgspec.json.Encoder()  # stateless: encodes a record written whole


def restore(stored: StoredGame, **kwargs: Any) -> TableActor:
    """A table rebuilt from storage (its game replayed from the record), not yet started."""
    config = TableConfig.from_json(stored.meta["config"])
    record = GameRecord.from_json(stored.record)
    game = record.replay() if record.hands else GameState(config.rules, config.first_dealer)
    seeds = [h.seed or "" for h in record.hands]
    clients = [h.client_seeds for h in record.hands]
    meta = stored.meta
    actor = TableActor(config, game=game, seeds=seeds, version=stored.version,
                       client_seeds=clients, shuffle_state=meta.get("shuffle"),
                       replaced={int(s): str(w) for s, w in (meta.get("replaced") or {}).items()},
                       seen=[int(s) for s in meta.get("seen") or ()],
                       away_left={int(s): float(t) for s, t in (meta.get("away") or {}).items()},
                       **kwargs)
    actor.policy.load_json(stored.meta.get("policy") or {})
    actor.closed = stored.meta.get("closed")
    return actor
