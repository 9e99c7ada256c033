"""Table law 11 at every table: "A player may look at the last completed trick until the next
card is led. Earlier tricks may not be examined."

Every message sent to every seat over whole games (random rule mixes, random play, seats
rejoining with old versions) is scanned twice, from the engine's full state when it was sent:
for a card the seat may not see at all, and for a card played in a trick before the one on
view. Computer players keep the full view (their own memory); records keep everything.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_helpers import (
    Recorder,
    cards_in,
    fixed_bots,
    make_table,
    play_game,
    seeds,
    until_person,
    visible_cards,
)

from euchre.cards import Card, card_text
from euchre.game import GameState
from euchre.rules import GAME_LENGTHS
from euchre.storage import MemoryStore
from euchre.table.actor import TableActor
from euchre.table.law11 import plays_on_view
from euchre.table.pacing import ManualScheduler, Pacing
from euchre.table.practice import PracticeOptions, practice_table


def on_view_or_own(game: GameState, seat: int) -> set[Card]:
    """The cards a seat may be shown now: the plays on view, its own cards (held, discarded,
    given to the kitty), the upcard."""
    allowed = set(plays_on_view(game)[1])
    current = game.current
    if current is not None:
        view = current.view(seat)
        allowed.update(view.hand, view.farmer_gave, [view.upcard])
        if view.discard is not None:
            allowed.add(view.discard)
    return allowed


def earlier_plays(game: GameState, seat: int) -> set[Card]:
    """Cards played in this game that law 11 hides from ``seat`` now."""
    played: set[Card] = set()
    for hand in game.all_hands():
        for _, cards, _ in hand.tricks:
            played.update(cards)
        played.update(hand.trick[1])
    return played - on_view_or_own(game, seat)


def public_part(message: dict[str, Any]) -> dict[str, Any]:
    """The message without the first-dealer draw: public cards from a separate deck."""
    table = message.get("table")
    if isinstance(table, dict) and "first_draw" in table:
        message = {**message, "table": {k: v for k, v in table.items() if k != "first_draw"}}
    return message


def violations(rec: Recorder) -> list[tuple[int, str, set[str]]]:
    """(message index, what, card texts) for each hidden card or earlier trick sent."""
    found = []
    assert rec.seat is not None
    for i, (message, game) in enumerate(zip(rec.messages, rec.games, strict=True)):
        assert game is not None
        named = cards_in(public_part(message))
        hidden = named - visible_cards(game, rec.seat)
        earlier = named & earlier_plays(game, rec.seat)
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
    actor = TableActor(config, scheduler=sched, pacing=Pacing(0.5, 2.0), store=MemoryStore(),
                       bot_factory=fixed_bots, seed_source=seeds(prefix))
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
        views = [m["table"]["view"] for rec in recorders for m in rec.messages
                 if m.get("table", {}).get("view")]
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
    table_view = view.to_table_json()
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
