"""Prize pools: a tournament's pool of entry fees shared by a stated table of places.

The table gives each paid place a whole percentage of the pool (:data:`DEFAULT_PRIZE_TABLE`:
50/30/20), the first place first, each no larger than the one before, summing to at most 100.
Every coin of the pool goes somewhere, in whole coins:

- place ``i`` is due ``pool * percent[i] // 100``; the coins lost to rounding down (what the
  table's total percentage gives, less the places' sum) go to the **first place** (the higher
  place), so a table summing to 100 pays the whole pool;
- people level at a place (1, 2, 2, 4) share the prizes of the places they cover (places 2 and
  3 there) evenly, in whole coins; the coins that do not divide go one each to the level people
  in the order the caller lists them (the service lists them in the order they entered);
- the **house's share** is what the table does not give (100 less its total percentage) and
  the prize of any place nobody holds (fewer finishers than paid places, or a place held by a
  computer or a person who left, whom the caller leaves out). The house never adds coins.

So ``sum(payouts) + house == pool`` always (:class:`Prizes`). Standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

DEFAULT_PRIZE_TABLE: tuple[int, ...] = (50, 30, 20)
"""The usual table: half the pool to the winner, 30% to second, 20% to third."""

MAX_PLACES = 16
"""The most paid places a table may have."""


@dataclass(frozen=True, slots=True)
class Prizes:
    """What a pool pays: each finisher's prize and the house's share."""

    payouts: dict[int, int]
    """Coins to each finisher (by the caller's id), 0 for a finisher out of the prizes."""
    house: int
    """Coins of the pool paid to nobody."""

    @property
    def paid(self) -> int:
        """Coins paid to finishers."""
        return sum(self.payouts.values())


def check_prize_table(table: Sequence[int]) -> tuple[int, ...]:
    """``table`` as a tuple if it is a valid prize table, else :class:`ValueError` saying why:
    1 to :data:`MAX_PLACES` whole percentages from 1 to 100, none larger than the one before,
    summing to at most 100."""
    out = tuple(table)
    if not 1 <= len(out) <= MAX_PLACES:
        raise ValueError(f"a prize table pays 1 to {MAX_PLACES} places, not {len(out)}")
    for percent in out:
        if isinstance(percent, bool) or not isinstance(percent, int) or not 1 <= percent <= 100:
            raise ValueError(f"each place's share is a whole percentage from 1 to 100, "
                             f"not {percent!r}")
    if any(lower > higher for higher, lower in pairwise(out)):
        raise ValueError("a lower place cannot be paid more than a higher one")
    if sum(out) > 100:
        raise ValueError(f"the prize table gives {sum(out)}% of the pool: at most 100%")
    return out


def describe_prize_table(table: Sequence[int]) -> str:
    """The table in words: ``"1st 50%, 2nd 30%, 3rd 20% of the pool"`` (and the house's part
    if the table gives less than the whole pool)."""
    out = check_prize_table(table)
    words = ", ".join(f"{_ordinal(i + 1)} {p}%" for i, p in enumerate(out))
    rest = 100 - sum(out)
    return f"{words} of the pool" + (f"; {rest}% to the house" if rest else "")


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def place_prizes(pool: int, table: Sequence[int]) -> list[int]:
    """Each paid place's coins from ``pool``: its percentage rounded down, the coins lost to
    rounding to the first place."""
    out = check_prize_table(table)
    if isinstance(pool, bool) or not isinstance(pool, int) or pool < 0:
        raise ValueError(f"a pool is a whole number of coins from 0, not {pool!r}")
    due = [pool * p // 100 for p in out]
    due[0] += pool * sum(out) // 100 - sum(due)
    return due


def prizes(pool: int, table: Sequence[int], ranks: Sequence[tuple[int, int]]) -> Prizes:
    """Share ``pool`` by ``table`` among the finishers ``ranks``: ``(id, place)`` pairs, places
    from 1 as the standings give them (people level share a place: 1, 2, 2, 4).

    Raises :class:`ValueError` for a bad table or pool, an id listed twice, or places that no
    standings give (a place below 1; two people at place 2 and one at place 3).
    """
    due = place_prizes(pool, table)
    ids = [who for who, _ in ranks]
    if len(set(ids)) != len(ids):
        raise ValueError("a finisher is listed twice")
    level: dict[int, list[int]] = {}
    for who, place in ranks:
        if isinstance(place, bool) or not isinstance(place, int) or place < 1:
            raise ValueError(f"a place is a whole number from 1, not {place!r}")
        level.setdefault(place, []).append(who)
    places = sorted(level)
    for place, following in pairwise(places):
        if following < place + len(level[place]):
            raise ValueError(f"{len(level[place])} people share place {place}, so nobody can "
                             f"be placed {following}")
    payouts = dict.fromkeys(ids, 0)
    for place, people in level.items():
        share = sum(due[place - 1:place - 1 + len(people)])
        each, left_over = divmod(share, len(people))
        for index, who in enumerate(people):
            payouts[who] = each + (1 if index < left_over else 0)
    return Prizes(payouts, pool - sum(payouts.values()))
