"""Table law 11 at every table: "A player may look at the last completed trick until the next
card is led. Earlier tricks may not be examined."

Every message sent to every seat over whole games (random rule mixes, random play, seats
rejoining with old versions) is scanned twice, from the engine's full state when it was sent:
for a card the seat may not see at all, and for a card played in a trick before the one on
view. Spectators at online tables are scanned the same way (they may see only each upcard and
the plays on view: no hand, no kitty below the upcard, no discard), joining and leaving at
random moments with old ``since`` values. Computer players keep the full view (their own
memory); records keep everything.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import random
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from euchre.cards import Card, card_text
from euchre.game import GameState
from euchre.rules import GAME_LENGTHS, PRESETS
from euchre.storage import MemoryStore
from euchre.table.actor.actor import TableActor, TableDeps
from euchre.table.actor.delta import Folder, Json, event_changes, fold, implied
from euchre.table.actor.errors import SeatReplaced
from euchre.table.actor.kind import PRACTICE_KIND
from euchre.table.actor.observer import Observer, event_for, plays_on_view
from euchre.table.actor.pacing import ManualScheduler, Pacing
from euchre.table.actor.snapshot import view_json
from euchre.table.kinds.online import ONLINE_KIND, OnlineOptions, online_policy
from euchre.table.kinds.practice import PracticeOptions, practice_table
from online_registry import MemoryOnlineTables
from table_helpers import (
    Recorder,
    cards_in,
    fixed_bots,
    make_table,
    play_game,
    seeds,
    until_person,
    visible_cards,
)


def on_view_or_own(game: GameState, seat: int | None) -> set[Card]:
    """The cards a seat may be shown now: the plays on view, its own cards (held, discarded,
    given to the kitty), the upcard; a spectator (None) only the plays on view and the
    upcard."""
    allowed = set(plays_on_view(game)[1])
    current = game.current
    if current is not None and seat is None:
        allowed.add(current.upcard)
    elif current is not None:
        view = current.view(seat)
        allowed.update(view.hand, view.farmer_gave, [view.upcard])
        if view.discard is not None:
            allowed.add(view.discard)
    return allowed


def seen_by(game: GameState, seat: int | None) -> set[int]:
    """Every card ``seat`` has been allowed to see so far; a spectator (None): each upcard
    and every card played, never a hand, the kitty below the upcard or a discard."""
    if seat is not None:
        return visible_cards(game, seat)
    seen: set[int] = set()
    for hand in game.all_hands():
        seen.add(hand.upcard)
        for _, cards, _ in hand.tricks:
            seen.update(cards)
        seen.update(hand.trick[1])
    return seen


def earlier_plays(game: GameState, seat: int | None) -> set[Card]:
    """Cards played in this game that law 11 hides from ``seat`` now."""
    played: set[Card] = set()
    for hand in game.all_hands():
        for _, cards, _ in hand.tricks:
            played.update(cards)
        played.update(hand.trick[1])
    return played - on_view_or_own(game, seat)


def public_part(message: dict[str, Any]) -> dict[str, Any]:
    """The message without the first-dealer draw: public cards from a separate deck."""
    for key in ("table", "changes"):  # a snapshot's table, an event's changes
        table = message.get(key)
        if isinstance(table, dict) and "first_draw" in table:
            message = {**message, key: {k: v for k, v in table.items() if k != "first_draw"}}
    return message


_encode = msgspec.json.Encoder().encode
CARD_BYTES = [(card_text(c).encode(), c) for c in range(25)]


def named_somewhere(message: dict[str, Any]) -> set[Card]:
    """Every card whose text occurs anywhere in the message's JSON: a superset of
    :func:`cards_in`'s (a card named as a word of a string is in its text), found in C."""
    text = _encode(message)
    return {c for word, c in CARD_BYTES if word in text}


def violations(rec: Recorder) -> list[tuple[int, str, set[str]]]:
    """(message index, what, card texts) for each hidden card or earlier trick sent."""
    found = []
    # what the reader may see, once per game state (a state is immutable; many messages
    # are sent at one); the held state keeps its id from being reused meanwhile
    allowed: dict[int, tuple[GameState, set[int], set[Card]]] = {}
    for i, (message, game) in enumerate(zip(rec.messages, rec.games, strict=True)):
        assert game is not None
        if id(game) not in allowed:
            allowed[id(game)] = (game, seen_by(game, rec.seat), earlier_plays(game, rec.seat))
        _, seen, hidden_plays = allowed[id(game)]
        public = public_part(message)
        maybe = named_somewhere(public)
        if not (maybe - seen or maybe & hidden_plays):
            continue  # no card it names can break either rule: the word scan would agree
        named = cards_in(public)
        hidden = named - seen
        earlier = named & hidden_plays
        if hidden:
            found.append((i, "hidden", {card_text(c) for c in hidden}))
        if earlier:
            found.append((i, "earlier trick", {card_text(c) for c in earlier}))
    return found


def drawn_table(rules: dict[str, Any], level: str, prefix: str,
                ) -> tuple[TableActor, ManualScheduler]:
    """A practice table whose first dealer is drawn (doc 002), with fake time."""
    config, _ = practice_table(PracticeOptions("classic", rules, level, level, level),
                              table_id="law11", token="secret")
    sched = ManualScheduler()
    actor = TableActor(config, TableDeps(scheduler=sched, pacing=Pacing(0.5, 2.0),
                       store=MemoryStore(),
                       bot_factory=fixed_bots, seed_source=seeds(prefix)))
    return actor, sched


rule_mixes = st.fixed_dictionaries({
    "stick_the_dealer": st.booleans(),
    "all_pass": st.sampled_from(["next-dealer", "same-dealer"]),
    "defend_alone": st.booleans(),
    "canadian_loner": st.booleans(),
    "farmers_hand": st.sampled_from(["off", "nines-and-tens", "three-nines-two-tens"]),
    "benny": st.booleans(),
    "game_to": st.sampled_from([g for g in GAME_LENGTHS if g <= 7]),
    "lead_when_sitting_out": st.sampled_from(["dealer-left", "loner-left"]),
    "dealer_exchanges_when_partner_alone": st.booleans(),
})


def watched_table(rules: dict[str, Any], level: str, prefix: str,
                  ) -> tuple[TableActor, ManualScheduler]:
    """An online table (anyone may watch) with one person South and computers of ``level``
    in the other seats, its first dealer drawn, with fake time."""
    registry = MemoryOnlineTables(now=lambda: 0.0)
    opened, token = registry.create(OnlineOptions(rules=rules, level=level, name="Ann"),
                                    table_id="watched")
    registry.start(opened.id, token)
    config = opened.config()
    sched = ManualScheduler()
    actor = TableActor(config, TableDeps(scheduler=sched, pacing=Pacing(0.5, 2.0),
                       store=MemoryStore(),
                       policy=online_policy(config), kind=ONLINE_KIND,
                       bot_factory=fixed_bots, seed_source=seeds(prefix)))
    return actor, sched


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rule_mixes, level=st.sampled_from(["random", "easy"]), seed=st.integers(0, 10**6))
def test_law_11_no_spectator_or_seat_is_sent_an_earlier_trick_or_a_hidden_card(
        rules: dict[str, Any], level: str, seed: int) -> None:
    """Whole online games: every message to every seat and to every spectator, spectators
    joining (and leaving) at random moments with old ``since`` values."""

    async def run() -> None:
        actor, sched = watched_table(rules, level, f"watch-{seed}")
        seats = [Recorder(s, actor) for s in range(4)]
        first = Recorder(None, actor)
        actor.start()
        for rec in seats:
            await actor.join(rec)
        await actor.watch(first)
        rng = random.Random(seed)
        watchers: list[Recorder] = [first]
        here: list[Recorder] = [first]

        async def come_and_go() -> None:
            roll = rng.random()
            if roll < 0.35:  # a spectator arrives, with an old version or none
                rec = Recorder(None, actor)
                since = rng.choice([None, 0, actor.version,
                                    max(0, actor.version - rng.randrange(1, 80))])
                await actor.watch(rec, since=since)
                watchers.append(rec)
                here.append(rec)
            elif roll < 0.5 and len(here) > 1:
                actor.leave(here.pop(rng.randrange(1, len(here))))  # the first stays
                await actor.settle()

        await play_game(actor, sched, rng, come_and_go)
        assert actor.game.is_over
        for rec in seats:
            assert violations(rec) == [], f"seat {rec.seat}"
        for i, rec in enumerate(watchers):
            assert violations(rec) == [], f"spectator {i}"
            tables = [t for _, t in rec.table_messages()]
            assert all(t["seat"] is None for t in tables)
            assert all(t["view"] is None or (t["view"]["hand"] == [] and not t["view"]["legal"]
                                             and t["view"]["discard"] is None)
                       for t in tables)
        # not vacuous: the first spectator saw the whole game, plays and the count included
        got = [m for m in first.messages if m["type"] == "event"]
        assert any(m["event"].get("action", "").startswith("play ") for m in got)
        assert any(m["event"]["kind"] == "spectators" for m in got)
        assert first.last_table()["game_over"]
        await actor.stop()

    asyncio.run(run())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rule_mixes, level=st.sampled_from(["random", "easy"]), seed=st.integers(0, 10**6))
def test_law_11_no_seat_is_sent_an_earlier_trick_or_a_hidden_card(
        rules: dict[str, Any], level: str, seed: int) -> None:
    """Whole games: every message to every seat, rejoins with old versions included."""

    async def run() -> None:
        actor, sched = drawn_table(rules, level, f"law11-{seed}")
        recorders = [Recorder(s, actor) for s in range(4)]
        actor.start()
        for rec in recorders:
            await actor.join(rec)
        rng = random.Random(seed)
        late: list[Recorder] = []
        turns = 0

        async def rejoin_now_and_then() -> None:
            nonlocal turns
            turns += 1
            if turns % 3 == 0:
                rec = Recorder(rng.randrange(4), actor)
                await actor.join(rec, since=max(0, actor.version - rng.randrange(1, 60)))
                late.append(rec)

        await play_game(actor, sched, rng, rejoin_now_and_then)
        assert actor.game.is_over
        for rec in recorders + late:
            assert violations(rec) == [], f"seat {rec.seat}"
        # not vacuous: people were sent plays, and earlier plays only as their kind
        views = [t["view"] for rec in recorders for _, t in rec.table_messages() if t["view"]]
        assert any(a == "play" for v in views for _, a in v["history"])
        assert any(a.startswith("play ") for v in views for _, a in v["history"])
        # the record keeps everything, and the computer players' views are whole
        record = actor.record()
        assert sum(len(h.actions) for h in record.hands) == sum(
            len(h.history()) for h in actor.game.all_hands())
        await actor.stop()

    asyncio.run(run())


async def test_the_law_11_scan_catches_an_earlier_trick() -> None:
    """The full view (a computer player's memory) sent to a person would be caught."""
    actor, _, sched = make_table()
    rec = Recorder(0, actor)
    actor.start()
    await actor.join(rec)
    rng = random.Random(3)
    while True:  # play until the second trick has been led
        assert await until_person(actor, sched)
        current = actor.game.current
        assert current is not None
        if len(current.tricks) >= 1 and current.trick[1]:
            break
        await actor.act(0, str(rng.choice(current.legal_actions())))
    assert violations(rec) == []
    view = current.view(0)
    assert len(view.tricks) >= 1, "bots and the engine keep every trick"
    rec.send({"type": "snapshot", "table": {"view": view.to_json()}})
    assert [what for _, what, _ in violations(rec)] == ["earlier trick"]
    table_view = msgspec.to_builtins(view_json(view))
    assert sum(1 for _, a in table_view["history"] if a == "play") == len(view.tricks[0][1])
    await actor.stop()


async def test_law_11_rejoin_across_a_led_trick_gets_a_snapshot() -> None:
    """A rejoin whose missed events would replay a trick before the one on view gets a
    snapshot; one that stays within the trick on view gets the events."""
    actor, _, sched = make_table()
    first = Recorder(0, actor)
    actor.start()
    await actor.join(first)
    rng = random.Random(5)
    since_in_trick: int | None = None
    since_before: int | None = None
    while await until_person(actor, sched):
        current = actor.game.current
        assert current is not None
        if current.phase_name == "play" and not current.tricks and since_before is None:
            since_before = actor.version  # during the first trick
        if len(current.tricks) >= 2 and current.trick[1]:
            since_in_trick = actor.version  # a card of the third trick is on view
            break
        await actor.act(0, str(rng.choice(current.legal_actions())))
    assert since_before is not None and since_in_trick is not None
    old = Recorder(0, actor)
    await actor.join(old, since=since_before)
    assert [m["type"] for m in old.messages[:2]] == ["joined", "snapshot"]
    assert violations(old) == []
    await actor.act(0, str(rng.choice(actor.game.legal_actions())))
    await actor.settle()
    recent = Recorder(0, actor)
    await actor.join(recent, since=since_in_trick)
    assert [m["type"] for m in recent.messages[:2]] == ["joined", "event"]
    assert not recent.of_type("snapshot") and violations(recent) == []
    await actor.stop()


async def test_the_spectator_scan_catches_a_hand_a_discard_and_an_earlier_trick() -> None:
    """A seat's view, or the full view, sent to a spectator would be caught."""
    actor, sched = watched_table({}, "easy", "catch")
    eve = Recorder(None, actor)
    actor.start()
    await actor.watch(eve)
    rng = random.Random(4)
    while True:  # play until the second trick has been led
        assert await until_person(actor, sched)
        current = actor.game.current
        assert current is not None
        if len(current.tricks) >= 1 and current.trick[1]:
            break
        await actor.act(0, str(rng.choice(current.legal_actions())))
    assert violations(eve) == []
    eve.send({"type": "snapshot",
              "table": {"view": msgspec.to_builtins(view_json(current.view(0)))}})
    assert [what for _, what, _ in violations(eve)] == ["hidden"]
    eve.send({"type": "snapshot", "table": {"view": current.view(1).to_json()}})
    assert [what for _, what, _ in violations(eve)][1:] == ["hidden", "earlier trick"]
    kitty = " ".join(card_text(c) for c in current.deal.kitty[1:])
    eve.send({"type": "event", "oops": kitty})
    assert [what for _, what, _ in violations(eve)][3:] == ["hidden"]
    await actor.stop()


def same_when_comparable(a: Any, b: Any) -> bool:
    """``comparable(a) == comparable(b)``, walking both at once without copying them (the
    check runs at every version of whole games)."""
    if isinstance(a, dict):
        if not isinstance(b, dict):
            return False
        keys = {k for k, v in a.items() if v is not None and k != "clock_played"}
        if keys != {k for k, v in b.items() if v is not None and k != "clock_played"}:
            return False
        return all(same_when_comparable(a[k], b[k]) for k in keys)
    if isinstance(a, list):
        return (isinstance(b, list) and len(a) == len(b)
                and all(map(same_when_comparable, a, b)))
    return not isinstance(b, (dict, list)) and bool(a == b)


class Client(Recorder):
    """A reader that folds what it is sent (as the browser does) and, each time its table
    is at the version the table last showed, checks it against the observer's table."""

    def __init__(self, seat: int | None, actor: TableActor) -> None:
        super().__init__(seat, actor)
        self.checked = 0
        self.away = False

    def send(self, message: Any) -> None:
        super().send(message)
        observer = self.actor._fanout.observer  # type: ignore[union-attr]
        frame = observer.frame
        if self.folder.table is None or frame is None or self.folder.version != frame.version:
            return  # an earlier event of a move (the first carried the move's changes)
        want = msgspec.to_builtins(observer.snapshot(self.seat, None)[0])
        assert same_when_comparable(self.folder.table, want), (self.seat, frame.version)
        self.checked += 1


REJOINS: list[bool] = []
"""Each rejoin with ``since`` of a seat whose part the events carry, or a spectator, in the
games :func:`fold_whole_game` played: whether it was sent only the events it missed."""


async def fold_whole_game(actor: TableActor, sched: ManualScheduler, rng: random.Random,
                          timeouts: float = 0.0) -> None:
    """Play ``actor``'s game to its end, South at random (letting the clock play for South
    at a ``timeouts`` share of South's turns), each seat and a spectator folding what they
    are sent (:class:`Client`), their sockets dropping and rejoining at random moments."""
    clients = [Client(s, actor) for s in range(4)] + [Client(None, actor)]
    actor.start()
    for client in clients:
        await actor.join(client)
    caught_up = REJOINS  # each rejoin with since: sent only the missed events?
    seats = actor._fanout.observer.seats  # the seats whose own part the events carry
    gone: list[Client] = []  # South's, refused once a computer took the seat

    async def drop_and_rejoin() -> None:
        client = rng.choice(clients)
        if client in gone:
            return
        if not client.away and rng.random() < 0.4:
            actor.leave(client)
            client.away = True
        elif client.away:
            client.away = False
            since = client.folder.version if rng.random() < 0.8 else None
            if since is None:
                client.folder = Folder()  # a new page: it holds no table
            sent = len(client.messages)
            try:
                await actor.join(client, since=since)
            except SeatReplaced:
                gone.append(client)
                return
            # (a computer's seat is always sent a snapshot: no event kept holds its part)
            if since is not None and (client.seat is None or client.seat in seats):
                kinds = [m["type"] for m in client.messages[sent:]]
                caught_up.append("snapshot" not in kinds)
        await actor.settle()

    replaced = False  # South's clock ran out too often: a computer plays South
    while not actor.game.is_over:  # one step at a time: a move, or the next thing due
        await drop_and_rejoin()
        current = actor.game.current
        if (current is not None and actor.game.to_act == 0 and actor.view(0) is not None
                and not replaced):
            view = actor.view(0)
            assert view is not None
            if view.legal and rng.random() >= timeouts:
                try:
                    await actor.act(0, str(rng.choice(view.legal)))
                except SeatReplaced:
                    replaced = True
                continue
        due = sched.next_due()
        assert due is not None, "nothing is due but nobody is to act"
        sched.advance(due - sched.now())
        await actor.settle()
    for client in clients:
        if client.away and client not in gone:
            try:
                await actor.join(client, since=client.folder.version)
            except SeatReplaced:
                gone.append(client)
    await actor.settle()
    assert actor.game.is_over
    for client in clients:
        assert violations(client) == [], f"reader {client.seat}"
        if client in gone:
            continue
        assert client.checked > 10 and client.folder.table is not None
        assert client.folder.table["game_over"]
    await actor.stop()


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 10**6))
def folded_games(preset: str, seed: int) -> None:
    """Whole games of every preset, each seat and a spectator reading them, their sockets
    dropping and rejoining at random moments (with the version they hold, or none): the
    table each folds from its messages is the observer's table at that version, and no
    message names a card its reader may not see then."""

    async def run() -> None:
        config, _ = practice_table(PracticeOptions(preset, {}, "random", "random", "random"),
                                   table_id="fold", token="secret")
        sched = ManualScheduler()
        actor = TableActor(config, TableDeps(
            scheduler=sched, pacing=Pacing(0.5, 2.0), store=MemoryStore(),
            kind=dataclasses.replace(PRACTICE_KIND, spectators=True),
            bot_factory=fixed_bots, seed_source=seeds(f"fold-{seed}")))
        await fold_whole_game(actor, sched, random.Random(seed))

    asyncio.run(run())


def check_plain_moves(monkeypatch: Any) -> list[Json]:
    """From now on, each plain move's changes (worked out from the move: the view's moved
    fields and the clock compared with those last shown, without drawing the table) are
    checked to be the same changes, in the same order, as drawing and comparing the whole
    table gives, and the table folded from them the whole table drawn; returns the list
    each checked move's changes are added to (a move whose check failed adds its
    failure: raised in the table's task, it would stop the table and hang the game)."""
    plain = Observer._plain_move
    checked: list[Json | str] = []

    def both(self: Observer, frame: Any, bodies: Any, now: float) -> Any:
        before = copy.deepcopy(self._drawn())
        moved = plain(self, frame, bodies, now)
        if moved is not None:
            whole = msgspec.to_builtins(self._render(frame, None, now, None))
            seen = [msgspec.to_builtins(event_for(body, None)) for body in bodies]
            delta = event_changes(before, whole, seen)
            table = before
            for event in seen:
                table = implied(table, event)
            table = fold(copy.deepcopy(table), moved)
            table["to_act"] = table["view"]["to_act"]
            if list(moved.items()) != list(delta.items()):
                checked.append(f"version {frame.version}: {moved} but the whole table: {delta}")
            elif table != whole:
                checked.append(f"version {frame.version}: folded {table}, drawn {whole}")
            else:
                checked.append(moved)
        return moved

    monkeypatch.setattr(Observer, "_plain_move", both)
    return checked


def test_the_table_folded_from_events_is_the_observers_for_every_reader(
        monkeypatch: Any) -> None:
    """:func:`folded_games`; and in the same games, the plain moves' changes are those the
    whole table gives (:func:`check_plain_moves`)."""
    checked = check_plain_moves(monkeypatch)
    REJOINS.clear()
    folded_games()
    assert [c for c in checked if isinstance(c, str)] == []
    # not vacuous: rejoins are sent just the events they missed (a snapshot only where
    # replaying would show a trick no longer on view)
    assert any(REJOINS)
    assert len(checked) > 200  # most moves are plain ones


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rule_mixes, seed=st.integers(0, 10**6))
def clocked_games(rules: dict[str, Any], seed: int) -> None:
    """:func:`fold_whole_game` at online tables, South on the move clock and now and then
    letting it run out."""

    async def run() -> None:
        actor, sched = watched_table(rules, "random", f"clocked-{seed}")
        await fold_whole_game(actor, sched, random.Random(seed), timeouts=0.2)

    asyncio.run(run())


def test_a_table_on_the_clock_folds_to_the_observers_for_every_reader(
        monkeypatch: Any) -> None:
    """:func:`clocked_games`: the clock starts and stops with moves (plain ones included),
    and every reader's folded table is still the observer's; the plain moves' changes are
    those the whole table gives (:func:`check_plain_moves`)."""
    checked = check_plain_moves(monkeypatch)
    REJOINS.clear()
    clocked_games()
    assert [c for c in checked if isinstance(c, str)] == []
    assert any(REJOINS)  # (as in the games above)
    # not vacuous: plain moves that started or stopped South's clock
    assert any("clock" in changes for changes in checked)


async def test_a_change_of_speed_is_in_the_next_moves_changes() -> None:
    """The computers' speed (the table's ``extra``) changes without an event: the next move
    shown says it, though nothing else but the move changed."""
    config, _ = practice_table(PracticeOptions("classic", {}, "random", "random", "random"),
                               table_id="speed", token="secret")
    sched = ManualScheduler()
    actor = TableActor(config, TableDeps(
        scheduler=sched, pacing=Pacing(0.5, 2.0), pace_for=lambda speed: Pacing(0.1, 1.0),
        bot_factory=fixed_bots, seed_source=seeds("speed")))
    client = Recorder(0)
    actor.start()
    await actor.join(client)
    await until_person(actor, sched, 0)
    await actor.set_speed(0, "fast")
    view = actor.view(0)
    assert view is not None
    sent = len(client.messages)
    await actor.act(0, str(view.legal[0]))
    await actor.settle()
    changes = [m.get("changes") or {} for m in client.messages[sent:]]
    assert any(c.get("extra") == {"speed": "fast"} for c in changes), changes
    await actor.stop()
