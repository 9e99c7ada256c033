"""Stake pots against people, on the ledger (SQLite, and PostgreSQL when set): stakes in at
the start in one transaction, shares out at the end, the leaving fee once, no coin created
or lost."""

from __future__ import annotations

import asyncio

import pytest
from coin_helpers import T0, assert_balanced, new_account
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from euchre.coins import rules
from euchre.coins.errors import BadStakeError, NotActiveError
from euchre.coins.pots import Pot, PotService, StakeRefused, check_stake, shares
from euchre.storage.accounts_models import ledger_entries

NAMES = {0: "Ann", 1: "Bob", 2: "Cyd", 3: "Dee"}


async def _sum(engine: AsyncEngine, table_id: str, reason: str) -> int:
    async with engine.connect() as conn:
        value = await conn.scalar(select(func.coalesce(func.sum(ledger_entries.c.amount), 0))
                                  .where(ledger_entries.c.table_id == table_id,
                                         ledger_entries.c.reason == reason))
    return int(value or 0)


async def assert_pot_balanced(engine: AsyncEngine, pot: Pot) -> None:
    """No coin created or lost: the stakes taken equal the payouts, refunds and house."""
    taken = -await _sum(engine, pot.table_id, "stake")
    assert taken == pot.total
    paid = await _sum(engine, pot.table_id, "payout")
    refunded = await _sum(engine, pot.table_id, "refund")
    assert pot.paid_out == paid
    assert taken == paid + refunded + (pot.house or 0)
    fees = -await _sum(engine, pot.table_id, "fee")
    assert fees == sum(s.fee or 0 for s in pot.seats)


async def _people(engine: AsyncEngine, n: int = 4, coins: int = 1000) -> dict[int, int]:
    return {seat: await new_account(engine, coins) for seat in range(n)}


async def _balance(service: PotService, account: int) -> int:
    return await service.covers(account, 0)


async def test_the_start_takes_every_stake_in_one_go(engine: AsyncEngine) -> None:
    service = PotService(engine, lambda: T0)
    people = await _people(engine)
    pot = await service.escrow("t1", 100, people, NAMES)
    assert pot.total == 400 and pot.status == "active"
    assert [await _balance(service, a) for a in people.values()] == [900] * 4
    again = await service.escrow("t1", 100, people, NAMES)  # a repeat moves nothing
    assert again == pot
    assert [await _balance(service, a) for a in people.values()] == [900] * 4
    await assert_balanced(engine, *people.values())


async def test_a_start_anyone_cannot_cover_is_refused_naming_them(engine: AsyncEngine) -> None:
    service = PotService(engine, lambda: T0)
    people = await _people(engine, 3)
    people[3] = await new_account(engine, 40)
    with pytest.raises(StakeRefused, match=r"Dee \(East\) cannot cover it") as refused:
        await service.escrow("t1", 50, people, NAMES)
    assert "40" not in str(refused.value)  # her balance is hers alone
    assert await service.get("t1") is None
    assert [await _balance(service, people[s]) for s in range(3)] == [1000] * 3
    await assert_balanced(engine, *people.values())


async def test_winners_share_the_pot(engine: AsyncEngine) -> None:
    service = PotService(engine, lambda: T0)
    people = await _people(engine)
    await service.escrow("t1", 100, people, NAMES)
    pot = await service.settle("t1", winner=1)
    assert pot.status == "settled" and pot.winner == 1
    assert pot.paid_out == 400 and pot.house == 0
    assert [await _balance(service, a) for a in people.values()] == [900, 1100, 900, 1100]
    assert [s.status for s in pot.seats] == ["lost", "won", "lost", "won"]
    assert await service.settle("t1", winner=0) == pot  # settled once: a repeat moves nothing
    await assert_pot_balanced(engine, pot)
    await assert_balanced(engine, *people.values())


async def test_a_winner_who_left_gets_nothing_and_their_share_goes_to_nobody(
        engine: AsyncEngine) -> None:
    service = PotService(engine, lambda: T0)
    people = await _people(engine)
    await service.escrow("t1", 100, people, NAMES)
    left = await service.leave("t1", 0)
    assert left.seat(0) is not None and left.seat(0).status == "left"  # type: ignore[union-attr]
    assert left.seat(0).fee == rules.leaving_fee(100) == 10  # type: ignore[union-attr]
    pot = await service.settle("t1", winner=0)
    # North stayed: the same share as in a full game; South's went to nobody
    assert pot.paid_out == 200 and pot.house == 200
    assert [await _balance(service, a) for a in people.values()] == [890, 900, 1100, 900]
    await assert_pot_balanced(engine, pot)
    await assert_balanced(engine, *people.values())


async def test_a_winning_side_of_computers_leaves_the_pot_to_nobody(
        engine: AsyncEngine) -> None:
    service = PotService(engine, lambda: T0)
    people = {1: await new_account(engine), 3: await new_account(engine)}
    await service.escrow("t1", 50, people, NAMES)
    pot = await service.settle("t1", winner=0)  # the computers at 0 and 2 won
    assert pot.paid_out == 0 and pot.house == 100
    assert [s.status for s in pot.seats] == ["lost", "lost"]
    await assert_pot_balanced(engine, pot)


async def test_one_person_with_a_computer_partner_takes_the_whole_pot(
        engine: AsyncEngine) -> None:
    service = PotService(engine, lambda: T0)
    people = {0: await new_account(engine), 1: await new_account(engine),
              3: await new_account(engine)}
    await service.escrow("t1", 10, people, NAMES)
    pot = await service.settle("t1", winner=0)
    assert pot.paid_out == 30 and pot.house == 0
    assert await _balance(service, people[0]) == 1020
    await assert_pot_balanced(engine, pot)


def test_shares_round_down_and_the_rest_goes_to_nobody() -> None:
    assert shares(301, [0, 2], [0, 2]) == ({0: 150, 2: 150}, 1)
    assert shares(300, [1], [1]) == ({1: 300}, 0)
    assert shares(400, [0, 2], [2]) == ({2: 200}, 200)
    assert shares(400, [0, 2], []) == ({}, 400)
    assert shares(300, [], []) == ({}, 300)


def test_a_stake_must_be_one_on_offer() -> None:
    assert check_stake(0) == 0 and check_stake(50) == 50
    for bad in (7, -10, 10**9, True, "50", 50.0):
        with pytest.raises(BadStakeError, match="stake must be 0"):
            check_stake(bad)


async def test_leaving_twice_or_at_once_charges_once(engine: AsyncEngine) -> None:
    service = PotService(engine, lambda: T0)
    people = await _people(engine)
    await service.escrow("t1", 500, people, NAMES)
    await service.leave("t1", 2)
    await service.leave("t1", 2)
    results = await asyncio.gather(*(service.leave("t1", 1) for _ in range(6)))
    assert {r.seat(1).fee for r in results} == {50}  # type: ignore[union-attr]
    assert await _balance(service, people[2]) == 450
    assert await _balance(service, people[1]) == 450
    assert -await _sum(engine, "t1", "fee") == 100
    await assert_balanced(engine, *people.values())


async def test_the_start_needs_the_fee_covered_and_leaving_pays_it_in_full(
        engine: AsyncEngine) -> None:
    service = PotService(engine, lambda: T0)
    people = await _people(engine, 3)
    people[3] = await new_account(engine, 109)  # the stake 100 and its fee 10: one short
    with pytest.raises(StakeRefused, match=r"with the leaving fee's cover, 110\) and Dee "
                                           r"\(East\) cannot cover it"):
        await service.escrow("t1", 100, people, NAMES)
    assert await service.get("t1") is None and await _balance(service, people[3]) == 109
    people[3] = await new_account(engine, 110)
    await service.escrow("t1", 100, people, NAMES)
    pot = await service.leave("t1", 3)
    assert pot.seat(3).fee == 10  # type: ignore[union-attr]  # in full, never capped
    assert await _balance(service, people[3]) == 0
    await assert_balanced(engine, *people.values())


async def test_the_fees_of_games_in_play_are_kept_back(engine: AsyncEngine) -> None:
    """A person at two tables keeps both fees: the second seat needs its stake and fee
    beyond the first table's fee, so leaving both always costs both fees in full."""
    service = PotService(engine, lambda: T0)
    people = await _people(engine, 3)
    people[3] = await new_account(engine, 219)
    await service.escrow("t1", 100, people, NAMES)  # 119 left, 10 of it kept for t1's fee
    with pytest.raises(StakeRefused, match="your balance is 119 \\(10 of it covers"):
        await service.covers(people[3], 100)
    assert await service.covers(people[3], 50) == 119
    others = await _people(engine, 3)
    with pytest.raises(StakeRefused, match="Dee \\(East\\) cannot cover it"):
        await service.escrow("t2", 100, {**others, 3: people[3]}, NAMES)
    await service.escrow("t2", 50, {**others, 3: people[3]}, NAMES)  # 69 left
    assert (await service.leave("t1", 3)).seat(3).fee == 10  # type: ignore[union-attr]
    assert (await service.leave("t2", 3)).seat(3).fee == 5  # type: ignore[union-attr]
    assert await _balance(service, people[3]) == 54
    await assert_balanced(engine, *people.values(), *others.values())


async def test_settling_charges_a_replaced_seat_not_yet_charged(engine: AsyncEngine) -> None:
    service = PotService(engine, lambda: T0)
    people = await _people(engine)
    await service.escrow("t1", 100, people, NAMES)
    pot = await service.settle("t1", winner=1, replaced=[3])  # East was away: replaced
    assert pot.seat(3).status == "left" and pot.seat(3).fee == 10  # type: ignore[union-attr]
    assert pot.paid_out == 200 and pot.house == 200
    with pytest.raises(NotActiveError):
        await service.leave("nope", 0)
    after = await service.leave("t1", 1)  # after the end nothing moves
    assert after.seat(1).status == "won" and after.seat(1).fee is None  # type: ignore[union-attr]
    await assert_pot_balanced(engine, pot)
    await assert_balanced(engine, *people.values())


async def test_a_refund_gives_every_stake_back_once(engine: AsyncEngine) -> None:
    service = PotService(engine, lambda: T0)
    people = await _people(engine)
    await service.escrow("t1", 10, people, NAMES)
    pot = await service.refund("t1")
    assert pot is not None and pot.status == "refunded"
    await service.refund("t1")
    assert [await _balance(service, a) for a in people.values()] == [1000] * 4
    assert await service.active() == []
    await assert_pot_balanced(engine, pot)


async def test_covers_refuses_a_short_balance(engine: AsyncEngine) -> None:
    service = PotService(engine, lambda: T0)
    poor = await new_account(engine, 30)
    assert await service.covers(poor, 10) == 30
    with pytest.raises(StakeRefused, match="needs 55 coins: the stake and 5 to cover the "
                                           "leaving fee; your balance is 30"):
        await service.covers(poor, 50)
