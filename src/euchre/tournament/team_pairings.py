"""Team events' pairings by rounds: fixed pairs in a round robin, and Swiss rounds.

Pairs are numbered from 0 in seed order. A match ``(x, y)`` puts pair ``x`` in seats 0 and 2
and pair ``y`` in seats 1 and 3. With an odd number of pairs one pair sits out each round: a
**bye**, said as such in :attr:`TeamRound.byes`, never hidden as a match.

- :func:`round_robin`: the circle method. Every pair meets every other exactly once, in
  ``teams - 1`` rounds (``teams`` rounds for an odd count, each pair having one bye), and each
  pair sits in seats 0 and 2 in half its matches, give or take one.
- :func:`swiss_round`: the next round from the results so far. Pairs are ordered by match wins
  and points difference (a Swiss bye counts as a win), level pairs by number; each in turn,
  from the top, meets the nearest pair below it that it has not met, as long as the rest can
  still be paired without a rematch. Rematches happen only when no pairing avoids them, and
  then as few as possible. The bye goes to the lowest placed pair that has not had one (past
  that, the fewest byes).

Standard library only; the same arguments give the same pairings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from .matching import matching_size, pair_in_order
from .team_standings import MatchResult, rank_teams

MAX_TEAMS = 64
"""The largest field the pairings take."""


@dataclass(frozen=True, slots=True)
class TeamRound:
    """One round of a team event."""

    matches: tuple[tuple[int, int], ...]
    """The matches, ``(seats 0 and 2, seats 1 and 3)``."""
    byes: tuple[int, ...] = ()
    """Pairs that sit out this round (a bye)."""

    def teams(self) -> list[int]:
        """Every pair in this round, playing or on a bye."""
        return [t for match in self.matches for t in match] + list(self.byes)


def check_teams(teams: object, low: int = 2) -> int:
    """``teams`` if it is a whole number from ``low`` to :data:`MAX_TEAMS`, else
    :class:`ValueError` saying so."""
    if isinstance(teams, bool) or not isinstance(teams, int) or not low <= teams <= MAX_TEAMS:
        raise ValueError(f"teams must be a whole number from {low} to {MAX_TEAMS}, not {teams!r}")
    return teams


def round_robin(teams: int) -> list[TeamRound]:
    """Every round of a round robin of ``teams`` pairs (2 to :data:`MAX_TEAMS`).

    The circle method: with a place for a bye added to an odd count, the last place stays and
    the others move one place round the circle each round. ``teams - 1`` rounds for an even
    count, ``teams`` for an odd one (then each pair has exactly one bye).
    """
    check_teams(teams)
    places = teams + teams % 2
    circle = places - 1  # place ``circle`` stays; with an odd count it is the bye
    out: list[TeamRound] = []
    for r in range(circle):
        pairs = [(circle, r) if r % 2 else (r, circle)]
        for k in range(1, places // 2):
            a, b = (r + k) % circle, (r - k) % circle
            # Alternating sides this way keeps each pair's seats balanced within one.
            pairs.append((a, b) if k % 2 else (b, a))
        matches = tuple(p for p in pairs if teams not in p)
        byes = tuple(t for p in pairs if teams in p for t in p if t != teams)
        out.append(TeamRound(matches, byes))
    return out


def swiss_round(teams: int, results: Sequence[MatchResult],
                byes: Sequence[int] = ()) -> TeamRound:
    """The next Swiss round of ``teams`` pairs from every result so far and the byes given.

    See the module's description for the rule. Raises :class:`ValueError` for a result or a
    bye that names no pair of the event.
    """
    check_teams(teams)
    order = [s.record.team for s in
             rank_teams(teams, results, byes, ("match_wins", "points_difference"))]
    met = frozenset(frozenset((r.first, r.second)) for r in results)
    given: list[int] = []
    if teams % 2:
        had = {t: 0 for t in order}
        for t in byes:
            had[t] += 1
        fewest = min(had.values())
        bye = next(t for t in reversed(order) if had[t] == fewest)
        order.remove(bye)
        given.append(bye)
    return TeamRound(_pair_in_order(tuple(order), met), tuple(given))


def _pair_in_order(order: tuple[int, ...],
                   met: frozenset[frozenset[int]]) -> tuple[tuple[int, int], ...]:
    """Pair ``order`` (best first) top down, each with the nearest pair it has not met that
    leaves the rest pairable with the fewest rematches."""

    def fresh(a: int, b: int) -> bool:
        return frozenset((a, b)) not in met

    quick = pair_in_order(order, fresh)
    if quick is not None:  # the usual case: no rematch is needed
        return tuple(quick)

    @cache
    def rematches(rest: frozenset[int]) -> int:
        """The fewest rematches any pairing of ``rest`` needs."""
        return len(rest) // 2 - matching_size(sorted(rest), fresh)

    left = list(order)
    out: list[tuple[int, int]] = []
    while left:
        top, others = left[0], left[1:]
        need = rematches(frozenset(left))
        for other in others:
            rest = frozenset(left) - {top, other}
            if (0 if fresh(top, other) else 1) + rematches(rest) == need:
                break
        else:  # pragma: no cover - some opponent always attains the least
            raise AssertionError("no opponent attains the fewest rematches")
        out.append((top, other))
        left.remove(top)
        left.remove(other)
    return tuple(out)
