"""The coin rules: the offered stakes, what a win pays, the leaving fee, the daily top-up.

- A new account starts with :data:`STARTING_BALANCE` coins.
- The stake is held (charged) when the coin game starts.
- Winning the game pays :data:`PAYOUT_MULTIPLE` times the stake: the stake back plus
  equal winnings. Losing forfeits the stake; nothing more is charged.
- Leaving an active coin game forfeits the stake and charges a leaving fee of 10% of the
  stake, rounded up to a whole coin, always in full: sitting down needs the stake plus the
  fee (:func:`cover`), and the balance keeps the fee of every game still played
  (``cover.py``).
- Once a day (UTC), an account whose balance cannot cover the smallest table (below
  :func:`top_up_below`) and that has no active coin game may take a free top-up to
  :data:`TOP_UP_TO` coins.
"""

from __future__ import annotations

from typing import Any

STAKES: tuple[int, ...] = (10, 50, 100, 500)
"""The stakes a coin table offers."""

STARTING_BALANCE = 1000
"""Coins a new account starts with."""

PAYOUT_MULTIPLE = 2
"""A win pays this many times the stake (the stake back plus equal winnings)."""

LEAVING_FEE_PERCENT = 10
"""Leaving an active coin game costs this percentage of the stake on top of the stake."""

TOP_UP_TO = 200
"""The free daily top-up brings the balance up to this many coins."""

NO_CASH_VALUE = "Play coins have no cash value and cannot be cashed out."
"""Shown wherever coins are shown."""


def payout(stake: int) -> int:
    """Coins paid back for a win at ``stake``."""
    return PAYOUT_MULTIPLE * stake


def leaving_fee(stake: int) -> int:
    """The leaving fee at ``stake``: 10% rounded up to a whole coin."""
    return -(-stake * LEAVING_FEE_PERCENT // 100)


def cover(stake: int) -> int:
    """Coins a balance needs to sit at ``stake``: the stake plus its leaving fee."""
    return stake + leaving_fee(stake)


def min_stake() -> int:
    """The smallest offered stake."""
    return min(STAKES)


def top_up_below() -> int:
    """The free top-up is for balances below this: the cover of the smallest stake, so a
    balance that cannot sit anywhere (10 coins: the 10-coin table needs 11) can take it."""
    return cover(min_stake())


def stakes_json() -> dict[str, Any]:
    """The body of ``GET /api/stakes``: every stake with what a win pays and what leaving costs."""
    return {
        "stakes": [
            {
                "stake": s,
                "payout": payout(s),
                "winnings": payout(s) - s,
                "leaving_fee": leaving_fee(s),
                "leaving_costs": s + leaving_fee(s),
                "cover": cover(s),
            }
            for s in STAKES
        ],
        "rule": (
            "The stake is held when the game starts. Win and you get twice the stake back "
            "(your stake plus equal winnings); lose and the stake is gone. Leaving an active "
            "game forfeits the stake plus a 10% leaving fee (rounded up to a whole coin). "
            "To sit down your balance must cover the stake plus that fee."
        ),
        "starting_balance": STARTING_BALANCE,
        "top_up_to": TOP_UP_TO,
        "notice": NO_CASH_VALUE,
    }
