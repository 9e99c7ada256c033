"""Coin games: the stake is held at the start, a win pays twice the stake, leaving costs a fee."""

from __future__ import annotations

import pytest
from coin_helpers import FakeNow, assert_balanced, new_account
from sqlalchemy.ext.asyncio import AsyncEngine

from euchre.coins import (
    AlreadyPlayingError,
    BadStakeError,
    CoinService,
    InsufficientCoinsError,
    NotActiveError,
    TopUpRefusedError,
    leaving_fee,
    payout,
)
from euchre.coins.rules import STAKES, TOP_UP_TO, stakes_json


def test_the_payout_rule_and_the_fee() -> None:
    assert [payout(s) for s in STAKES] == [20, 100, 200, 1000]
    assert [leaving_fee(s) for s in STAKES] == [1, 5, 10, 50]
    assert [leaving_fee(s) for s in (1, 9, 11, 15, 101)] == [1, 1, 2, 2, 11]
    body = stakes_json()
    assert body["stakes"][0] == {"stake": 10, "payout": 20, "winnings": 10,
                                 "leaving_fee": 1, "leaving_costs": 11, "cover": 11}
    assert "no cash value" in body["notice"]


async def test_open_holds_the_stake_and_a_win_pays_twice(engine: AsyncEngine) -> None:
    coins = CoinService(engine, FakeNow())
    a = await new_account(engine, 1000)
    opened = await coins.open(a, "t1", 100)
    assert opened.created and opened.game.status == "active"
    assert await coins.ledger.balance(a) == 900
    settled = await coins.finish("t1", 0)
    assert settled.game.status == "won" and settled.entry is not None
    assert settled.entry.amount == 200
    assert await coins.ledger.balance(a) == 1100
    again = await coins.finish("t1", 1)  # the hook runs twice: nothing changes
    assert again.game.status == "won"
    assert await coins.ledger.balance(a) == 1100
    await assert_balanced(engine, a)


async def test_a_loss_forfeits_the_stake(engine: AsyncEngine) -> None:
    coins = CoinService(engine, FakeNow())
    a = await new_account(engine, 1000)
    await coins.open(a, "t2", 500)
    settled = await coins.finish("t2", 1)
    assert settled.game.status == "lost" and settled.entry is None
    assert await coins.ledger.balance(a) == 500
    await assert_balanced(engine, a)


async def test_a_player_in_seat_one_wins_with_side_one(engine: AsyncEngine) -> None:
    coins = CoinService(engine, FakeNow())
    a = await new_account(engine, 1000)
    await coins.open(a, "t3", 10, seat=1)
    assert (await coins.finish("t3", 1)).game.status == "won"
    assert await coins.ledger.balance(a) == 1010


async def test_leaving_forfeits_the_stake_and_charges_the_fee(engine: AsyncEngine) -> None:
    coins = CoinService(engine, FakeNow())
    a = await new_account(engine, 1000)
    await coins.open(a, "t4", 500)
    left = await coins.leave("t4", a)
    assert left.game.status == "left" and left.entry is not None and left.entry.amount == -50
    assert await coins.ledger.balance(a) == 450
    again = await coins.leave("t4", a)
    assert again.entry is not None and again.entry.replayed
    assert await coins.ledger.balance(a) == 450
    # The game ended by leaving: a late finish pays nothing.
    await coins.finish("t4", 0)
    assert await coins.ledger.balance(a) == 450
    await assert_balanced(engine, a)


async def test_sitting_needs_the_stake_and_the_fee_and_leaving_pays_it_in_full(
        engine: AsyncEngine) -> None:
    coins = CoinService(engine, FakeNow())
    a = await new_account(engine, 549)
    with pytest.raises(InsufficientCoinsError, match="needs 550 coins: the stake and 50 to "
                                                     "cover the leaving fee; your balance is 549"):
        await coins.open(a, "t5", 500)
    assert await coins.ledger.balance(a) == 549 and await coins.get("t5") is None
    b = await new_account(engine, 550)
    await coins.open(b, "t6", 500)
    left = await coins.leave("t6", b)
    assert left.entry is not None and left.entry.amount == -50  # in full, never capped
    assert await coins.ledger.balance(b) == 0
    await assert_balanced(engine, a, b)


async def test_leaving_a_finished_game_is_free(engine: AsyncEngine) -> None:
    coins = CoinService(engine, FakeNow())
    a = await new_account(engine, 1000)
    await coins.open(a, "t7", 50)
    await coins.finish("t7", 1)
    left = await coins.leave("t7", a)
    assert left.game.status == "lost" and left.entry is None
    assert await coins.ledger.balance(a) == 950


async def test_only_the_owner_leaves(engine: AsyncEngine) -> None:
    coins = CoinService(engine, FakeNow())
    a = await new_account(engine, 1000)
    b = await new_account(engine, 1000)
    await coins.open(a, "t8", 50)
    with pytest.raises(NotActiveError):
        await coins.leave("t8", b)
    with pytest.raises(NotActiveError):
        await coins.leave("no-such-table", a)
    assert (await coins.ledger.balance(a), await coins.ledger.balance(b)) == (950, 1000)


@pytest.mark.parametrize("stake", [0, -10, 7, 10.0, "10", None, True, 10**20])
async def test_a_stake_not_on_offer_is_refused(engine: AsyncEngine, stake: object) -> None:
    coins = CoinService(engine, FakeNow())
    a = await new_account(engine, 1000)
    with pytest.raises(BadStakeError, match="10, 50, 100, 500"):
        await coins.open(a, "t9", stake)
    assert await coins.ledger.balance(a) == 1000
    assert await coins.games(a) == []


async def test_a_stake_above_the_balance_is_refused(engine: AsyncEngine) -> None:
    coins = CoinService(engine, FakeNow())
    a = await new_account(engine, 99)
    with pytest.raises(InsufficientCoinsError, match="balance is 99"):
        await coins.open(a, "t10", 100)
    assert await coins.ledger.balance(a) == 99
    assert await coins.games(a) == []
    await assert_balanced(engine, a)


async def test_one_active_game_at_a_time_and_a_repeated_request(engine: AsyncEngine) -> None:
    coins = CoinService(engine, FakeNow())
    a = await new_account(engine, 1000)
    first = await coins.open(a, "t11", 100, request_key="join-1")
    again = await coins.open(a, "t12", 100, request_key="join-1")  # a double click
    assert not again.created and again.game.table_id == "t11"
    with pytest.raises(AlreadyPlayingError) as info:
        await coins.open(a, "t13", 100, request_key="join-2")
    assert info.value.table_id == "t11"
    assert first.created and await coins.ledger.balance(a) == 900
    assert [g.table_id for g in await coins.active(a)] == ["t11"]


async def test_refund_when_the_table_could_not_open(engine: AsyncEngine) -> None:
    coins = CoinService(engine, FakeNow())
    a = await new_account(engine, 1000)
    await coins.open(a, "t14", 100)
    await coins.refund("t14")
    await coins.refund("t14")
    assert await coins.ledger.balance(a) == 1000
    assert (await coins.get("t14")).status == "refunded"  # type: ignore[union-attr]
    await assert_balanced(engine, a)


async def test_the_daily_top_up(engine: AsyncEngine) -> None:
    now = FakeNow()
    coins = CoinService(engine, now)
    rich = await new_account(engine, 11)  # covers the 10-coin table and its fee
    assert not await coins.can_top_up(rich)
    with pytest.raises(TopUpRefusedError, match="below 11"):
        await coins.top_up(rich)
    # 10 coins sit nowhere (the 10-coin table needs 11): the top-up is theirs.
    stuck = await new_account(engine, 10)
    assert await coins.can_top_up(stuck)
    await coins.top_up(stuck)
    assert await coins.ledger.balance(stuck) == TOP_UP_TO
    poor = await new_account(engine, 9)
    assert await coins.can_top_up(poor)
    entry = await coins.top_up(poor)
    assert entry.amount == TOP_UP_TO - 9 and await coins.ledger.balance(poor) == TOP_UP_TO
    # Spend it down: still only once a day.
    await coins.open(poor, "t15", 100)
    await coins.leave("t15", poor)
    for i in range(3):  # 90 -> 40 -> 30 -> 20
        await coins.open(poor, f"t16-{i}", 50 if i == 0 else 10)
        await coins.finish(f"t16-{i}", 1)
    await coins.open(poor, "t16-3", 10)  # 20 covers 10 and its fee: 10 left, then 9
    await coins.leave("t16-3", poor)
    assert await coins.ledger.balance(poor) < 10
    assert not await coins.can_top_up(poor)
    with pytest.raises(TopUpRefusedError, match="tomorrow"):
        await coins.top_up(poor)
    now.advance(days=1)
    await coins.top_up(poor)
    assert await coins.ledger.balance(poor) == TOP_UP_TO
    await assert_balanced(engine, rich, stuck, poor)


async def test_no_top_up_during_a_coin_game(engine: AsyncEngine) -> None:
    coins = CoinService(engine, FakeNow())
    a = await new_account(engine, 11)  # the stake and its fee
    await coins.open(a, "t17", 10)
    with pytest.raises(TopUpRefusedError, match="finish"):
        await coins.top_up(a)
    assert await coins.ledger.balance(a) == 1


async def test_the_game_shows_its_payout(engine: AsyncEngine) -> None:
    coins = CoinService(engine, FakeNow())
    a = await new_account(engine, 100)
    await coins.open(a, "t18", 10, seat_token="tok")
    game = await coins.get("t18")
    assert game is not None and game.seat_token == "tok"
    assert game.to_json()["payout"] == 20 and game.to_json()["leaving_fee"] == 1
