"""TournamentService on a migrated database (SQLite, and PostgreSQL when it is there):
registration and its refusals, a start that fills with computers, rounds seated from the
schedule (or king's table), tables' hands kept once, the next round only when every table is
over, standings with the tie-breaks, results on a person's page, and a start that only one
of two racing callers wins."""

from __future__ import annotations

import asyncio
import datetime as dt
import random
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import text

from euchre.game import GameState
from euchre.rules import Rules
from euchre.server.tournaments.tournaments_api import table_config
from euchre.storage.accounts_models import metadata
from euchre.storage.sql import make_engine, migrate
from euchre.tournament import hand_points, schedule
from euchre.tournaments import (
    TournamentConflict,
    TournamentError,
    TournamentForbidden,
    TournamentNotFound,
    TournamentService,
    TournamentSettings,
    computer_name,
    hand_scores,
)

T0 = dt.datetime(2026, 12, 6, 19, 0, tzinfo=dt.UTC)


class Clock:
    """The site's clock, moved by the test."""

    def __init__(self) -> None:
        self.at = T0

    def __call__(self) -> dt.datetime:
        return self.at


def run(db_url: str, body: Callable[[TournamentService, Clock], Awaitable[Any]]) -> Any:
    """Migrate, add accounts 1-20 (20 owns bot 19), run ``body`` on a fake clock."""
    migrate(db_url)
    clock = Clock()

    async def main() -> Any:
        engine = make_engine(db_url)
        try:
            async with engine.begin() as conn:
                for i in range(1, 21):
                    await conn.execute(text(
                        "INSERT INTO accounts (id, username, username_key, password_hash, "
                        "balance, created_at) VALUES (:i, :u, :u, 'x', 0, :t)"),
                        {"i": i, "u": f"p{i}", "t": T0})
                diff = await conn.run_sync(
                    lambda c: list(compare_metadata(MigrationContext.configure(c), metadata)))
                assert diff == []  # the migration makes exactly the models' tables
            return await body(TournamentService(engine, now=clock), clock)
        finally:
            await engine.dispose()

    return asyncio.run(main())


def played(rules: Rules, seed: int) -> GameState:
    """A game of ``rules`` played out by random legal actions (deterministic deals)."""
    rng = random.Random(seed)
    game = GameState(rules)
    while not game.is_over:
        if game.needs_deal:
            game = game.deal_random(rng)
            continue
        hand = game.current
        assert hand is not None
        legal = hand.legal_actions()
        game = game.apply(legal[rng.randrange(len(legal))], seat=hand.to_act)
    return game


def test_registration_start_rounds_and_standings(db_url: str) -> None:
    async def body(service: TournamentService, clock: Clock) -> None:
        start = T0 + dt.timedelta(hours=1)
        tid = await service.create(1, TournamentSettings(name="Fire hall", hands=2, rounds=3,
                                               starts_at=start, allow_bots=True))
        for i in range(1, 11):
            await service.register(tid, i, f"p{i}")
        with pytest.raises(TournamentConflict, match="already registered"):
            await service.register(tid, 3, "p3")
        await service.unregister(tid, 10)
        with pytest.raises(TournamentConflict, match="not registered"):
            await service.unregister(tid, 10)
        # A bot and its owner never in one tournament, whichever comes first.
        await service.register(tid, 19, "botty", bot_owner=20)
        with pytest.raises(TournamentForbidden, match="owner"):
            await service.register(tid, 20, "p20")
        with pytest.raises(TournamentForbidden, match="owner plays"):
            await service.register(tid, 18, "bot2", bot_owner=5)
        state = await service.state(tid, 1)
        assert state["people"] == 10 and state["status"] == "registering"
        assert [p["name"] for p in state["people_in"]][-1] == "botty"
        assert state["is_creator"] and not state["rated"]

        assert await service.due() == []  # not yet: the fake clock says so
        with pytest.raises(TournamentForbidden):
            await service.start(tid, by=2)
        clock.at = start
        assert await service.due() == [tid]
        tables = await service.start(tid)
        with pytest.raises(TournamentConflict):
            await service.start(tid)
        assert len(tables) == 3 and all(t.round == 1 for t in tables)
        state = await service.state(tid, None)
        assert state["field"] == 12 and state["computers"] == 2
        assert state["filled"] == "10 registered; 2 computers fill the count to 12"
        plan = schedule(12, 3)
        for t, ((a, c), (b, d)) in zip(tables, plan[0], strict=True):
            assert [s.number for s in t.seats] == [a, b, c, d]
            assert t.rules.hands_limit == 2
        kinds = {s.number: s.kind for t in tables for s in t.seats}
        assert kinds[9] == "bot" and kinds[10] == kinds[11] == "computer" and kinds[0] == "person"
        # One name per computer for the whole tournament: the same at its table, on the page
        # and in the standings ("Computer 1 (computer)"), whichever seat it takes.
        entrants = [f"p{i}" for i in range(1, 10)] + ["botty (bot)",
                                                       "Computer 1 (computer)",
                                                       "Computer 2 (computer)"]
        cards = state["round_tables"][0]["tables"]
        for t, card in zip(tables, cards, strict=True):
            assert card["seats"] == [entrants[s.number] for s in t.seats]
            assert [seat.name for seat in table_config(t).seats] == card["seats"]
        assert sum(name.endswith("(computer)") for c in cards for name in c["seats"]) == 2

        with pytest.raises(TournamentConflict, match="started"):
            await service.register(tid, 12, "p12")  # no late comers here

        for rnd in range(1, 4):
            for i, t in enumerate(tables):
                assert await service.advance(tid) == []  # a table still plays
                game = played(t.rules, rnd * 10 + i)
                assert await service.table_over(t.table_id, game) == tid
                assert await service.table_over(t.table_id, played(t.rules, 99)) == tid
            tables = await service.advance(tid)
            assert await service.advance(tid) == []  # seated once
            if rnd < 3:
                assert [tuple(s.number for s in t.seats) for t in tables] == [
                    (a, b, c, d) for (a, c), (b, d) in plan[rnd]]
        state = await service.state(tid, 3)
        assert state["status"] == "finished" and state["current_round"] == 3
        lines = state["standings"]
        assert len(lines) == 12 and all(len(s["rounds"]) == 3 for s in lines)
        assert [s["place"] for s in lines] == sorted(s["place"] for s in lines)
        keys = [(-s["points"], -s["loners_made"], s["euchred"], -s["rounds"][-1])
                for s in lines]
        assert keys == sorted(keys)
        assert state["tie_breaks"][0] == "total points"
        results = await service.results_of(3)
        assert [r["id"] for r in results] == [tid] and results[0]["field"] == 12
        assert await service.results_of(20) == []
        assert await service.table_over("no-such-table", played(Rules(hands_limit=1), 1)) \
            is None

    run(db_url, body)


def test_a_games_hands_score_what_the_game_scored() -> None:
    for seed in range(40):
        game = played(Rules(hands_limit=4), seed)
        side = [0, 0]
        for score in hand_scores(game):  # seats stand for people: seat n is person n
            points = hand_points(((0, 2), (1, 3)), score)
            side[0] += points[0]
            side[1] += points[1]
        assert tuple(side) == game.score, seed


def test_refusals_change_nothing(db_url: str) -> None:
    async def body(service: TournamentService, clock: Clock) -> None:
        S = TournamentSettings
        for bad in (S(name=""), S(name="x", rounds=0),
                    S(name="x", hands=17), S(name="x", movement="swiss"),
                    S(name="x", seconds_per_move=1),
                    S(name="x", starts_at=T0 - dt.timedelta(minutes=1)),
                    S(name="x", rules={"hands_limit": 3}),
                    S(name="x", rules={"no_such_rule": True}),
                    S(name="x", entry_fee=-1), S(name="x", format="teams"),
                    S(name="x", fill_to=6), S(name="x", fill_to=68),
                    S(name="x", round_minutes=0), S(name="x", round_minutes=241),
                    S(name="x", round_minutes=True)):
            with pytest.raises(TournamentError):
                await service.create(1, bad)
        assert await service.listing() == {"open": [], "running": []}
        tid = await service.create(1, TournamentSettings(name="Closed", private=True))
        hidden = await service.listing(2)
        assert hidden["open"] == []  # by invitation: listed nowhere but to its people
        assert [t["id"] for t in (await service.listing(1))["open"]] == [tid]
        with pytest.raises(TournamentForbidden, match="outside bots"):
            await service.register(tid, 19, "botty", bot_owner=20)
        with pytest.raises(TournamentNotFound):
            await service.register("nope", 2, "p2")
        with pytest.raises(TournamentForbidden):
            await service.cancel(2, tid)
        await service.cancel(1, tid)
        with pytest.raises(TournamentConflict):
            await service.register(tid, 2, "p2")
        with pytest.raises(TournamentConflict):
            await service.start(tid, by=1)

    run(db_url, body)


def test_kings_table_late_comers_and_a_racing_start(db_url: str) -> None:
    async def body(service: TournamentService, clock: Clock) -> None:
        tid = await service.create(1, TournamentSettings(name="Kings", hands=1, rounds=2,
                                               movement="kings", late_comers=True))
        for i in range(1, 7):
            await service.register(tid, i, f"p{i}")
        got = await asyncio.gather(service.start(tid, by=1), service.start(tid, by=1),
                                   return_exceptions=True)
        won = [g for g in got if isinstance(g, list)]
        assert len(won) == 1 and len(won[0]) == 2
        assert sum(isinstance(g, TournamentConflict) for g in got) == 1
        tables = won[0]
        # A late comer takes the first computer's number from round 2.
        await service.register(tid, 7, "p7")
        with pytest.raises(TournamentConflict, match="no computer"):
            for i in (8, 9):
                await service.register(tid, i, f"p{i}")
        for i, t in enumerate(tables):
            await service.table_over(t.table_id, played(t.rules, i))
        second = await service.advance(tid)
        names = {s.name: s.kind for t in second for s in t.seats}
        assert names["p7"] == "person" and "p8" in names
        state = await service.state(tid, None)
        late = next(p for p in state["people_in"] if p["name"] == "p7")
        assert late["from_round"] == 2
        # Round 1's table named the late comer's number by the computer that played it.
        number = next(p["number"] for p in state["people_in"] if p["name"] == "p7")
        card, seat = next((c, c_seats.index(number))
                          for c, c_seats in zip(state["round_tables"][0]["tables"],
                                                [[s.number for s in t.seats] for t in tables],
                                                strict=True)
                          if number in c_seats)
        assert card["seats"][seat] == "Computer 1 (computer)" == computer_name(number, 6)
        assert "p7" in [n for c in state["round_tables"][1]["tables"] for n in c["seats"]]
        line = next(s for s in state["standings"] if s["name"] == "p7")
        assert line["rounds"] == [0, 0]  # the computer's round 1 is not theirs; 2 is on
        first = [tuple(s.number for s in t.seats) for t in tables]
        kings = [tuple(s.number for s in t.seats) for t in second]
        assert sorted(sum(kings, ())) == list(range(8)) and kings != first
        with pytest.raises(TournamentConflict, match="last round"):
            await service.register(tid, 10, "p10")

    run(db_url, body)
