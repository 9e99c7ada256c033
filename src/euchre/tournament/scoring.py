"""Individual scores for progressive tournaments, and standings with their tie-breaks.

In a progressive event everyone keeps their own running score: in every hand a person scores
what their side made. With loner bonuses (a house choice of many euchre nights) a lone hand
that takes all five tricks scores 5 to the lone player and 4 to the partner, and a side that
euchres a lone hand scores 3 each; otherwise the classic scoring table applies (1 for three or
four tricks, 2 for a march, 4 for a lone march, 2 to the defenders for a euchre).

Standings order by total points, then lone hands made (lone marches), then fewest times
euchred (as a maker), then the last round's points; people equal on all four share a place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .schedule import Table

TIE_BREAKS = (
    "total points",
    "lone hands made (all five tricks alone)",
    "fewest times euchred",
    "points in the last round",
)
"""The tie-breaks in order, as the tournament's page states them."""


@dataclass(frozen=True, slots=True)
class HandScore:
    """One hand at one table as a scorer enters it: who made trump, their tricks, any loner."""

    makers: int
    """0 if the table's first pair (seats 0 and 2) made trump, 1 if the second pair did."""
    tricks: int
    """Tricks the makers took, 0 to 5."""
    lone: int | None = None
    """The person who went alone (one of the makers), or None."""

    def check(self, table: Table) -> None:
        """Raise :class:`ValueError` unless this hand fits ``table``."""
        if self.makers not in (0, 1) or isinstance(self.makers, bool):
            raise ValueError("makers must be 0 (seats 0 and 2) or 1 (seats 1 and 3)")
        if isinstance(self.tricks, bool) or not isinstance(self.tricks, int) or not (
            0 <= self.tricks <= 5
        ):
            raise ValueError(f"the makers' tricks must be 0 to 5, not {self.tricks!r}")
        if self.lone is not None and self.lone not in table[self.makers]:
            raise ValueError(f"person {self.lone} is not one of the makers, so cannot go alone")


def hand_points(table: Table, hand: HandScore, loner_bonus: bool = False) -> dict[int, int]:
    """What each person at ``table`` scores for ``hand`` (everyone at the table is a key)."""
    hand.check(table)
    makers, defenders = table[hand.makers], table[1 - hand.makers]
    out = dict.fromkeys((*makers, *defenders), 0)
    if hand.tricks < 3:
        for person in defenders:
            out[person] = 3 if loner_bonus and hand.lone is not None else 2
    elif hand.tricks == 5 and hand.lone is not None:
        for person in makers:
            out[person] = (5 if person == hand.lone else 4) if loner_bonus else 4
    else:
        for person in makers:
            out[person] = 2 if hand.tricks == 5 else 1
    return out


@dataclass(slots=True)
class Tally:
    """One person's record over a tournament so far."""

    person: int
    """The person's number."""
    rounds: list[int] = field(default_factory=list)
    """Points in each round played, in order."""
    loners_made: int = 0
    """Lone hands the person played that took all five tricks."""
    euchred: int = 0
    """Hands in which the person's side made trump and was euchred."""

    @property
    def points(self) -> int:
        """Total points over every round."""
        return sum(self.rounds)

    def key(self) -> tuple[int, int, int, int]:
        """The sort key of the tie-breaks, best first when sorted ascending."""
        return (-self.points, -self.loners_made, self.euchred,
                -(self.rounds[-1] if self.rounds else 0))


@dataclass(frozen=True, slots=True)
class StandingsLine:
    """One line of the standings."""

    place: int
    """1 for the leader; people equal on every tie-break share a place (1, 2, 2, 4)."""
    tally: Tally
    """The person's record."""


RoundPlay = Sequence[tuple[Table, Sequence[HandScore]]]
"""One round as played: each table with the hands entered there."""


def tallies(people: int, rounds: Sequence[RoundPlay], loner_bonus: bool = False) -> list[Tally]:
    """Every person's tally (people numbered ``0 .. people - 1``) over the rounds played.

    A person who sat at no table in a round (a late comer) scores 0 for it.
    """
    out = [Tally(p) for p in range(people)]
    for number, play in enumerate(rounds):
        for tally in out:
            tally.rounds.append(0)
        for table, hands in play:
            for person in (*table[0], *table[1]):
                if not 0 <= person < people:
                    raise ValueError(f"round {number + 1}: no person {person} among {people}")
            for hand in hands:
                for person, points in hand_points(table, hand, loner_bonus).items():
                    out[person].rounds[number] += points
                if hand.tricks == 5 and hand.lone is not None:
                    out[hand.lone].loners_made += 1
                if hand.tricks < 3:
                    for person in table[hand.makers]:
                        out[person].euchred += 1
    return out


def standings(records: Sequence[Tally]) -> list[StandingsLine]:
    """The tallies in order of the tie-breaks, with shared places for full ties."""
    ordered = sorted(records, key=lambda t: (t.key(), t.person))
    out: list[StandingsLine] = []
    for index, tally in enumerate(ordered):
        tied = out and out[-1].tally.key() == tally.key()
        out.append(StandingsLine(out[-1].place if tied else index + 1, tally))
    return out


def table_winner(table: Table, hands: Sequence[HandScore]) -> int | None:
    """Which pair of ``table`` made more points over ``hands`` (0 or 1), or None for a tie.

    Counts side points without loner bonuses, for king's table movement.
    """
    side = [0, 0]
    for hand in hands:
        points = hand_points(table, hand)
        side[0] += points[table[0][0]]
        side[1] += points[table[1][0]]
    if side[0] == side[1]:
        return None
    return 0 if side[0] > side[1] else 1


def table_winner_or_last(table: Table, hands: Sequence[HandScore]) -> int:
    """:func:`table_winner`, a tie going to the pair that scored the last hand (every hand
    scores for exactly one pair, so this always names one). Raises :class:`ValueError` for a
    table with no hands."""
    if not hands:
        raise ValueError("a table with no hands has no winner")
    won = table_winner(table, hands)
    if won is not None:
        return won
    last = hand_points(table, hands[-1])
    return 0 if last[table[0][0]] > 0 else 1
