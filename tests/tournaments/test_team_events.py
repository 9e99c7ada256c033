"""Team events through TournamentService on a migrated database (SQLite, and PostgreSQL when
set), on the fake clock: pairs registered by invitation, each format played to its end with
random legal games (round robin of 4 pairs, Swiss of 5 pairs and a computer pair, single and
double elimination of 3 pairs with a bye), seats as partners, rated flags, the team
standings and final places, and results on a person's page; pair registration's refusals
(oneself, a decline, twice, full) and entry fees for pairs (all or none, both forfeit)."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import pytest
from test_tournament_coins import moved
from test_tournament_coins import run as run_coins
from test_tournament_service import Clock, played, run

import euchre.tournaments.pairs as pairs_module
from euchre.coins import Ledger
from euchre.coins.errors import InsufficientCoinsError, NotActiveError
from euchre.tournament import describe_tie_breaks
from euchre.tournaments import (
    RoundTable,
    TournamentConflict,
    TournamentError,
    TournamentService,
    TournamentSettings,
    hand_scores,
)


async def pair_up(service: TournamentService, tid: str, asker: int, partner: int) -> None:
    """``asker`` invites ``partner``, who accepts."""
    invite = await service.invite(tid, asker, partner, f"p{partner}")
    await service.answer(tid, invite, partner, accept=True)


async def play_out(service: TournamentService, tid: str, tables: list[RoundTable],
                   seed: int = 0) -> list[list[RoundTable]]:
    """Play every round with random legal games until the tournament is finished; the
    tables of each round."""
    rounds = [tables]
    counter = itertools.count(seed)
    while tables:
        for t in tables:
            assert await service.table_over(t.table_id, played(t.rules, next(counter))) == tid
        tables = await service.advance(tid)
        if tables:
            assert tables == await service.round_tables(tid)
            rounds.append(tables)
    assert (await service.state(tid, None))["status"] == "finished"
    return rounds


def partners_seated(table: RoundTable) -> None:
    """Each pair sits at 0 and 2, or 1 and 3 (pair t is numbers 2t and 2t + 1)."""
    s = table.seats
    assert s[0].number // 2 == s[2].number // 2 and s[1].number // 2 == s[3].number // 2
    assert s[0].number // 2 != s[1].number // 2


def test_round_robin_of_four_pairs_rated(db_url: str) -> None:
    async def body(service: TournamentService, clock: Clock) -> None:
        del clock
        tid = await service.create(1, TournamentSettings(
            name="Pairs night", format="round_robin", hands=2, rated=True))
        for asker, partner in ((1, 2), (3, 4), (5, 6), (7, 8)):
            await pair_up(service, tid, asker, partner)
        before = await service.state(tid, 1)
        assert [p["name"] for p in before["pairs"]] == ["p1 & p2", "p3 & p4", "p5 & p6",
                                                          "p7 & p8"]
        assert before["partner"] == "p2" and before["rated"] and before["format"] == \
            "round_robin"
        tables = await service.start(tid, by=1)
        assert len(tables) == 2 and all(t.rated for t in tables)
        rounds = await play_out(service, tid, tables)
        assert len(rounds) == 3  # 4 pairs: 3 rounds, every pair meets every other once
        met = set()
        for played_round in rounds:
            for t in played_round:
                partners_seated(t)
                met.add(frozenset((t.seats[0].number // 2, t.seats[1].number // 2)))
                assert t.rules.hands_limit == 2
        assert len(met) == 6
        state = await service.state(tid, 3)
        assert state["status"] == "finished" and state["filled"] is None
        assert state["tie_breaks"] == describe_tie_breaks()
        lines = state["team_standings"]
        assert sorted(line["pair"] for line in lines) == [0, 1, 2, 3]
        assert all(line["wins"] + line["draws"] + line["losses"] == 3 for line in lines)
        assert lines[0]["place"] == 1 and all(line["place"] for line in lines)
        assert sum(line["points_for"] for line in lines) == \
            sum(line["points_against"] for line in lines)
        assert state["standings"] == [] and state["my_pair"] == 1
        results = await service.results_of(3)
        assert results[0]["partner"] == "p4" and results[0]["format"] == "round_robin"
        assert results[0]["place"] == next(x["place"] for x in lines if x["pair"] == 1)

    run(db_url, body)


def test_single_elimination_three_pairs_bye(db_url: str) -> None:
    async def body(service: TournamentService, clock: Clock) -> None:
        del clock
        tid = await service.create(1, TournamentSettings(
            name="Knockout", format="single_elimination", game_to=5))
        for asker, partner in ((1, 2), (3, 4), (5, 6)):
            await pair_up(service, tid, asker, partner)
        tables = await service.start(tid, by=1)
        state = await service.state(tid, None)
        # Three pairs in a bracket of four: the top seed has the bye, no computer pair.
        assert state["filled"] is None and state["field"] == 6
        assert state["byes"] == [{"match": "W1.1", "pair": "p1 & p2"}]
        assert len(tables) == 1 and not tables[0].rated
        assert {tables[0].seats[0].number // 2, tables[0].seats[1].number // 2} == {1, 2}
        assert tables[0].rules.game_to == 5 and tables[0].rules.hands_limit == 0
        rounds = await play_out(service, tid, tables, seed=10)
        assert [len(r) for r in rounds] == [1, 1]
        final = rounds[1][0]
        assert 0 in {final.seats[0].number // 2, final.seats[1].number // 2}
        state = await service.state(tid, None)
        lines = state["team_standings"]
        assert state["status"] == "finished"
        assert [line["place"] for line in lines] == [1, 2, 3]
        assert lines[0]["status"] == "champion" and lines[2]["status"] == "out"
        assert state["round_tables"][1]["tables"][0]["match"] == "W2.1"
        assert state["tie_breaks"][0].startswith("the champion first")

    run(db_url, body)


def test_double_elimination_three_pairs(db_url: str) -> None:
    async def body(service: TournamentService, clock: Clock) -> None:
        del clock
        tid = await service.create(1, TournamentSettings(
            name="Twice out", format="double_elimination", hands=1))
        for asker, partner in ((1, 2), (3, 4), (5, 6)):
            await pair_up(service, tid, asker, partner)
        rounds = await play_out(service, tid, await service.start(tid, by=1), seed=20)
        state = await service.state(tid, None)
        assert state["status"] == "finished"
        lines = state["team_standings"]
        champion = [line for line in lines if line["status"] == "champion"]
        assert len(champion) == 1 and champion[0]["place"] == 1
        assert all(line["losses"] == 2 for line in lines if line["status"] == "out")
        assert champion[0]["losses"] <= 1
        assert sorted(line["place"] for line in lines) == [1, 2, 3]
        # A round of one hand can end level no more than a game can: each match has a winner.
        assert all(t["winner"] in (0, 1) for r in state["round_tables"] for t in r["tables"])
        assert state["current_round"] == len(rounds) == state["rounds"]
        names = [t["match"] for r in state["round_tables"] for t in r["tables"]]
        assert names[0] == "W1.2" and "GF" in names

    run(db_url, body)


def level_game(rules: Any) -> Any:
    """The first random game of ``rules`` (seeds from 0) that ends level."""
    for seed in range(500):
        game = played(rules, seed)
        if game.score[0] == game.score[1]:
            return game
    raise AssertionError("no level game in 500 seeds")


def test_a_level_round_in_a_bracket_goes_to_the_last_hands_scorer(db_url: str) -> None:
    async def body(service: TournamentService, clock: Clock) -> None:
        del clock
        tid = await service.create(1, TournamentSettings(
            name="Level", format="single_elimination", hands=2))
        await pair_up(service, tid, 1, 2)
        await pair_up(service, tid, 3, 4)
        (table,) = await service.start(tid, by=1)
        game = level_game(table.rules)
        assert game.winner is None
        last = hand_scores(game)[-1]
        scored = last.makers if last.tricks >= 3 else 1 - last.makers
        await service.table_over(table.table_id, game)
        assert await service.advance(tid) == []
        state = await service.state(tid, None)
        match = state["round_tables"][0]["tables"][0]
        assert match["winner"] == scored and match["side_points"] == list(game.score)
        champion = state["team_standings"][0]
        assert champion["status"] == "champion"
        assert champion["pair"] == table.seats[scored].number // 2
        assert state["tie_breaks"][-1].startswith("a match of a round of hands that ends level")

    run(db_url, body)


def test_swiss_fills_with_a_computer_pair(db_url: str) -> None:
    async def body(service: TournamentService, clock: Clock) -> None:
        del clock
        tid = await service.create(1, TournamentSettings(
            name="Swiss", format="swiss", hands=2, rounds=3, rated=True))
        for asker in (1, 3, 5, 7, 9):
            await pair_up(service, tid, asker, asker + 1)
        tables = await service.start(tid, by=1)
        state = await service.state(tid, None)
        assert state["filled"] == "5 pairs; 1 computer pair fills the count to 6"
        assert state["pairs"][-1]["name"] == "Computer pair 1"
        # The computer pair's table is not rated; the others are.
        assert sorted(t.rated for t in tables) == [False, True, True]
        rounds = await play_out(service, tid, tables, seed=30)
        assert len(rounds) == 3
        met = [frozenset((t.seats[0].number // 2, t.seats[1].number // 2))
               for r in rounds for t in r]
        assert len(met) == len(set(met)) == 9  # no rematch in three rounds of six pairs
        state = await service.state(tid, None)
        assert state["status"] == "finished" and len(state["team_standings"]) == 6

    run(db_url, body)


def test_pair_registration_refusals(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    async def body(service: TournamentService, clock: Clock) -> None:
        del clock
        tid = await service.create(1, TournamentSettings(name="Pairs", format="round_robin"))
        with pytest.raises(TournamentError, match="your own partner"):
            await service.invite(tid, 1, 1, "p1")
        with pytest.raises(TournamentConflict, match="invite your partner"):
            await service.register(tid, 1, "p1")
        # A decline: the invitation cannot then be accepted; the asker may ask again.
        first = await service.invite(tid, 1, 2, "p2")
        with pytest.raises(TournamentConflict, match="already asked"):
            await service.invite(tid, 1, 3, "p3")
        with pytest.raises(TournamentConflict, match="only the person invited"):
            await service.answer(tid, first, 1, accept=True)
        await service.answer(tid, first, 2, accept=False)
        with pytest.raises(TournamentConflict, match="was declined"):
            await service.answer(tid, first, 2, accept=True)
        state = await service.state(tid, 1)
        assert state["invites"][0]["status"] == "declined" and state["pairs"] == []
        # Two ask p4; p4 accepts one and the other is closed.
        mine = await service.invite(tid, 1, 4, "p4")
        theirs = await service.invite(tid, 3, 4, "p4")
        await service.answer(tid, mine, 4, accept=True)
        with pytest.raises(TournamentConflict, match="was closed"):
            await service.answer(tid, theirs, 4, accept=True)
        # Registering twice: neither member of a pair may ask anyone, nor be asked.
        with pytest.raises(TournamentConflict, match="already registered"):
            await service.invite(tid, 4, 5, "p5")
        with pytest.raises(TournamentConflict, match="p1 is already registered"):
            await service.invite(tid, 5, 1, "p1")
        # Full: with room for two pairs, a third cannot enter (nothing is written).
        monkeypatch.setattr(pairs_module, "MAX_PAIRS", 2)
        await pair_up(service, tid, 5, 6)
        with pytest.raises(TournamentConflict, match="full"):
            await service.invite(tid, 7, 8, "p8")
        state = await service.state(tid, 1)
        assert [p["name"] for p in state["pairs"]] == ["p1 & p4", "p5 & p6"]
        # Withdrawing withdraws the pair.
        await service.unregister(tid, 6)
        state = await service.state(tid, 1)
        assert [p["name"] for p in state["pairs"]] == ["p1 & p4"] and state["people"] == 2
        await service.start(tid, by=1)
        with pytest.raises(TournamentConflict, match="has started"):
            await service.invite(tid, 7, 8, "p8")

    run(db_url, body)


@pytest.mark.parametrize(("settings", "message"), [
    ({"rated": True}, "progressive events are never rated"),
    ({"game_to": 10}, "game_to is for team events"),
    ({"format": "round_robin", "game_to": 9}, "game_to must be 0"),
    ({"format": "swiss", "loner_bonus": True}, "loner_bonus is not for team events"),
    ({"format": "single_elimination", "late_comers": True}, "late_comers is not for team"),
    ({"format": "double_elimination", "fill_to": 8}, "fill_to is not for team events"),
    ({"format": "teams"}, "format must be one of"),
])
def test_team_settings_refused(db_url: str, settings: dict[str, Any], message: str) -> None:
    async def body(service: TournamentService, clock: Clock) -> None:
        del clock
        with pytest.raises(TournamentError, match=message):
            await service.create(1, TournamentSettings(name="No", **settings))

    run(db_url, body)


FEE = 40


def test_pair_fees_all_or_none_and_both_forfeit(db_url: str) -> None:
    async def body(service: TournamentService, ledger: Ledger, clock: Clock) -> None:
        del clock
        tid = await service.create(1, TournamentSettings(
            name="Coin pairs", format="single_elimination", hands=1, entry_fee=FEE))
        # p2 cannot pay: accepting p1's invitation charges neither of them.
        invite = await service.invite(tid, 1, 2, "p2")
        with pytest.raises(InsufficientCoinsError, match="your balance is 10"):
            await service.answer(tid, invite, 2, accept=True)
        # p3 cannot pay: p4 accepting is told their partner cannot, and nothing moves.
        other = await service.invite(tid, 3, 4, "p4")
        with pytest.raises(InsufficientCoinsError, match="p3 cannot pay"):
            await service.answer(tid, other, 4, accept=True)
        assert [(await ledger.balance(i)) for i in (1, 2, 3, 4)] == [100, 10, 10, 100]
        assert (await service.state(tid, 1))["pairs"] == []
        await service.answer(tid, invite, 1, accept=False)  # p1 withdraws the invitation
        await pair_up(service, tid, 1, 4)
        await pair_up(service, tid, 5, 6)
        await pair_up(service, tid, 7, 8)
        assert await moved(service.engine, "entry", tid) == -6 * FEE
        await service.unregister(tid, 8)  # the pair withdraws: both fees are forfeit
        assert [(await ledger.balance(i)) for i in (7, 8)] == [100 - FEE, 100 - FEE]
        with pytest.raises(NotActiveError, match="forfeit"):  # and nothing is written
            await pair_up(service, tid, 7, 8)
        await play_out(service, tid, await service.start(tid, by=1), seed=40)
        state = await service.state(tid, 1)
        assert state["status"] == "finished"
        pool = state["pool"]
        assert pool["pool"] == 6 * FEE and pool["status"] == "paid"
        # 50/30/20 of 240 to the pairs at places 1 and 2 (two pairs finish), split evenly.
        champion = next(line for line in state["team_standings"] if line["place"] == 1)
        first = [p["prize"] for p in pool["prizes"] if p["place"] == 1]
        assert sorted(first) == [60, 60] and champion["status"] == "champion"
        second = [p["prize"] for p in pool["prizes"] if p["place"] == 2]
        assert sorted(second) == [36, 36]
        assert await moved(service.engine, "prize", tid) + pool["house"] == 6 * FEE

    run_coins(db_url, {1: 100, 2: 10, 3: 10, 4: 100, 5: 100, 6: 100, 7: 100, 8: 100}, body)


def test_two_acceptances_at_once_register_one_pair(db_url: str) -> None:
    async def body(service: TournamentService, ledger: Ledger, clock: Clock) -> None:
        del clock
        tid = await service.create(1, TournamentSettings(
            name="Race", format="round_robin", entry_fee=FEE))
        from_1 = await service.invite(tid, 1, 3, "p3")
        from_2 = await service.invite(tid, 2, 3, "p3")
        outcomes = await asyncio.gather(
            service.answer(tid, from_1, 3, accept=True),
            service.answer(tid, from_2, 3, accept=True), return_exceptions=True)
        assert sorted(type(o).__name__ for o in outcomes) == ["NoneType",
                                                               "TournamentConflict"]
        state = await service.state(tid, 3)
        assert len(state["pairs"]) == 1 and state["people"] == 2
        # p3 paid once, with the one partner who got in; the other paid nothing.
        won = 1 if outcomes[0] is None else 2
        assert await ledger.balance(3) == 100 - FEE
        assert await ledger.balance(won) == 100 - FEE and await ledger.balance(3 - won) == 100
        assert await moved(service.engine, "entry", tid) == -2 * FEE

    run_coins(db_url, {1: 100, 2: 100, 3: 100}, body)
