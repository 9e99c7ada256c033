"""Team events' results and standings: fixed pairs ranked by tie-breaks stated as data.

In a team event (fixed pairs) each match is two pairs playing, and its result is the points
each pair made. Pairs are numbered from 0 in seed order (0 the top seed). The standings order
pairs by the tie-breaks in turn (by default :data:`TEAM_TIE_BREAKS`: match wins, then points
difference, then head to head). A tie-break is applied within each group still level after
the ones before it; head to head counts only the matches between the members of that group.
Pairs level on every tie-break share a place (1, 2, 2, 4).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

TeamTieBreak = Literal["match_wins", "points_difference", "points_for", "head_to_head"]
"""One tie-break of a team event, by name."""

TEAM_TIE_BREAK_TEXT: dict[TeamTieBreak, str] = {
    "match_wins": "match wins (a drawn match counts half, a bye counts as a win)",
    "points_difference": "points difference (points made less points conceded)",
    "points_for": "points made",
    "head_to_head": "match wins in the matches between the pairs still level",
}
"""What each tie-break means, as a tournament's page states it."""

TEAM_TIE_BREAKS: tuple[TeamTieBreak, ...] = ("match_wins", "points_difference", "head_to_head")
"""The default tie-breaks of team events, in order."""


@dataclass(frozen=True, slots=True)
class MatchResult:
    """One match of a team event as played: the two pairs and the points each made."""

    first: int
    """The pair in seats 0 and 2."""
    second: int
    """The pair in seats 1 and 3."""
    first_points: int
    """Points the first pair made."""
    second_points: int
    """Points the second pair made."""

    @property
    def winner(self) -> int | None:
        """The pair that made more points, or None for a drawn match."""
        if self.first_points == self.second_points:
            return None
        return self.first if self.first_points > self.second_points else self.second

    @property
    def loser(self) -> int | None:
        """The pair that made fewer points, or None for a drawn match."""
        won = self.winner
        return None if won is None else (self.second if won == self.first else self.first)

    def check(self, teams: int) -> None:
        """Raise :class:`ValueError` unless this is a match between two of ``teams`` pairs."""
        for pair in (self.first, self.second):
            if isinstance(pair, bool) or not isinstance(pair, int) or not 0 <= pair < teams:
                raise ValueError(f"no pair {pair!r} among {teams}")
        if self.first == self.second:
            raise ValueError(f"pair {self.first} cannot play itself")
        for points in (self.first_points, self.second_points):
            if isinstance(points, bool) or not isinstance(points, int) or points < 0:
                raise ValueError(f"points must be whole numbers from 0, not {points!r}")


@dataclass(frozen=True, slots=True)
class TeamRecord:
    """One pair's record over the matches played so far."""

    team: int
    """The pair's number."""
    wins: int = 0
    """Matches won."""
    draws: int = 0
    """Matches drawn."""
    losses: int = 0
    """Matches lost."""
    byes: int = 0
    """Byes counted as wins (Swiss)."""
    points_for: int = 0
    """Points made over every match."""
    points_against: int = 0
    """Points conceded over every match."""

    @property
    def match_wins(self) -> int:
        """Match wins in halves: 2 a win or a bye, 1 a draw (whole numbers, no fractions)."""
        return 2 * (self.wins + self.byes) + self.draws

    @property
    def points_difference(self) -> int:
        """Points made less points conceded."""
        return self.points_for - self.points_against


@dataclass(frozen=True, slots=True)
class TeamStanding:
    """One line of a team event's standings."""

    place: int
    """1 for the leader; pairs level on every tie-break share a place."""
    record: TeamRecord
    """The pair's record."""


def describe_tie_breaks(tie_breaks: Sequence[TeamTieBreak] = TEAM_TIE_BREAKS) -> list[str]:
    """The tie-breaks in words, in order, for the tournament's page."""
    _check_tie_breaks(tie_breaks)
    return [TEAM_TIE_BREAK_TEXT[t] for t in tie_breaks]


def team_records(teams: int, results: Iterable[MatchResult],
                 byes: Iterable[int] = ()) -> list[TeamRecord]:
    """Each pair's record (pairs ``0 .. teams - 1``) from the results and the byes that count
    as wins (Swiss byes; a round robin's byes need not be passed: every pair has one)."""
    if isinstance(teams, bool) or not isinstance(teams, int) or teams < 1:
        raise ValueError(f"teams must be a whole number from 1, not {teams!r}")
    tally = [[0, 0, 0, 0, 0, 0] for _ in range(teams)]  # wins draws losses byes for against
    for result in results:
        result.check(teams)
        won = result.winner
        for pair, made, conceded in ((result.first, result.first_points, result.second_points),
                                     (result.second, result.second_points, result.first_points)):
            row = tally[pair]
            row[0 if won == pair else 1 if won is None else 2] += 1
            row[4] += made
            row[5] += conceded
    for pair in byes:
        if isinstance(pair, bool) or not isinstance(pair, int) or not 0 <= pair < teams:
            raise ValueError(f"no pair {pair!r} among {teams} to have a bye")
        tally[pair][3] += 1
    return [TeamRecord(n, *row) for n, row in enumerate(tally)]


def rank_teams(teams: int, results: Sequence[MatchResult], byes: Iterable[int] = (),
               tie_breaks: Sequence[TeamTieBreak] = TEAM_TIE_BREAKS) -> list[TeamStanding]:
    """The standings: every pair in order of the tie-breaks, level pairs sharing a place
    (listed by number). Deterministic: the same arguments give the same order."""
    _check_tie_breaks(tie_breaks)
    records = team_records(teams, results, byes)
    groups = _split(list(range(teams)), records, results, tuple(tie_breaks))
    out: list[TeamStanding] = []
    for group in groups:
        place = len(out) + 1
        out.extend(TeamStanding(place, records[t]) for t in sorted(group))
    return out


def _split(group: list[int], records: Sequence[TeamRecord], results: Sequence[MatchResult],
           tie_breaks: tuple[TeamTieBreak, ...]) -> list[list[int]]:
    """``group`` in order of the tie-breaks, as groups still level after all of them."""
    if len(group) < 2 or not tie_breaks:
        return [group]
    rule, rest = tie_breaks[0], tie_breaks[1:]
    if rule == "head_to_head":
        members = set(group)
        among = team_records(len(records), (r for r in results
                                            if r.first in members and r.second in members))
        value = {t: among[t].match_wins for t in group}
    else:
        value = {t: getattr(records[t], rule) for t in group}
    out: list[list[int]] = []
    for level in sorted(set(value.values()), reverse=True):
        out.extend(_split([t for t in group if value[t] == level], records, results, rest))
    return out


def _check_tie_breaks(tie_breaks: Sequence[str]) -> None:
    for rule in tie_breaks:
        if rule not in TEAM_TIE_BREAK_TEXT:
            known = ", ".join(TEAM_TIE_BREAK_TEXT)
            raise ValueError(f"unknown tie-break {rule!r}: choose from {known}")
    if len(set(tie_breaks)) != len(tie_breaks):
        raise ValueError("a tie-break is named twice")
