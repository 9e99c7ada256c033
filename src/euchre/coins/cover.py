"""The leaving fee's cover: a seat at a coin table needs the stake plus the fee, and the
balance keeps covering the fee of every game a person is still in.

A person sits down (a coin table against the computer, a seat at a stake table, the start
that takes the stakes) only if their balance, less the fees of the games they are already
in (:func:`held_for_fees`), is at least the stake plus its leaving fee. The only charges
are stakes (checked so) and fees (each covered by what was kept back for it), so the
balance always covers every fee a person may still owe, and leaving always costs the
stake plus the full 10%.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from ..storage.accounts_models import coin_games
from ..storage.stake_models import stake_pots, stake_seats
from . import rules


async def held_for_fees(conn: AsyncConnection, account_id: int) -> int:
    """The leaving fees the account may still owe: one for its active coin game against
    the computer, one for each stake table where its seat is still in play."""
    coin = (await conn.execute(select(coin_games.c.stake).where(
        coin_games.c.account_id == account_id, coin_games.c.status == "active"))).scalars()
    pots = (await conn.execute(
        select(stake_pots.c.stake)
        .select_from(stake_seats.join(stake_pots,
                                      stake_seats.c.table_id == stake_pots.c.table_id))
        .where(stake_seats.c.account_id == account_id, stake_seats.c.status == "active",
               stake_pots.c.status == "active"))).scalars()
    return sum(rules.leaving_fee(int(s)) for s in [*coin, *pots])


def short_of(stake: int, balance: int, held: int) -> str | None:
    """Why ``balance`` (``held`` of it kept for other games' fees) cannot sit at ``stake``,
    or None if it can."""
    need = rules.cover(stake)
    if balance - held >= need:
        return None
    kept = f" ({held} of it covers the leaving fees of games you are in)" if held else ""
    return (f"sitting at a {stake}-coin table needs {need} coins: the stake and "
            f"{rules.leaving_fee(stake)} to cover the leaving fee; your balance is "
            f"{balance}{kept}")


def legacy_short(balance: int, stake: int) -> bool:
    """Whether ``balance`` cannot pay the fee at ``stake`` in full. Only a game begun
    before the cover rule (nothing kept back for its fee) can be: it is charged what is
    there, so it still settles; every game begun since pays the full fee."""
    return balance < rules.leaving_fee(stake)
