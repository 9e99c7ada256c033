"""The first dealer at every new table is found as doc 002 deal rule 1 says: cards dealt face
up, one to each seat in turn, until a black jack falls; the draw is kept with the table's
settings and sent to every seat in the TABLE snapshot."""

from __future__ import annotations

import random

from msgspec import to_builtins

from euchre.cards import CLUBS, JACK, SPADES, parse_card
from euchre.storage import MemoryStore
from euchre.table.actor.actor import TableActor, TableDeps, restore
from euchre.table.actor.first_draw import DRAW_START, choose_first_dealer, first_draw_json
from euchre.table.actor.pacing import ManualScheduler, Pacing
from euchre.table.actor.seats import TableConfig
from euchre.table.kinds.coin import coin_table
from euchre.table.kinds.online import OnlineOptions
from euchre.table.kinds.practice import PracticeOptions, practice_table
from online_registry import MemoryOnlineTables
from table_helpers import Recorder, fixed_bots, seeds

BLACK_JACKS = {CLUBS * 6 + JACK, SPADES * 6 + JACK}


def check_draw(dealer: int, draw: tuple[tuple[int, int], ...]) -> None:
    """One card to each seat in turn from South; the first black jack, and only it, ends it."""
    assert draw, "a new table's first dealer is drawn"
    assert [seat for seat, _ in draw] == [(DRAW_START + i) % 4 for i in range(len(draw))]
    cards = [card for _, card in draw]
    assert len(set(cards)) == len(cards) and all(0 <= c < 24 for c in cards)
    assert cards[-1] in BLACK_JACKS and not set(cards[:-1]) & BLACK_JACKS
    assert dealer == draw[-1][0]


def test_rule_002_4_1_first_dealer_is_the_first_black_jack() -> None:
    """Doc 002 deal rule 1, over many shuffles: every seat gets to deal first sometimes."""
    dealers = set()
    for k in range(200):
        dealer, draw = choose_first_dealer(rng=random.Random(k))
        check_draw(dealer, draw)
        dealers.add(dealer)
    assert dealers == {0, 1, 2, 3}
    assert choose_first_dealer(2) == (2, ()), "a dealer given (a test, a resumed table) stands"


def test_every_kind_of_table_draws_its_first_dealer() -> None:
    """Practice, coin and online tables all draw; the draw survives storage."""
    practice, _ = practice_table(PracticeOptions())
    coin, _ = coin_table("c1", "alice", 10)
    online_tables = MemoryOnlineTables()
    table, _ = online_tables.create(OnlineOptions())
    online = table.config()
    for config in (practice, coin, online):
        check_draw(config.first_dealer, config.first_draw)
        again = TableConfig.from_json(config.to_json())
        assert (again.first_dealer, again.first_draw) == (config.first_dealer, config.first_draw)
    assert TableConfig.from_json({**practice.to_json(), "first_draw": None}).first_draw == ()


async def test_the_draw_goes_to_every_seat_with_the_table() -> None:
    """Every seat's snapshot shows the draw, and hand 1 is dealt by the seat it found."""
    config, _ = practice_table(PracticeOptions("classic", {}, "random", "random", "random"),
                               table_id="d1", token="secret")
    store = MemoryStore()
    sched = ManualScheduler()
    actor = TableActor(config, TableDeps(scheduler=sched, pacing=Pacing(0.5, 2.0), store=store,
                       bot_factory=fixed_bots, seed_source=seeds("draw")))
    recorders = [Recorder(seat, actor) for seat in range(4)]
    actor.start()
    for rec in recorders:
        await actor.join(rec)
    await actor.settle()
    want = first_draw_json(config.first_dealer, config.first_draw)
    assert want is not None and want["cards"][-1]["card"] in ("JC", "JS")
    for rec in recorders:
        table = rec.last_table()
        assert table["first_draw"] == want
        assert table["hand_number"] == 1 and table["dealer"] == want["dealer"]
    assert parse_card(want["cards"][-1]["card"]) in BLACK_JACKS
    await actor.stop()
    stored = await store.get("d1")
    assert stored is not None
    resumed = restore(stored, TableDeps(scheduler=sched, bot_factory=fixed_bots))
    assert to_builtins(resumed.snapshot(0))["first_draw"] == want
