"""The table actor with fake time: commands in, events out, nothing sleeps."""

from __future__ import annotations

import asyncio
import copy
import functools
import random

import pytest
from msgspec import to_builtins

from euchre.cards import card_text
from euchre.shuffle import commitment, deck_from_seed, deck_of_deal
from euchre.storage import MemoryStore
from euchre.storage.base import FINISHED
from euchre.table.actor.actor import STOPPED, TableActor, TableError, restore
from euchre.table.actor.deps import TableDeps
from euchre.table.actor.events import ACTION, DEAL, GAME_OVER, HAND_OVER, PRESENCE, TRICK
from euchre.table.actor.kind import FinishedTable, TurnPolicy
from euchre.table.actor.pacing import ManualScheduler, Pacing
from table_helpers import (
    Recorder,
    fixed_bots,
    make_table,
    play_game,
    same_table,
    seeds,
    until_person,
)


async def test_first_hand_is_dealt_at_once_with_a_commitment() -> None:
    actor, _, _ = make_table()
    rec = Recorder(0, actor)
    actor.start()
    await actor.join(rec)
    await actor.settle()
    assert [m["type"] for m in rec.messages[:2]] == ["joined", "snapshot"]
    table = rec.messages[1]["table"]
    assert table["hand_number"] == 1
    assert table["commitment"] == commitment("test-0")
    assert len(table["view"]["hand"]) == 5
    await actor.stop()


async def test_a_whole_practice_game_to_the_end() -> None:
    actor, _, sched = make_table(pacing=None)
    rec = Recorder(0, actor)
    actor.start()
    await actor.join(rec)
    moves = await play_game(actor, sched, random.Random(1))
    assert actor.game.is_over and moves > 0
    kinds = [m["event"]["kind"] for m in rec.events()]
    assert kinds.count(GAME_OVER) == 1 and kinds[-1] == GAME_OVER
    # the first deal came before the person joined: it is in the snapshot
    assert kinds.count(DEAL) + 1 == kinds.count(HAND_OVER) == len(actor.game.all_hands())
    assert kinds.count(TRICK) == sum(len(h.tricks) for h in actor.game.all_hands())
    versions = [m["version"] for m in rec.events()]
    assert versions == list(range(versions[0], versions[0] + len(versions)))
    last = rec.last_table()
    assert last["game_over"] and last["winner"] == actor.game.winner
    assert max(last["score"]) >= 10
    # nothing more is scheduled once the game is over; the table stays viewable
    assert sched.next_due() is None
    assert to_builtins(actor.snapshot(0))["game_over"]
    stored = await actor.store.get(actor.id)  # type: ignore[union-attr]
    assert stored is not None and stored.status == "finished"
    await actor.stop()


async def test_each_bot_move_is_its_own_event_after_the_delay() -> None:
    actor, _, sched = make_table(first_dealer=0)  # West (1) bids first
    rec = Recorder(0, actor)
    actor.start()
    await actor.join(rec)
    await actor.settle()
    before = len(rec.events())
    sched.advance(0.49)
    await actor.settle()
    assert len(rec.events()) == before  # the bot waits its delay
    sched.advance(0.5 * actor.pacing.jitter + 0.01)  # and at most its jitter on top
    await actor.settle()
    new = rec.events()[before:]
    assert [m["event"]["kind"] for m in new] == [ACTION]
    assert new[0]["event"]["seat"] == 1
    await actor.stop()


async def test_an_illegal_move_is_refused_and_changes_nothing() -> None:
    actor, _, sched = make_table()
    rec = Recorder(0, actor)
    actor.start()
    await actor.join(rec)
    assert await until_person(actor, sched)
    game, version = actor.game, actor.version
    view = actor.view(0)
    assert view is not None
    held = set(view.hand)
    not_held = next(c for c in range(24) if c not in held)
    for text in ("play " + card_text(not_held), "bogus move",
                 "renege 1 by 0", "discard 9C" if view.phase != "discard" else "call XX"):
        with pytest.raises(TableError):
            await actor.act(0, text)
        assert actor.game is game and actor.version == version
    with pytest.raises(TableError, match="no seat"):
        await actor.act(1, "pass")
    assert actor.game is game and actor.version == version
    await actor.stop()


async def test_acting_out_of_turn_is_refused() -> None:
    actor, _, _ = make_table(first_dealer=0)
    actor.start()
    await actor.settle()
    assert actor.game.to_act == 1
    with pytest.raises(TableError, match="turn"):
        await actor.act(0, "pass")
    await actor.stop()


async def test_rejoin_with_since_gets_exactly_the_missing_events() -> None:
    actor, _, sched = make_table()
    first = Recorder(0, actor)
    actor.start()
    await actor.join(first)
    assert await until_person(actor, sched)
    seen = first.events()[-1]["version"]
    actor.leave(first)  # one event: seat 0 is away
    await actor.settle()
    back = Recorder(0, actor)
    back.folder = copy.deepcopy(first.folder)  # the same client: it holds its table
    await actor.join(back, since=seen)
    await actor.settle()
    assert back.messages[0]["type"] == "joined"
    replayed = [m["version"] for m in back.messages[1:] if m["type"] == "event"]
    assert replayed == [seen + 1, seen + 2]  # the missed event, then this join's presence
    assert not back.of_type("snapshot")
    seen = back.events()[-1]["version"]
    actor.leave(back)
    await actor.settle()
    view = actor.view(0)
    assert view is not None
    await actor.act(0, str(view.legal[0]))
    sched.advance(1.0)
    await actor.settle()
    assert actor.version > seen + 2  # several events missed: each is sent, in order
    again = Recorder(0, actor)
    again.folder = copy.deepcopy(back.folder)  # the same client: it holds its table
    await actor.join(again, since=seen)
    await actor.settle()
    assert not again.of_type("snapshot")
    assert [m["version"] for m in again.messages[1:]] == list(range(seen + 1, actor.version + 1))
    # folded, they give the table a new join is sent whole
    fresh = Recorder(0, actor)
    await actor.join(fresh)
    await actor.settle()
    assert same_table(again.last_table(), fresh.of_type("snapshot")[0]["table"])
    await actor.stop()


async def test_rejoin_with_a_version_too_old_or_unknown_gets_a_snapshot() -> None:
    actor, _, sched = make_table()
    actor._fanout.history = type(actor._fanout.history)(maxlen=3)
    actor.start()
    await actor.settle()
    for _ in range(6):
        sched.advance(0.5)
        await actor.settle()
    for since in (0, actor.version + 5, None):
        rec = Recorder(0, actor)
        await actor.join(rec, since=since)
        assert [m["type"] for m in rec.messages[:2]] == ["joined", "snapshot"]
        assert rec.messages[1]["version"] == rec.messages[0]["version"]
    await actor.stop()


async def test_presence_is_an_event() -> None:
    actor, _, _ = make_table()
    watcher = Recorder(0, actor)
    actor.start()
    await actor.join(watcher)
    await actor.settle()
    presence = [m["event"] for m in watcher.events() if m["event"]["kind"] == PRESENCE]
    assert presence == [{"kind": PRESENCE, "seat": 0, "connected": True}]
    assert watcher.last_table()["seats"][0]["connected"]
    await actor.stop()


async def test_the_seed_is_revealed_after_the_hand_and_matches_the_deal() -> None:
    actor, _, sched = make_table()
    rec = Recorder(0, actor)
    actor.start()
    await actor.join(rec)
    while not any(m["event"]["kind"] == HAND_OVER for m in rec.events()):
        assert await until_person(actor, sched)
        view = actor.view(0)
        assert view is not None
        await actor.act(0, str(view.legal[0]))
    published = rec.of_type("snapshot")[0]["table"]["commitment"]  # hand 1, before play
    over = next(m for m in rec.events() if m["event"]["kind"] == HAND_OVER)
    seed = over["event"]["summary"]["seed"]
    assert commitment(seed) == published
    first = actor.game.all_hands()[0]
    assert deck_of_deal(first.deal, first.dealer) == deck_from_seed(seed)
    record = actor.public_record()
    assert record.hands[0].seed == seed
    await actor.stop()


async def test_the_next_hand_waits_for_the_pause() -> None:
    actor, _, sched = make_table()
    rec = Recorder(0, actor)
    actor.start()
    await actor.join(rec)
    while True:
        await actor.settle()
        if actor.game.needs_deal:
            break
        if actor.game.to_act == 0:
            view = actor.view(0)
            assert view is not None
            await actor.act(0, str(view.legal[0]))
            continue
        sched.advance(0.5)
    hands = len(actor.game.all_hands())
    assert rec.last_table()["to_act"] is None
    sched.advance(1.9)
    await actor.settle()
    assert len(actor.game.all_hands()) == hands
    sched.advance(0.1)
    await actor.settle()
    assert len(actor.game.all_hands()) == hands + 1
    await actor.stop()


class FiveSeconds(TurnPolicy):
    """A test policy: five seconds a move, then the easy player moves for the person."""

    def __init__(self) -> None:
        self.moves: list[tuple[int, bool]] = []

    def deadline(self, seat: int, now: float) -> float | None:
        return now + 5.0

    def on_timeout(self, seat: int, now: float) -> str:
        return "easy"

    def moved(self, seat: int, now: float, *, timed_out: bool) -> None:
        self.moves.append((seat, timed_out))


async def test_a_turn_policy_deadline_moves_for_the_person() -> None:
    actor, _, sched = make_table()
    policy = FiveSeconds()
    actor.policy = policy
    rec = Recorder(0, actor)
    actor.start()
    await actor.join(rec)
    assert await until_person(actor, sched)
    clock = to_builtins(actor.snapshot(0))["clock"]
    assert clock == {"seat": 0, "deadline_ms_left": 5000}
    sched.advance(4.999)
    await actor.settle()
    assert actor.game.to_act == 0 and policy.moves == []
    sched.advance(0.001)
    await actor.settle()
    assert policy.moves == [(0, True)]
    mine = [m["event"] for m in rec.events()
            if m["event"]["kind"] == ACTION and m["event"]["seat"] == 0]
    assert mine and mine[-1]["timed_out"] is True
    await actor.stop()


async def test_a_bug_while_handling_a_move_is_reported_not_hung() -> None:
    actor, _, sched = make_table()
    actor.start()
    assert await until_person(actor, sched)

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    actor._outbox.hold = broken  # type: ignore[method-assign]
    view = actor.view(0)
    assert view is not None
    with pytest.raises(TableError, match="server error"):
        await actor.act(0, str(view.legal[0]))
    await actor.stop()


class Releasable(Recorder):
    """A recorder that is told when the table lets it go."""

    def __init__(self, seat: int | None) -> None:
        super().__init__(seat)
        self.released: list[str] = []

    def release(self, reason: str) -> None:
        """Note the reason."""
        self.released.append(reason)


async def test_a_stopped_table_refuses_moves_and_joins_at_once_and_releases_its_subscribers(
) -> None:
    actor, _, sched = make_table()
    sub = Releasable(0)
    actor.start()
    await actor.join(sub)
    assert await until_person(actor, sched)
    await actor.stop()
    assert sub.released == [STOPPED]
    view = actor.view(0)
    assert view is not None
    version = actor.version
    with pytest.raises(TableError, match="stopped"):
        await asyncio.wait_for(actor.act(0, str(view.legal[0])), 1)
    with pytest.raises(TableError, match="stopped"):
        await asyncio.wait_for(actor.join(Recorder(0)), 1)
    assert actor.version == version and sched.next_due() is None


async def test_a_move_queued_before_a_stop_is_handled_and_a_join_after_it_refused() -> None:
    actor, _, sched = make_table()
    actor.start()
    assert await until_person(actor, sched)
    view = actor.view(0)
    assert view is not None
    actor.on_finish.append(lambda actor: asyncio.sleep(0))  # no fast path: moves queue
    move = asyncio.ensure_future(actor.act(0, str(view.legal[0])))
    stopping = asyncio.ensure_future(actor.stop())
    joining = asyncio.ensure_future(actor.join(Recorder(0)))
    await asyncio.wait_for(stopping, 1)
    await asyncio.wait_for(asyncio.wait([move, joining]), 1)
    assert move.exception() is None  # queued before the stop: handled
    assert isinstance(joining.exception(), TableError)


async def test_a_computer_move_queued_before_a_close_is_not_played_after_it() -> None:
    """A leave closes the table while a computer's move is already in the queue (its delay
    ran out just then): the close voids it, so nothing is played after the close (before,
    such a move could end the game of a table already closed)."""
    actor, _, sched = make_table(first_dealer=0)  # West (1) bids first
    rec = Recorder(0, actor)
    actor.start()
    await actor.join(rec)
    await actor.settle()
    game = actor.game
    due = sched.next_due()
    assert due is not None and game.to_act == 1
    closing = asyncio.ensure_future(actor.close("left"))  # queued first ...
    await asyncio.sleep(0)
    sched.advance(due - sched.now())  # ... then West's move, due now, queued behind it
    await closing
    await actor.settle()
    assert actor.closed == "left" and actor.game is game  # West's move was not played
    assert [m["event"]["kind"] for m in rec.events()][-1] == "closed"
    await actor.stop()


def _calls_back(value: object, actor: object, depth: int = 3) -> bool:
    """Whether ``value`` is a callable that reaches ``actor``: a bound method of it, or a
    function or partial whose closure, bound object or arguments do (a few levels down)."""
    if depth == 0 or not callable(value):
        return False
    bound = getattr(value, "__self__", None)
    if bound is actor:
        return True
    held: list[object] = []
    if isinstance(value, functools.partial):
        held += [value.func, *value.args, *value.keywords.values()]
    for cell in getattr(value, "__closure__", None) or ():
        held.append(cell.cell_contents)
    if bound is not None and not isinstance(bound, type):
        held.append(getattr(value, "__func__", None))
    return any(h is actor or _calls_back(h, actor, depth - 1) for h in held)


async def test_no_part_of_the_actor_holds_a_way_to_call_it_back() -> None:
    """The parts return what they make and post what is due to the table's queue: none
    keeps a callback, a lambda or a bound method that reaches the actor. The fan-out and
    its observer draw each reader's table from the frames the loop hands them (the move
    clock's policy is in the frame), never through the actor."""
    actor, _, _ = make_table()
    actor.start()
    await actor.settle()
    named = ("_agenda", "_people", "_audience", "_outbox", "_computers", "_queue", "_saver",
             "_shuffle", "_frames", "_fanout", "_snapshots", "_rematch")
    # Every attribute of the actor is a part, or a value: none may reach back either.
    parts = {name: value for name, value in vars(actor).items()
             if not isinstance(value, (int, float, str, bytes, type(None)))}
    assert set(named) <= set(parts)
    parts["_audience.count"] = actor._audience.count
    parts["_fanout"] = actor._fanout
    parts["_fanout.observer"] = actor._fanout.observer
    for name, part in parts.items():
        fields = dict(vars(part)) if hasattr(part, "__dict__") else {}
        for slot in getattr(type(part), "__slots__", ()):
            if hasattr(part, slot):
                fields[slot] = getattr(part, slot)
        reaching = [k for k, v in fields.items() if v is actor or _calls_back(v, actor)]
        assert not reaching, f"{name} holds {reaching}, which reach the actor"
    await actor.stop()


# -- a table told to end after the hand in play (a tournament round's time ran out) --

TIME_UP = "round_time"


def _with_hook(actor: TableActor) -> list[tuple[str, int, str | None]]:
    """A finish hook on ``actor`` that notes (table, hands played, closed) at each call."""
    calls: list[tuple[str, int, str | None]] = []

    async def hook(table: FinishedTable) -> None:
        assert isinstance(table, TableActor)
        calls.append((table.id, sum(h.is_over for h in table.game.all_hands()), table.closed))

    actor.on_finish.append(hook)
    return calls


async def _play_hand_out(actor: TableActor, sched: ManualScheduler, rng: random.Random
                         ) -> None:
    """The person (seat 0) plays random legal moves until the hand in play is over."""
    hand = actor.game.current
    assert hand is not None
    number = len(actor.game.all_hands())
    while not actor.finished and len(actor.game.all_hands()) == number \
            and actor.game.current is not None and not actor.game.current.is_over:
        if actor.game.to_act == 0:
            view = actor.view(0)
            assert view is not None
            await actor.act(0, str(rng.choice(view.legal)))
            await actor.settle()
            continue
        due = sched.next_due()
        assert due is not None, "nothing is due but nobody is to act"
        sched.advance(due - sched.now())
        await actor.settle()


async def test_the_hand_in_play_is_played_out_then_the_table_ends() -> None:
    store = MemoryStore()
    actor, _, sched = make_table(store=store, first_dealer=3)  # the person bids first
    calls = _with_hook(actor)
    rec = Recorder(0, actor)
    actor.start()
    await actor.join(rec)
    assert await until_person(actor, sched)
    assert await actor.close_after_hand(TIME_UP) is True
    assert actor.closed is None and actor.last_hand == TIME_UP  # the hand goes on
    stored = await store.get(actor.id)
    assert stored is not None and stored.meta["last_hand"] == TIME_UP
    assert await actor.close_after_hand("again") is True  # asked twice: the first reason
    await _play_hand_out(actor, sched, random.Random(3))
    assert actor.closed == TIME_UP and len(actor.game.all_hands()) == 1
    assert actor.game.current is not None and actor.game.current.is_over
    assert calls == [(actor.id, 1, TIME_UP)]  # the finish hooks ran, once
    assert sched.next_due() is None  # no deal is due: nothing more is played
    kinds = [m["event"]["kind"] for m in rec.events()]
    assert kinds[-1] == "closed" and "deal" not in kinds[kinds.index("hand_over"):]
    stored = await store.get(actor.id)
    assert stored is not None and stored.status == FINISHED
    assert stored.meta["closed"] == TIME_UP
    assert await actor.close_after_hand(TIME_UP) is True  # closed: still True
    await actor.stop()


async def test_a_table_between_hands_ends_at_once() -> None:
    store = MemoryStore()
    actor, _, sched = make_table(store=store, first_dealer=3)
    calls = _with_hook(actor)
    actor.start()
    assert await until_person(actor, sched)
    await _play_hand_out(actor, sched, random.Random(5))
    assert actor.game.needs_deal and sched.next_due() is not None  # the pause between hands
    assert await actor.close_after_hand(TIME_UP) is True
    assert actor.closed == TIME_UP and calls == [(actor.id, 1, TIME_UP)]
    due = sched.next_due()
    if due is not None:  # the next deal, once due, is void
        sched.advance(due - sched.now())
        await actor.settle()
    assert len(actor.game.all_hands()) == 1
    await actor.stop()


async def test_a_restart_mid_hand_still_ends_the_table_after_that_hand() -> None:
    store = MemoryStore()
    actor, _, sched = make_table(store=store, first_dealer=3)
    actor.start()
    assert await until_person(actor, sched)
    assert await actor.close_after_hand(TIME_UP) is True
    await actor.stop()
    stored = await store.get(actor.id)
    assert stored is not None
    again = restore(stored, TableDeps(scheduler=sched, pacing=Pacing(0.5, 2.0), store=store,
                                      bot_factory=fixed_bots, seed_source=seeds("again")))
    calls = _with_hook(again)
    assert again.last_hand == TIME_UP and again.closed is None
    again.start()
    await _play_hand_out(again, sched, random.Random(7))
    assert again.closed == TIME_UP and calls == [(again.id, 1, TIME_UP)]
    await again.stop()


async def test_a_game_already_over_is_not_closed() -> None:
    actor, _, sched = make_table(rules={"hands_limit": 1}, first_dealer=3)
    actor.start()
    rng = random.Random(11)
    while await until_person(actor, sched):
        view = actor.view(0)
        assert view is not None
        await actor.act(0, str(rng.choice(view.legal)))
    assert actor.game.is_over
    assert await actor.close_after_hand(TIME_UP) is False
    assert actor.closed is None and actor.last_hand is None
    await actor.stop()

