"""NightService on a migrated database (SQLite, and PostgreSQL when it is there): a night of
eight names over two rounds, entries from the tables, confirmation, corrections by the host
kept in the log, standings, and refusals that change nothing."""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import text

from euchre.nights import NightConflict, NightError, NightNotFound, NightService, NotTheHost
from euchre.storage.accounts_models import metadata
from euchre.storage.sql import make_engine, migrate
from euchre.tournament import schedule

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal"]
T0 = dt.datetime(2026, 12, 6, 19, 0, tzinfo=dt.UTC)


def run(db_url: str, body: Callable[[NightService], Awaitable[Any]]) -> Any:
    """Migrate the database, then run ``body`` with a service on a ticking fake clock."""
    migrate(db_url)
    ticks = itertools.count()

    async def main() -> Any:
        engine = make_engine(db_url)
        try:
            async with engine.begin() as conn:
                for host in (1, 2):
                    await conn.execute(text(
                        "INSERT INTO accounts (id, username, username_key, password_hash, "
                        "balance, created_at) VALUES (:i, :u, :u, 'x', 0, :t)"),
                        {"i": host, "u": f"host{host}", "t": T0})
                diff = await conn.run_sync(
                    lambda c: list(compare_metadata(MigrationContext.configure(c), metadata)))
                assert diff == []  # the migration makes exactly the models' tables
            service = NightService(engine, now=lambda: T0 + dt.timedelta(seconds=next(ticks)))
            return await body(service)
        finally:
            await engine.dispose()

    return asyncio.run(main())


async def codes(service: NightService, night: str) -> dict[int, str]:
    """The current round's table codes, as the host sees them."""
    state = await service.state(night, 1)
    tables = state["round_tables"][state["current_round"] - 1]["tables"]
    return {t["table"]: t["code"] for t in tables}


def test_a_night_runs_two_rounds_with_entries_confirmations_and_corrections(db_url: str
                                                                             ) -> None:
    async def body(service: NightService) -> None:
        night = await service.create(1, "Legion hall", NAMES, 2, 2, True)
        assert (await service.state(night, None))["status"] == "registering"
        assert await service.advance(1, night) == 1
        state = await service.state(night, None)
        plan = schedule(8, 2)
        first = state["round_tables"][0]["tables"]
        assert [t["seats"] for t in first] == [
            [NAMES[a], NAMES[b], NAMES[c], NAMES[d]] for (a, c), (b, d) in plan[0]]
        assert all(t["code"] is None for t in first)  # codes only for the host
        table_codes = await codes(service, night)
        assert len(set(table_codes.values())) == 2

        # Table 1: seats 0 & 2 enter two hands, a lone march and a euchre of the other pair.
        t1 = table_codes[1]
        await service.enter(t1, 0, 1, 0, 5, 2)
        await service.enter(t1, 0, 2, 1, 1, None)
        with pytest.raises(NightConflict, match="other pair confirms"):
            await service.confirm(t1, 0)
        await service.confirm(t1, 1)
        card = await service.card(t1)
        assert card["confirmed_by"] == f"{card['seats'][1]} & {card['seats'][3]}"
        assert [h["points"] for h in card["hands"]] == [[4, 0, 5, 0], [2, 0, 2, 0]]

        # The round cannot end while table 2 has hands missing.
        with pytest.raises(NightConflict, match="table 2 has 0 of 2"):
            await service.advance(1, night)
        t2 = table_codes[2]
        await service.enter(t2, 1, 1, 1, 3, None)
        await service.enter(t2, 1, 2, 1, 4, None)
        await service.enter(t2, 1, 2, 0, 3, None)  # re-entered: the newest counts
        assert [h["makers"] for h in (await service.card(t2))["hands"]] == [1, 0]

        # The host corrects table 1's hand 2: the confirmation no longer holds.
        await service.correct(1, "host1", night, 1, 1, 2, 1, 3, None)
        assert (await service.card(t1))["confirmed_by"] is None
        assert await service.advance(1, night) == 2
        with pytest.raises(NightConflict, match="round is over"):
            await service.enter(t1, 0, 1, 0, 3, None)

        state = await service.state(night, None)
        points = {s["name"]: s["points"] for s in state["standings"]}
        (a, c), (b, _) = plan[0][0]
        assert points[NAMES[c]] == 5 and points[NAMES[a]] == 4  # the lone player and partner
        assert points[NAMES[b]] == 1  # the corrected hand: 1 for three tricks
        assert state["standings"][0]["place"] == 1
        leader = state["standings"][0]
        assert leader["name"] == NAMES[c] and leader["loners_made"] == 1

        log = await service.log(night)
        kinds = [(e["kind"], e["by"]) for e in log]
        assert ("correction", "host host1") in kinds
        assert sum(k == "entry" for k, _ in kinds) == 5
        assert sum(k == "confirmation" for k, _ in kinds) == 1

        # Round 2 to the end; after the last round the night is finished.
        for code in (await codes(service, night)).values():
            for hand in (1, 2):
                await service.enter(code, 0, hand, 0, 3, None)
        assert await service.advance(1, night) == 0
        assert (await service.state(night, None))["status"] == "finished"
        with pytest.raises(NightConflict, match="over"):
            await service.advance(1, night)
        # The host may still correct a finished night's hands.
        await service.correct(1, "host1", night, 2, 1, 1, 1, 0, None)

    run(db_url, body)


def test_refusals_say_why_and_change_nothing(db_url: str) -> None:
    async def body(service: NightService) -> None:
        with pytest.raises(NightError, match="add 2 or take away 2"):
            await service.create(1, "x", NAMES[:6], 2, 8, False)
        with pytest.raises(NightError, match="twice"):
            await service.create(1, "x", [*NAMES[:7], "ann"], 2, 8, False)
        with pytest.raises(NightError, match="rounds must be"):
            await service.create(1, "x", NAMES, 0, 8, False)
        with pytest.raises(NightError, match="hands per round"):
            await service.create(1, "x", NAMES, 2, 17, False)
        assert await service.hosted_by(1) == []
        night = await service.create(1, "x", NAMES, 1, 1, False)
        with pytest.raises(NotTheHost):
            await service.advance(2, night)
        with pytest.raises(NotTheHost):
            await service.set_people(2, night, NAMES)
        await service.set_people(1, night, [*NAMES, "Ike", "Jo", "Kit", "Lu"])
        await service.advance(1, night)
        with pytest.raises(NightConflict, match="names can no longer change"):
            await service.set_people(1, night, NAMES)
        code = next(iter((await codes(service, night)).values()))
        with pytest.raises(NightNotFound):
            await service.card("ZZZZZZ")
        for args, message in [
            ((2, 1, 0, 3, None), "by_pair"),
            ((0, 2, 0, 3, None), "hand must be a number from 1 to 1"),
            ((0, 1, 2, 3, None), "makers must be"),
            ((0, 1, 0, 6, None), "0 to 5"),
            ((0, 1, 0, 5, 1), "only one of the makers"),
            ((0, 1, 0, 5, 7), "lone_seat"),
        ]:
            with pytest.raises(NightError, match=message):
                await service.enter(code, *args)
        with pytest.raises(NightConflict, match="0 of 1 hands"):
            await service.confirm(code, 1)
        assert await service.log(night) == []
        with pytest.raises(NightError, match="no such round"):
            await service.correct(1, "host1", night, 2, 1, 1, 0, 3, None)
        assert [n["id"] for n in await service.hosted_by(1)] == [night]

    run(db_url, body)


def test_a_kings_table_night_moves_winners_up_and_losers_down(db_url: str) -> None:
    async def body(service: NightService) -> None:
        with pytest.raises(NightError, match="movement must be one of"):
            await service.create(1, "x", NAMES, 2, 1, False, "swiss")
        night = await service.create(1, "King's night", NAMES, 3, 2, False, "kings")
        await service.advance(1, night)
        state = await service.state(night, 1)
        assert state["movement"] == "kings"
        first = state["round_tables"][0]["tables"]
        table_codes = await codes(service, night)
        # Table 1: the second pair wins 2-1; table 2: 1-1, the first pair scored the last hand.
        await service.enter(table_codes[1], 0, 1, 0, 3, None)
        await service.enter(table_codes[1], 0, 2, 1, 5, None)
        await service.enter(table_codes[2], 0, 1, 1, 4, None)
        await service.enter(table_codes[2], 0, 2, 0, 4, None)
        await service.advance(1, night)
        second = (await service.state(night, 1))["round_tables"][1]["tables"]

        def pair(seats: list[str], side: int) -> set[str]:
            return {seats[side], seats[side + 2]}

        winners_1, losers_1 = pair(first[0]["seats"], 1), pair(first[0]["seats"], 0)
        winners_2, losers_2 = pair(first[1]["seats"], 0), pair(first[1]["seats"], 1)
        king = set(second[0]["seats"])
        assert king == winners_1 | winners_2  # both winning pairs at the king's table
        assert set(second[1]["seats"]) == losers_1 | losers_2
        for table in second:  # every arriving pair split
            partners = [pair(table["seats"], 0), pair(table["seats"], 1)]
            assert all(p not in (winners_1, winners_2, losers_1, losers_2) for p in partners)

    run(db_url, body)


def test_two_advances_at_once_start_one_round(db_url: str) -> None:
    async def body(service: NightService) -> None:
        night = await service.create(1, "double click", NAMES, 3, 1, False)
        results = await asyncio.gather(service.advance(1, night), service.advance(1, night),
                                       return_exceptions=True)
        started = [r for r in results if not isinstance(r, BaseException)]
        refused = [r for r in results if isinstance(r, BaseException)]
        # Either both ran one after the other (the second found round 1's cards empty), or
        # one waited for the other's lock: one round started either way.
        assert started == [1], results
        assert len(refused) == 1 and isinstance(refused[0], NightConflict), refused
        state = await service.state(night, 1)
        assert state["current_round"] == 1 and len(state["round_tables"]) == 1
        assert len(state["round_tables"][0]["tables"]) == 2

    run(db_url, body)
