"""One actor per table: every input goes through the table's own queue, one at a time.

Inputs are a person's move, a computer's move when its delay has passed, a turn
deadline, the next deal after the pause between hands, and people connecting or
leaving. Each handler calls the pure engine and produces versioned :class:`Event`s; each
subscriber gets every event with its own seat's snapshot. Time comes from an injected
:class:`~euchre.table.actor.pacing.Scheduler`, so tests move time without sleeping.

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
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from ... import actions as A
from ...actions import Action, ActionError, parse_action
from ...bots import make as make_bot
from ...errors import DomainError, IllegalActionError
from ...game import GameState
from ...record import GameRecord
from ...shuffle import commitment
from ...storage.base import StaleFenceError, StoredGame
from ...view import HandView
from .agenda import Agenda
from .audience import Audience, Said
from .commands import (
    GATHER_MOST,
    AwayDue,
    BotTurn,
    Close,
    Command,
    Contribute,
    CountSpectators,
    Deadline,
    DealNext,
    Enter,
    GoOn,
    LastHand,
    Leave,
    Move,
    PrepareTimeout,
    RematchAnswer,
    RematchDue,
    ReplaceSeat,
    SetSpeed,
    Speak,
    Stop,
    gathers,
    waiter,
)
from .computers import BotFactory as BotFactory  # re-exported: the server's app uses it
from .computers import Computers, jittered
from .dealing import Shuffle
from .deps import HISTORY_LIMIT as HISTORY_LIMIT  # re-exported
from .deps import Resumed, TableDeps
from .errors import (
    NOT_OURS,
    NOT_STORED,
    REPLACED_TEXT,
    STOPPED,
    SeatReplaced,
)
from .errors import NotStored as NotStored  # re-exported: the server imports it from here
from .errors import TableError as TableError
from .errors import TableStopped as TableStopped
from .events import Frame
from .fanout import Fanout, Subscriber
from .frames import Frames
from .inbox import Inbox
from .kind import PRACTICE, TableKind, TableObserver, TurnPolicy
from .logcontext import TABLE_ID
from .moves import last_summary, move_events
from .outbox import Outbox
from .pacing import SPEEDS, TimerHandle
from .presence import AWAY_TOO_LONG, LEFT, Presence, SpectatorCount
from .presence import SPECTATOR_COUNT_EVERY as SPECTATOR_COUNT_EVERY  # re-exported
from .records import game_record, public_record
from .rematch import EXPIRED, KEEP, REFUSED, STARTED, RematchError, RematchTracker, rematch_order
from .rematch import LEFT as LEFT_TABLE
from .saving import TableSaver, TableState
from .seats import SeatKey, TableConfig
from .snapshot import Snapshots
from .talk import Talk, is_silent
from .wire import (
    ClosedEvent,
    DealEvent,
    EventBody,
    HandSummary,
    NextCommitment,
    ReplacedEvent,
    SayEvent,
    TableSnapshot,
)

log = logging.getLogger(__name__)

@dataclass(slots=True)
class _Kept:
    """The decisions as last stored: what a failed save goes back to."""

    game: GameState
    shuffle: Shuffle  # a copy of ``shuffle_of`` as it was at ``shuffle_at`` changes
    shuffle_of: Shuffle
    shuffle_at: int
    policy: TurnPolicy
    replaced: dict[int, str]
    closed: str | None
    last_hand: str | None
    summary: HandSummary | None
    clock_played: list[tuple[int, int]]


class TableActor:
    """A table: its queue of inputs, handled one at a time, and the parts around it."""

    def __init__(self, config: TableConfig, deps: TableDeps,
                 start: Resumed | None = None) -> None:
        """A table from its settings, run with ``deps``, from ``start`` (None: a new
        game)."""
        start = start or Resumed()
        scheduler = deps.scheduler
        self.config = config
        """The table's fixed settings."""
        self.kind = deps.kind or TableKind(config.kind)
        """What this kind of table allows (hints) and does (its clock, its finish)."""
        self.observer = deps.observer or TableObserver()
        """Told of moves, saves and bot decisions (the server's metrics)."""
        self.scheduler = scheduler
        """Where time comes from."""
        self.pacing = deps.pacing
        """Bot delay and pauses."""
        self._pace_for = deps.pace_for
        self.store = deps.store
        """Where the game is saved, before any change is shown (None: nowhere)."""
        self.policy = deps.policy or TurnPolicy()
        """Turn deadlines (none at practice tables)."""
        self.game = start.game or GameState(config.rules, config.first_dealer)
        """The game now."""
        self._shuffle = Shuffle(deps.seed_source, seeds=start.seeds,
                                client_seeds=start.client_seeds, state=start.shuffle)
        self.on_finish = list(deps.on_finish)
        """Hooks called once when the game ends."""
        self.closed: str | None = None
        """Why the table was closed before its game ended (a person left a coin game)."""
        self.last_hand: str | None = None
        """Why the table ends once the hand in play is over (a tournament round's time ran
        out); None: it plays on."""
        self.guard = deps.guard
        """Whether this process may still run the table (None: always)."""
        self.on_stale = deps.on_stale
        """Told the table's id when a newer owner's fence refused a save."""
        self._rng = deps.rng or random.Random()
        self._stopping = False
        self._clock_played: list[tuple[int, int]] = []  # (hand number, history index)
        self._computers = Computers(deps.bot_factory or make_bot, self.observer, config.seats)
        self._bots = self._computers.bots  # the same dict: who a computer plays
        kept_out = {seat: why for seat, why in (start.replaced or {}).items()
                    if 0 <= seat < 4 and not config.seats[seat].is_bot()}
        for seat in kept_out:
            self._computers.take_over(self.id, seat, self.kind.replacement_level)
            self.policy.forget(seat)
        # The parts that wake the table later post to its queue (open while its loop runs).
        self._queue = Inbox[Command]()
        post = self._queue.post
        self._agenda = Agenda(scheduler, post)
        self._people = Presence(scheduler, post, replaced=kept_out, seen=start.seen,
                                away_left=start.away_left)
        self._snapshots = Snapshots()  # (its seats kept while they stay the same)
        self._settings = 0  # how often config.extra changed (a frame carries it)
        # The fan-out draws each reader's table from the frames the loop hands it: nothing
        # it holds reaches back into the actor.
        self._fanout = Fanout(config.id, self._snapshots.drawer(config), deps.history_limit,
                              scheduler.now, self._snapshots.seat_view,
                              [i for i in range(4) if not config.seats[i].is_bot()],
                              self._snapshots.plain_move)
        self._audience = Audience(
            config.seats, self._fanout, self._people,
            SpectatorCount(scheduler, post), self._bots)
        self._frames = Frames(self._audience, self._agenda, self.kind.replacement_level)
        self._busy = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._saver = TableSaver(config)
        self._stopper: asyncio.Future[None] | None = None  # stopping itself (fenced out)
        self.last_active = scheduler.now()
        """When the table last handled an input (scheduler time)."""
        self._summary = last_summary(self.game, self._shuffle)
        self._rematch = RematchTracker()  # in memory only (rematch.py): not stored
        self._rematch_timer: TimerHandle | None = None
        self._talk = Talk()  # who said what when: the quick messages' rate
        self._kept: _Kept | None = None  # the decisions last kept (self._keep)
        self._keep()
        self._outbox = Outbox(self._fanout, self.observer, self._agenda.retry, scheduler.now,
                              self._frame(start.version))

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
        if self._fanout.subscribers or not self._queue.empty():
            return False
        if self.finished:
            return True
        waiting_for_person = self._agenda.deadline is None and self.game.to_act is not None \
            and self.game.to_act not in self._bots
        return waiting_for_person and now - self.last_active >= idle_after

    @property
    def subscribed(self) -> int:
        """How many connections (seats and spectators) receive this table's events, counting
        those whose join or leave waits its turn in the queue (the table may be busy
        storing a move)."""
        return self._audience.subscribed

    @property
    def running(self) -> bool:
        """Whether the actor's task is alive."""
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        """Start the actor's task and whatever is due (the first deal, a bot's move)."""
        if self._task is None:
            self._stopping = False
            self._task = asyncio.get_running_loop().create_task(self._run(), name=self.id)
            self._queue.open = True  # the parts' timers post from now on
            self._schedule()
            self._said(self._audience.resume(None if self.finished else self.kind.away_grace))
            self._outbox.show()  # who is away: connection facts, shown without a save
            self._refresh()  # snapshots show a deadline started here

    async def stop(self, reason: str = STOPPED) -> None:
        """Stop the task: moves and joins are refused from now on, pending timers are
        cancelled, inputs still queued are refused, and subscribers are released with
        ``reason`` (the table can be loaded again later)."""
        self._stopping = True
        self._agenda.cancel()
        if self._rematch_timer is not None:
            self._rematch_timer.cancel()
        self._audience.cancel()
        self._computers.drop()
        if self.running:
            stop = Stop()
            self._queue.put(stop)
            await stop.done
        self._task = None
        _refuse_queued(self._queue)
        self._audience.release_all(reason)
        out = self._outbox
        if self.store is not None and not out.fenced and (self._people.away or out.unsaved):
            async with self._busy:
                await out.save_quietly(self._save)  # the grace left, so a restart resumes it

    async def settle(self) -> None:
        """Wait until every queued input has been handled (and stored), and any
        computer's thinking has ended (for tests)."""
        while True:
            await self._queue.join()
            thinking = self._computers.thinking
            if thinking is None or thinking.task.done():
                break
            await self._computers.settled()

    # -- inputs ---------------------------------------------------------------------------

    async def act(self, seat: int, text: str) -> None:
        """A person's move in notation; raises :class:`TableError` (nothing changes) if refused."""
        self._check_open()
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put(Move(seat, text, done))
        if self.running and self.store is None and not self.on_finish \
                and len(self._queue) == 1 and not self._busy.locked():
            # The table is idle and this move is the only input queued: take it from the
            # queue and handle it here, still one input at a time (the lock), saving the
            # task switches on the way to everyone's update. (Without a store or finish
            # hooks handling a move never waits, so it cannot be cut off half-way; a save
            # could be, so a table with a store handles every input in its own task.)
            cmd = self._queue.take_now()
            await self._handle_batch(cmd)
        await done

    async def go_on(self, seat: int, hand_number: int) -> None:
        """The person at a table with no other person is done reading hand
        ``hand_number``'s result: the next hand is dealt now, not after the hold. Anywhere
        else (other people wait too, or that hand is not the last one over) nothing
        happens; a seat with no person raises :class:`TableError`."""
        await self._input(lambda done: GoOn(seat, hand_number, done))

    async def set_speed(self, seat: int, speed: str) -> None:
        """The person at a practice table chose the computers' ``speed`` (from the next
        pause on); :class:`TableError` where the speed is not the person's to change."""
        await self._input(lambda done: SetSpeed(seat, speed, done))

    async def rematch(self, seat: int, accept: bool, partners: str = KEEP) -> None:
        """The person at ``seat`` offers a rematch or accepts the one offered (``accept``),
        or declines it; ``partners`` (``keep`` or ``change``) is an offer's choice of seats.
        :class:`TableError` (nothing changes) if refused: the game is not over, the seat
        is not a person's, the offer ended."""
        await self._input(lambda done: RematchAnswer(seat, accept, partners, done))

    async def say(self, seat: int, message: str) -> None:
        """The person at ``seat`` says quick message ``message`` (an id of
        :data:`~.talk.QUICK_MESSAGES`) to the table: published to every seat and spectator
        as a ``say`` event; :class:`TableError` (nothing changes) where :mod:`.talk`
        refuses it (a hand in play, the rate, a silent table ...)."""
        await self._input(lambda done: Speak(seat, message, done))

    async def _input(self, make: Callable[[asyncio.Future[None]], Command]) -> None:
        self._check_open()
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put(make(done))
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
            raise TableError("this table does not allow spectators: it cannot be watched")
        if subscriber.seat is not None:
            raise TableError("a spectator has no seat")
        await self.join(subscriber, since)

    async def join(self, subscriber: Subscriber, since: int | None = None) -> None:
        """Subscribe; the subscriber gets a ``joined`` message, then the events after
        ``since`` if they are all still in the history, else a snapshot."""
        self._check_open()
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put(Enter(subscriber, since, done))
        self._audience.joining += 1
        try:
            await done
        finally:
            self._audience.joining -= 1

    async def close(self, reason: str) -> None:
        """End the table before its game is over: nothing more is played; saved as finished.
        :class:`NotStored` if that cannot be stored (the table plays on);
        :class:`TableStopped` if another process runs the table now (nothing closed here:
        the close is for the new owner)."""
        if self.running and not self._stopping:
            done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._queue.put(Close(reason, done))
            try:
                await done
                return
            except NotStored:
                raise
            except TableError:  # the table stopped before it got there: close it here
                pass
        if self.closed is not None or self.game.is_over:
            return
        if self._outbox.fenced:
            raise TableStopped(NOT_OURS)
        self.closed = reason
        if self.store is None:
            return
        async with self._busy:
            try:
                await self._save()
            except StaleFenceError:
                log.warning("table %s: not closed here: another process runs it", self.id)
                self.closed = None
                raise TableStopped(NOT_OURS) from None
            except Exception as e:
                self.closed = None
                log.warning("table %s: could not store its closing: %s", self.id, e)
                raise NotStored(NOT_STORED) from e

    async def close_after_hand(self, reason: str) -> bool:
        """End the table once the hand in play is over, at once if no hand is in play:
        nothing more is dealt, it is saved as closed with ``reason``, and the finish hooks
        run as at a game's end. True if it is closed, or closes after the hand in play (by
        this request or an earlier one); False if its game ended first.
        :class:`TableStopped` if it does not run here now (nothing changed)."""
        self._check_open()
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put(LastHand(reason, done))
        await done
        return self.closed is not None or self.last_hand is not None

    def _check_open(self) -> None:
        """Refuse at once if the table is not running: a queued input would never be
        handled, and whoever waits for it would wait for ever."""
        if self._stopping or not self.running:
            raise TableStopped(STOPPED)

    async def contribute(self, seat: int, hand_number: int, seed: str) -> None:
        """A person's shuffle seed for hand ``hand_number``, sent after its commitment; raises
        :class:`TableError` (nothing changes) if refused."""
        await self._input(lambda done: Contribute(seat, hand_number, seed, done))

    async def replace(self, seat: int, reason: str = LEFT) -> bool:
        """A computer plays ``seat`` to the end of the game (its person left); True if it
        was taken over now, False if it already was (or the game is over)."""
        self._check_open()
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._queue.put(ReplaceSeat(seat, reason, done))
        return await done

    def is_replaced(self, seat: int) -> bool:
        """Whether a computer plays ``seat`` since its person left."""
        return seat in self.replaced

    def away_seconds(self, seat: int) -> float | None:
        """Seconds left of an away person's grace, or None if they are not away."""
        return self._people.seconds_left(seat)

    def leave(self, subscriber: Subscriber) -> None:
        """Unsubscribe (the connection closed)."""
        if self.running:
            self._queue.put(Leave(subscriber))
            self._audience.leaving += 1
        else:
            self._fanout.leave(subscriber)

    # -- reading ----------------------------------------------------------------------------

    def seat_of(self, token: SeatKey) -> int | None:
        """The seat a token (or a signed-in account) belongs to, or None."""
        return self.config.seat_of(token)

    @property
    def version(self) -> int:
        """The version of the last event (shown or waiting for its save)."""
        return self._outbox.version

    @property
    def shown_version(self) -> int:
        """The version of the last event sent (later ones wait for their save)."""
        return self._outbox.shown_version

    def view(self, seat: int) -> HandView | None:
        """The seat's view of the current hand as shown, or None before the first deal."""
        current = self._outbox.shown_frame().game.current
        return current.view(seat) if current is not None else None

    def snapshot(self, seat: int | None) -> TableSnapshot:
        """The seat's TABLE object as shown (a change waiting for its save is not in it)."""
        frame = self._outbox.shown_frame()
        # Which moves of this hand the clock played, so a seat that rejoins with a
        # snapshot (not the events) still sees them marked.
        hand = len(frame.game.all_hands())
        return self._snapshots.render(self.config, frame, seat, self.policy,
                                      self.scheduler.now(),
                                      [i for h, i in self._clock_played if h == hand])

    def _clock_played_now(self) -> list[int]:
        """Which moves of the shown hand the clock played, so a seat that rejoins with a
        snapshot (not the events) still sees them marked."""
        hand = len(self._outbox.shown_frame().game.all_hands())
        return [i for h, i in self._clock_played if h == hand]

    def record(self) -> GameRecord:
        """The full record so far (private: includes the hand in progress and its seed)."""
        return game_record(self.game, self.seeds, self.client_seeds)

    def public_record(self) -> GameRecord:
        """The record as shown, without the hand in progress."""
        game = self._outbox.shown_frame().game
        return public_record(game_record(game, self.seeds, self.client_seeds))

    def stored(self) -> StoredGame:
        """The table as storage keeps it, its record whole (:meth:`TableSaver.whole`: the
        next save writes the record whole too; its meta is not pre-encoded)."""
        return self._saver.whole(self._state())

    def _state(self) -> TableState:
        """The table as a save writes it now."""
        meta = {"policy": self.policy.to_json(), "shuffle": self._shuffle.to_json(),
                **self._people.to_json()}
        if self.closed:
            meta["closed"] = self.closed
        if self.last_hand:
            meta["last_hand"] = self.last_hand
        return TableState(self.game, self.seeds, self.client_seeds, self._outbox.version,
                          self.finished, meta)

    def _save(self) -> Awaitable[None]:
        """Save the table (its record's new lines since the last save): the saver's save,
        awaited by the caller (no coroutine of its own on the way to every save)."""
        assert self.store is not None
        return self._saver.save(self.store, self._state())

    @property
    def seeds(self) -> list[str]:
        """The shuffle seed of each hand dealt (the current one is secret)."""
        return self._shuffle.seeds

    @property
    def client_seeds(self) -> list[dict[int, str]]:
        """The people's seeds mixed into each hand dealt, by seat."""
        return self._shuffle.client_seeds

    # -- the loop -----------------------------------------------------------------------

    async def _run(self) -> None:
        TABLE_ID.set(self.id)  # this task's own context: its log lines name the table
        try:
            while True:
                cmd = await self._queue.take()
                if isinstance(cmd, Stop):
                    self._queue.task_done()
                    cmd.done.set_result(None)
                    return
                await self._handle_batch(cmd)
        finally:
            self._queue.open = False  # the loop ended: what timers post is dropped

    async def _handle_batch(self, first: Command) -> None:
        """Handle ``first`` (taken from the queue), and if it is a person's input, the
        people's inputs queued behind it (they came while the last save was in flight);
        then store the changes and show them (:meth:`_store`)."""
        taken = 1
        try:
            async with self._busy:
                await self._handle_one(first)
                while gathers(first) and taken < GATHER_MOST and gathers(self._queue.peek()):
                    cmd = self._queue.take_now()
                    taken += 1
                    await self._handle_one(cmd)
                if self._outbox.pending:
                    with contextlib.suppress(TableError):  # undone; the callers were told
                        await self._store()
        finally:
            for _ in range(taken):
                self._queue.task_done()

    async def _handle_one(self, cmd: Command) -> None:
        if isinstance(cmd, Leave):
            self._audience.leaving -= 1
        done = waiter(cmd)
        if self._outbox.fenced or (self.guard is not None and not self.guard()):
            # Another process may own the table now: act on nothing, tell a waiting caller.
            _fail(done, TableError(NOT_OURS))
            return
        try:
            self.last_active = self.scheduler.now()
            await self._handle(cmd)
        except TableError as e:  # a refusal, or a save failed: the changes were undone
            _fail(done, e)
        except Exception:  # a bug must not kill the table, nor leave a caller waiting
            log.exception("table %s: error handling %r", self.id, cmd)
            error = TableError("the table could not do that (a server error)")
            self._undo(error)  # nothing half done is kept
            _fail(done, error)

    async def _handle(self, cmd: Command) -> None:
        """Do what ``cmd`` asks. A refusal (:class:`TableError`) goes to whoever waits for
        it (:meth:`_handle_one`); an input due at a step the table has left is void."""
        step = self._agenda.step
        match cmd:
            case Move(seat=seat, text=text, done=done):
                await self._on_act(seat, text)
                self._outbox.answer(done, None)
            case BotTurn(step=at) if at == step:
                await self._on_bot_turn()
            case Deadline(seat=seat, step=at) if at == step:
                await self._on_deadline(seat)
            case PrepareTimeout(seat=seat, step=at, deadline=deadline) if at == step:
                self._prepare_timeout(seat, deadline)
            case DealNext(step=at) if at == step and self.game.needs_deal:
                await self._deal()
            case Enter(subscriber=sub, since=since, done=done):
                changed = self._said(self._audience.join(
                    sub, since, self._outbox.shown_frame(), self._clock_played_now(),
                    self._outbox.frame.spectators))
                if not done.done():
                    done.set_result(None)
                self._outbox.noted(changed)
            case Leave(subscriber=sub):
                grace = None if sub.seat is None else self._away_grace(sub.seat)
                self._outbox.noted(self._said(
                    self._audience.leave(sub, grace, self._outbox.frame.spectators)))
                self._rematch_left(sub.seat)
            case CountSpectators():
                self._said(self._audience.count_due(self._outbox.frame.spectators))
            case Contribute(seat=seat, hand_number=number, seed=seed, done=done):
                self._on_seed(seat, number, seed)
                self._outbox.answer(done, None)
            case ReplaceSeat(seat=seat, reason=reason, done=replaced):
                replaced.set_result(await self._replace(seat, reason))
            case AwayDue(seat=seat, generation=generation):
                if self._people.is_due(seat, generation):
                    if self.finished:
                        self._people.back(seat)
                    else:
                        await self._replace(seat, AWAY_TOO_LONG)
            case GoOn(seat=seat, hand_number=number, done=done):
                await self._on_go_on(seat, number)
                self._outbox.answer(done, None)
            case SetSpeed(seat=seat, speed=speed, done=done):
                self._on_pace(seat, speed)
                self._outbox.answer(done, None)
            case RematchAnswer(seat=seat, accept=accept, partners=partners, done=done):
                await self._on_rematch(seat, accept, partners)
                self._outbox.answer(done, None)
            case RematchDue():
                offer = self._rematch.offer
                if offer is not None and offer.is_open:
                    if self.scheduler.now() < offer.ends_at:  # (a timer a little early)
                        self._rematch_timer = self.scheduler.call_later(
                            offer.ends_at - self.scheduler.now(), self._rematch_due)
                    else:
                        self._rematch_shown(self._rematch.end(EXPIRED))
            case Speak(seat=seat, message=message, done=done):
                self._on_say(seat, message)
                self._outbox.answer(done, None)
            case Close(reason=reason, done=done):
                if self.closed is None and not self.game.is_over:
                    self.closed = reason
                    self._outbox.decided()
                    self._agenda.void()  # a computer's move or a clock already queued is void
                    self._schedule()
                    self._hold([ClosedEvent(reason=reason)])
                    await self._store()
                done.set_result(None)
            case LastHand(reason=reason, done=done):
                await self._on_last_hand(reason)
                self._outbox.answer(done, None)

    # -- handlers ---------------------------------------------------------------------------

    async def _on_act(self, seat: int, text: str) -> None:
        self._check_person(seat)
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
        finish = self._advance(new, seat, action)
        if finish is not None:
            await finish

    async def _on_last_hand(self, reason: str) -> None:
        """Play no hand after the one in play (none in play: the table ends now)."""
        if self.finished or self.last_hand is not None:
            return
        self.last_hand = reason
        self._outbox.decided()
        hand = self.game.current
        if hand is not None and not hand.is_over:
            return  # saved (decided): a restart still ends the table after this hand
        self.closed = reason
        self._agenda.void()  # the next deal already queued is void
        self._schedule()
        self._hold([ClosedEvent(reason=reason)])
        if self.on_finish:
            await self._finish()

    def _on_seed(self, seat: int, hand_number: int, seed: str) -> None:
        self._check_person(seat)
        if self.finished:
            raise TableError("the game is over: no more hands are dealt")
        if not self._shuffle.take(seat, hand_number, len(self.game.all_hands()) + 1, seed):
            return  # the same seed again (a page reloaded): taken already, nothing changes
        self._outbox.decided()
        if self.game.current is None and self._all_seeds_in():
            self._agenda.later(0.0, DealNext(self._agenda.step))  # everyone's seed is in: deal now

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
            self._agenda.cancel()
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
        self._settings += 1  # (the next move shown compares the whole table)
        self._saver.settings_changed()
        self._outbox.decided()
        self._schedule()  # a pause under way is measured again at the new pace

    def _on_say(self, seat: int, message: str) -> None:
        """A quick message: not a decision (nothing of the game changes), so it is shown
        even if its save fails, like a connection fact; the save keeps versions in step."""
        self._check_person(seat)
        now = self.scheduler.now()
        refused = self._talk.refusal(
            seat=seat, message=message, sitting=self.config.seats[seat], game=self.game,
            closed=self.closed, allowed=self.kind.talk, silent=is_silent(self.config.extra),
            now=now)
        if refused is not None:
            raise refused
        self._talk.said(seat, now)
        self._hold([SayEvent(seat=seat, message=message)])  # type: ignore[arg-type]
        self._outbox.noted(True)

    def _all_seeds_in(self) -> bool:
        """Whether every person's seat has sent its seed for the next hand."""
        return self._shuffle.all_in([i for i in range(4) if i not in self._bots])

    async def _on_bot_turn(self) -> None:
        seat = self.game.to_act
        if seat is None or seat not in self._bots:
            return
        level = self.config.seats[seat].level or "medium"
        action = await self._thought(self._bots[seat], level, seat)
        self.observer.moved("computer")
        finish = self._advance(self.game.apply(action, seat=seat), seat, action)
        if finish is not None:
            await finish

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
        finish = self._advance(self.game.apply(action, seat=seat), seat, action,
                               timed_out=True)
        if finish is not None:
            await finish

    async def _thought(self, bot: Any, level: str, seat: int) -> Action:
        """The move thought out for ``seat`` since its turn started; worked out now if
        nothing was (``bot`` None: a fresh player of ``level``, for a person out of time)."""
        return await self._computers.move(
            bot, level, lambda: self.game.current.view(seat),  # type: ignore[union-attr]
            self._agenda.step, seat, self.config.seats[seat].bot_seed)

    def _think_ahead(self, bot: Any, level: str, seat: int) -> None:
        """Start working out ``seat``'s move now (published later, at the table's pace)."""
        self._computers.think_ahead(bot, level, self.game.current,  # type: ignore[arg-type]
                                    self._agenda.step, seat)

    def _prepare_timeout(self, seat: int, deadline: float) -> None:
        """A person's clock is about to run out: the computer that will move for them
        starts thinking, so its move lands at the deadline, however long it thinks."""
        now = self.scheduler.now()
        if self.game.to_act == seat:
            level = self.policy.on_timeout(seat, now)
            self._think_ahead(self._computers.fresh(level, self.config.seats[seat].bot_seed),
                              level, seat)
        self._agenda.later(deadline - now, Deadline(seat, self._agenda.step))

    async def _deal(self) -> None:
        new = self._shuffle.deal(self.game, self.config.rules.benny)
        seed, clients = self.seeds[-1], self.client_seeds[-1]
        assert new.current is not None
        number = len(new.all_hands())
        deal = DealEvent(dealer=new.current.dealer, hand_number=number,
                         commitment=commitment(seed),
                         client_seeds={str(s): c for s, c in sorted(clients.items())},
                         next_commitment=NextCommitment(
                             hand_number=number + 1,
                             commitment=self._shuffle.next_commitment()))
        finish = self._commit(new, [deal])
        if finish is not None:
            await finish

    def _advance(self, new: GameState, seat: int, action: Action,
                 timed_out: bool = False) -> Awaitable[None] | None:
        """``seat``'s ``action`` took the game to ``new``: its events are held (what
        :meth:`_commit` returns is to be awaited)."""
        events, summary = move_events(self.game, new, seat, action, self._shuffle,
                                      timed_out=timed_out)
        if summary is not None:  # the hand ended
            self._summary = summary
            self.policy.hand_over(self.scheduler.now())
        return self._commit(new, events)

    def _commit(self, new: GameState, events: list[EventBody]) -> Awaitable[None] | None:
        """The game is ``new`` (a decision): what is due is scheduled again and
        ``events`` held for the next save. If that ended the game and the table has finish
        hooks, what stores it and runs them (:meth:`_finish`), for the caller to await;
        else None (most moves: no coroutine of their own)."""
        finished_now = new.is_over and not self.game.is_over
        self.game = new
        if self.last_hand is not None and self.closed is None and not new.is_over \
                and new.current is not None and new.current.is_over:
            # The hand in play when the table was told to stop is over: so is the table.
            self.closed = self.last_hand
            events = [*events, ClosedEvent(reason=self.last_hand)]
            finished_now = True
        self._agenda.step += 1  # what was due is void (Agenda.void, without the call a move)
        self._outbox.decided()
        self._schedule()
        self._hold(events)
        return self._finish() if finished_now and self.on_finish else None

    async def _finish(self) -> None:
        """The finished record is stored and the hooks (a coin payout) run before anyone is
        told the game is over, so the balance they look at is already settled."""
        await self._store(show=False)
        for hook in self.on_finish:
            try:
                await hook(self)
            except Exception:
                log.exception("table %s: finish hook failed", self.id)

    def _frame(self, version: int) -> Frame:
        """The table now, as the frame of the event at ``version``."""
        return self._frames.make(version, self.game, self._shuffle, self._summary, self.closed,
                                 self._rematch.offer, self.policy, self._settings)

    def _hold(self, events: list[EventBody]) -> None:
        """Number ``events`` and hold them, with the table right after them, until stored."""
        out = self._outbox
        out.hold(events, self._frame(out.version + len(events)))

    def _said(self, said: Said) -> bool:
        """Hold each group of events a part yields, in order, each as it comes (so its
        frame is the table right after it); what the part returns (worth a save)."""
        while True:
            try:
                events = next(said)
            except StopIteration as end:
                return bool(end.value)
            self._hold(events)

    def _refresh(self) -> None:
        """The table changed without an event (a clock started): the frame is made again,
        and what a failed save goes back to is the table now."""
        self._outbox.refresh(self._frame(self._outbox.version))
        self._keep()

    async def _store(self, *, show: bool = True) -> None:
        """Save the table (if anything changed), then (``show``) show what waited for it
        (:meth:`Outbox.store`); the decisions stored are kept. A failed save goes back to
        the decisions last kept (:meth:`_undone`) and raises; a newer owner's fence stops
        the table here (:meth:`_fenced_out`)."""
        out = self._outbox
        try:
            kept = await out.store(None if self.store is None else self._save, show=show)
        except TableError:
            self._undone()
            if out.fenced:
                self._fenced_out()
            raise
        if kept:
            self._keep()

    def _undo(self, error: TableError) -> None:
        """Drop every decision since the last stored one (the callers waiting get
        ``error``), and go back to them (:meth:`_undone`)."""
        self._outbox.undo(error)
        self._undone()

    def _undone(self) -> None:
        """The outbox dropped the decisions not stored: the table goes back to those kept
        (what is due is scheduled again, after the pause), and shows what stays."""
        assert self._kept is not None
        self._go_back(self._kept)
        out = self._outbox
        out.refresh(self._frame(out.version))
        out.show()

    def _keep(self) -> _Kept:
        """The decisions now, to go back to if the next save fails. The shuffle is copied
        only when it changed since the last kept (once a hand, not once a move)."""
        shuffle, last = self._shuffle, self._kept
        if last is not None and last.shuffle_of is shuffle and last.shuffle_at == shuffle.changes:
            copy = last.shuffle  # never changed itself: _go_back works on a copy of it
        else:
            copy = shuffle.copy()
        kept = self._kept = _Kept(self.game, copy, shuffle, shuffle.changes, self.policy.copy(),
                                  dict(self.replaced), self.closed, self.last_hand,
                                  self._summary,
                                  list(self._clock_played))
        return kept

    def _go_back(self, kept: _Kept) -> None:
        """Go back to the decisions last stored (a save failed), and schedule again what
        is due for them (after the pause the outbox's retry sets)."""
        self.game = kept.game
        self._shuffle = kept.shuffle.copy()
        self.policy = kept.policy.copy()
        for seat in [s for s in self.replaced if s not in kept.replaced]:
            self._computers.give_back(seat)  # its person plays it again
        self._people.replaced = dict(kept.replaced)
        self.closed = kept.closed
        self.last_hand = kept.last_hand
        self._summary = kept.summary
        self._clock_played = list(kept.clock_played)
        self._agenda.void()  # whatever was scheduled for the undone state is void
        self._schedule()

    def _fenced_out(self) -> None:
        """A newer owner's fence refused a save (the outbox undid it): act on nothing more,
        and have the table stopped here (by :attr:`on_stale`, else by itself)."""
        self._agenda.cancel()
        self._computers.drop()
        if self.on_stale is not None:
            self.on_stale(self.id)
        else:
            self._stopper = asyncio.ensure_future(self.stop(NOT_OURS))

    # -- a rematch (rematch.py) ----------------------------------------------------------

    async def _on_rematch(self, seat: int, accept: bool, partners: str) -> None:
        self._check_person(seat)
        start = self.kind.rematch
        if start is None:
            raise RematchError("a rematch is offered at tables with other people")
        if not self.game.is_over:
            raise RematchError("the game is not over: a rematch is offered at its end")
        rematch, seats = self._rematch, self.config.seats
        offer = rematch.offer
        if offer is None:
            if not accept:
                raise RematchError("nobody has offered a rematch")
            if any(s.is_outside_bot() for s in seats):
                raise RematchError("an outside bot played here: a rematch is for people "
                                   "and the site's computers")
            people = tuple(i for i in range(4) if not seats[i].is_bot())
            connected = self._audience.connected()
            absent = {i: seats[i].name for i in people
                      if i in self.replaced or not connected[i]}
            event = rematch.make(seat, partners, people, self.scheduler.now(), absent)
            self._rematch_timer = self.scheduler.call_later(
                rematch.offer.ends_at - self.scheduler.now(),  # type: ignore[union-attr]
                self._rematch_due)
        else:
            event = rematch.answer(seat, accept)
        events = [event]
        if rematch.all_accepted():
            events.append(await self._start_rematch(start))
        self._rematch_shown(*events)

    async def _start_rematch(self, start: Any) -> Any:
        """The new table, opened by the kind's hook: the event that says it started, or
        why it could not (nothing else changes here)."""
        offer = self._rematch.offer
        assert offer is not None
        try:
            table = await start(self.config, rematch_order(offer.partners))
        except DomainError as e:
            return self._rematch.end(REFUSED, message=f"The rematch could not start: {e.message}")
        except Exception:
            log.exception("table %s: the rematch could not start", self.id)
            return self._rematch.end(REFUSED, message="The rematch could not start (a server "
                                                      "error): find another game")
        return self._rematch.end(STARTED, table=table)

    def _rematch_left(self, seat: int | None) -> None:
        """A connection closed: if it was a person's last one, an open offer ends."""
        offer = self._rematch.offer
        if seat is None or offer is None or not offer.is_open or seat not in offer.people \
                or self._audience.connected()[seat]:
            return
        self._rematch_shown(self._rematch.end(LEFT_TABLE, seat=seat))

    def _rematch_due(self) -> None:
        self._queue.post(RematchDue())

    def _rematch_shown(self, *events: Any) -> None:
        """Hold a rematch's events (a connection fact, not a decision: shown even if its
        save fails); an ended offer's timer is stopped."""
        bodies = [e for e in events if e is not None]
        offer = self._rematch.offer
        if offer is not None and not offer.is_open and self._rematch_timer is not None:
            self._rematch_timer.cancel()
            self._rematch_timer = None
        if bodies:
            self._hold(bodies)
            self._outbox.noted(True)

    # -- away and replaced -----------------------------------------------------------------

    @property
    def replaced(self) -> dict[int, str]:
        """Seats a computer plays since their person left, and why (``left``, ``away``)."""
        return self._people.replaced

    def _away_grace(self, seat: int) -> float | None:
        """How long ``seat``'s person may be away before a computer takes the seat (None:
        never away now: no grace at this kind of table, the game is over, or a computer
        plays the seat)."""
        if self.finished or seat in self._bots:
            return None
        return self.kind.away_grace

    async def _replace(self, seat: int, reason: str) -> bool:
        """A computer takes ``seat`` for the rest of the game: the token no longer moves,
        the clock is dropped; stored and shown, then the person's connections are released
        and the kind's hooks run (a stake table charges the leaving fee). :class:`NotStored`
        if it cannot be stored (nothing changed; a grace that ran out is tried again)."""
        if not 0 <= seat < 4 or self.config.seats[seat].is_bot():
            raise TableError("that seat is not a person's")
        if seat in self.replaced or self.finished:
            return False
        undo = self._people.replace(seat, reason)
        self._computers.take_over(self.id, seat, self.kind.replacement_level)
        self.policy.forget(seat)
        self._outbox.decided()
        if self.game.to_act == seat:
            self._agenda.void()  # the person's clock and its timeout move are void
            self._schedule()
        self._hold([ReplacedEvent(seat=seat, reason=reason,  # type: ignore[arg-type]
                                  level=self.kind.replacement_level)])
        if self.game.current is None and self._all_seeds_in() and self.game.needs_deal:
            self._agenda.later(0.0, DealNext(self._agenda.step))
        try:
            await self._store()
        except NotStored:
            undo(self._agenda.retry.at)  # the person holds the seat (its grace tried again later)
            raise
        self._audience.release(seat, REPLACED_TEXT)
        for hook in self.kind.on_replaced:
            try:
                await hook(self, seat, reason)
            except Exception:
                log.exception("table %s: replace hook failed", self.id)
        return True

    # -- helpers ---------------------------------------------------------------------------

    def _schedule(self) -> None:
        """Work out what is due next by itself (the next deal, a computer's move, a
        person's clock) and put it on the agenda, in place of whatever was."""
        agenda = self._agenda
        agenda.clear()
        self._computers.drop()
        if self._task is None or self._outbox.fenced:
            return
        game = self.game
        step = agenda.step
        if game.is_over or self.closed is not None:
            return
        if game.needs_deal:
            delay = 0.0 if game.current is None else self.pacing.hand_pause
            if game.current is None and not self._all_seeds_in():
                delay = self.pacing.seed_wait  # the first deal waits a little for seeds
            agenda.later(delay, DealNext(step))
            return
        seat = game.to_act
        assert seat is not None
        if seat in self._bots:
            # Think from the start of the turn; publish at the table's pace (computers.py),
            # and a lead after a trick waits for the trick pause (the trick is read).
            self._think_ahead(self._bots[seat], self.config.seats[seat].level or "medium", seat)
            wait = self.pacing.bot_wait(_leads_after_trick(game))
            agenda.later(jittered(wait, self._rng, self.pacing.jitter), BotTurn(step))
            return
        now = self.scheduler.now()
        deadline = self.policy.deadline(seat, now)
        if deadline is not None:
            agenda.deadline = (seat, deadline)
            # The computer that moves for a person out of time thinks a computer's delay
            # ahead, so its move lands on the deadline whatever it had to choose from.
            agenda.later(deadline - self.pacing.bot_delay - now,
                         PrepareTimeout(seat, step, deadline))


def _leads_after_trick(game: GameState) -> bool:
    """Whether the next move is a lead right after a completed trick (the trick is on view)."""
    hand = game.current
    return (hand is not None and not hand.is_over and bool(hand.tricks)
            and not hand.trick[1])


def _refuse_queued(queue: Inbox[Command]) -> None:
    """Fail every input left in a stopped table's queue, so nobody waits for it."""
    while not queue.empty():
        cmd = queue.take_now()
        queue.task_done()
        done = waiter(cmd)
        if done is not None and not done.done():
            if isinstance(cmd, Close):
                done.set_result(None)
            else:
                done.set_exception(TableStopped(STOPPED))


def _fail(done: asyncio.Future[Any] | None, error: Exception) -> None:
    """Tell whoever waits (if anyone still does) that their input failed with ``error``."""
    if done is not None and not done.done():
        done.set_exception(error)


def replaced_seats(meta: dict[str, Any]) -> dict[int, str]:
    """The seats a computer took over from people who left, with why, as a stored game's
    ``meta`` keeps them."""
    return {int(s): str(w) for s, w in (meta.get("replaced") or {}).items()}


def restore(stored: StoredGame, deps: TableDeps) -> TableActor:
    """A table rebuilt from storage (its game replayed from the record), not yet started."""
    config = TableConfig.from_json(stored.meta["config"])
    record = GameRecord.from_json(stored.record)
    game = record.replay() if record.hands else GameState(config.rules, config.first_dealer)
    meta = stored.meta
    actor = TableActor(config, deps, Resumed(
        game=game, seeds=[h.seed or "" for h in record.hands],
        client_seeds=[h.client_seeds for h in record.hands], shuffle=meta.get("shuffle"),
        version=stored.version,
        replaced=replaced_seats(meta),
        seen=[int(s) for s in meta.get("seen") or ()],
        away_left={int(s): float(t) for s, t in (meta.get("away") or {}).items()}))
    actor.policy.load_json(meta.get("policy") or {})
    actor.closed = meta.get("closed")
    actor.last_hand = meta.get("last_hand")
    return actor
