"""Team events online: fixed pairs, their matches round by round, and their standings.

Pair ``t`` is the entrants numbered ``2t`` and ``2t + 1`` (numbers are given at the start,
pairs in the order they registered: that is the seeding, 0 the top seed). A match ``(x, y)``
seats pair ``x`` at 0 and 2 and pair ``y`` at 1 and 3, so a table's seats are
``(2x, 2y, 2x + 1, 2y + 1)``. Each round's matches come from the library
(:func:`euchre.tournament.round_robin`, :func:`euchre.tournament.swiss_round`,
:func:`euchre.tournament.single_elimination`, :func:`euchre.tournament.double_elimination`)
given the results kept so far; these functions only read rows, the service writes them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..tournament import (
    TEAM_TIE_BREAKS,
    Bracket,
    MatchResult,
    describe_tie_breaks,
    double_elimination,
    rank_teams,
    round_robin,
    single_elimination,
    swiss_round,
    team_records,
)

TEAM_FORMATS = ("round_robin", "swiss", "single_elimination", "double_elimination")
"""Team events of fixed pairs."""
ELIMINATION = ("single_elimination", "double_elimination")
"""The formats played as a bracket (pairs beyond a power of two leave byes, not computers)."""
FORMAT_NAMES = {
    "progressive": "Progressive (rotating partners)",
    "round_robin": "Round robin (fixed pairs)",
    "swiss": "Swiss (fixed pairs)",
    "single_elimination": "Single elimination (fixed pairs)",
    "double_elimination": "Double elimination (fixed pairs)",
}
"""Each format as pages name it."""
MAX_PAIRS = 32
"""The most pairs in a team event (64 people, as the largest progressive field)."""
ELIMINATION_ORDER = (
    "the champion first; then the pairs by the round they went out in, a later round "
    "placing higher",
    "pairs that went out in the same round share a place",
)
"""How an elimination event places its pairs, as its page states it."""
LEVEL_ROUND = ("a match of a round of hands that ends level goes to the pair that scored its "
               "last hand")
"""How an elimination match of a round of hands that ends level is decided."""


def is_team(fmt: str) -> bool:
    """Whether ``fmt`` is a team event (fixed pairs)."""
    return fmt in TEAM_FORMATS


def teams_for(fmt: str, pairs: int) -> int:
    """How many pairs play when ``pairs`` registered: round robin and Swiss fill to an even
    count (and at least two) with computer pairs, so nobody sits out a round; elimination
    fills only to two (a bracket gives the top seeds byes instead)."""
    if fmt in ELIMINATION:
        return max(2, pairs)
    return max(2, pairs + pairs % 2)


def filled_text(pairs: int, teams: int) -> str | None:
    """Said plainly at the start: "5 pairs; 1 computer pair fills the count to 6"."""
    computers = teams - pairs
    if not computers:
        return None
    return (f"{pairs} pair{'' if pairs == 1 else 's'}; {computers} computer "
            f"pair{' fills' if computers == 1 else 's fill'} the count to {teams}")


def seats_of(match: tuple[int, int]) -> tuple[int, int, int, int]:
    """The entrant numbers in seats 0-3 for the match ``(x, y)``."""
    x, y = match
    return (2 * x, 2 * y, 2 * x + 1, 2 * y + 1)


def planned_rounds(fmt: str, teams: int, rounds: int) -> int:
    """The rounds the event plays, as far as is known at the start (elimination: the
    winners bracket's rounds; more are added as the bracket needs them)."""
    if fmt == "round_robin":
        return len(round_robin(teams))
    if fmt == "swiss":
        return rounds
    return max(1, (teams - 1).bit_length())


def results_of(tables: Sequence[Any]) -> list[MatchResult]:
    """Every finished match's result, in round and table order."""
    out = []
    for t in tables:
        if t["points"] is None:
            continue
        points = t["points"]
        out.append(MatchResult(int(t["seat0"]) // 2, int(t["seat1"]) // 2,
                               int(points[0]), int(points[1])))
    return out


def bracket_results(tables: Sequence[Any]) -> dict[str, int]:
    """``{match: winning pair}`` of every finished bracket match."""
    out = {}
    for t in tables:
        if t["points"] is not None and t["match"] is not None and t["winner"] is not None:
            out[str(t["match"])] = int(t["seat0" if int(t["winner"]) == 0 else "seat1"]) // 2
    return out


def bracket_of(fmt: str, teams: int, tables: Sequence[Any]) -> Bracket:
    """The bracket after the results kept so far."""
    results = bracket_results(tables)
    if fmt == "single_elimination":
        return single_elimination(teams, results)
    return double_elimination(teams, results)


def next_matches(fmt: str, teams: int, rounds: int, current: int, tables: Sequence[Any]
                 ) -> list[tuple[str | None, tuple[int, int]]] | None:
    """The matches of round ``current + 1`` (with their bracket names), given every table
    so far; None when the event is over."""
    if fmt == "round_robin":
        plan = round_robin(teams)
        if current >= len(plan):
            return None
        return [(None, m) for m in plan[current].matches]
    if fmt == "swiss":
        if current >= rounds:
            return None
        return [(None, m) for m in swiss_round(teams, results_of(tables)).matches]
    bracket = bracket_of(fmt, teams, tables)
    if bracket.champion is not None or not bracket.ready:
        return None
    return [(m.name, (m.first, m.second)) for m in bracket.ready]


def tie_breaks(fmt: str, by_hands: bool) -> list[str]:
    """The order of the standings in words, as the page states it."""
    if fmt in ELIMINATION:
        return [*ELIMINATION_ORDER, *([LEVEL_ROUND] if by_hands else [])]
    return describe_tie_breaks(TEAM_TIE_BREAKS)


def placing(fmt: str, teams: int, tables: Sequence[Any]) -> dict[int, int | None]:
    """Each pair's place (elimination: pairs still in have none yet, and stand above
    every pair out). Round robin and Swiss rank
    by :data:`euchre.tournament.TEAM_TIE_BREAKS`; elimination by the round a pair went out
    in (see :data:`ELIMINATION_ORDER`)."""
    if fmt not in ELIMINATION:
        return {s.record.team: s.place for s in rank_teams(teams, results_of(tables))}
    bracket = bracket_of(fmt, teams, tables)
    last_round = dict.fromkeys(range(teams), 0)
    for t in tables:
        if t["points"] is not None:
            for seat in ("seat0", "seat1"):
                last_round[int(t[seat]) // 2] = max(last_round[int(t[seat]) // 2],
                                                    int(t["round"]))
    out: dict[int, int | None] = dict.fromkeys(range(teams))
    if bracket.champion is not None:
        out[bracket.champion] = 1
    # Pairs still in (and the champion) stand above every pair out; among those out, a
    # later round places higher, and one round's pairs share a place.
    above = teams - len(bracket.out)
    for pair in bracket.out:
        out[pair] = above + 1 + sum(last_round[o] > last_round[pair] for o in bracket.out)
    return out


def team_lines(fmt: str, teams: int, tables: Sequence[Any], names: Sequence[str],
               kinds: Sequence[str]) -> list[dict[str, Any]]:
    """The team standings as the page shows them: place, pair, record, in or out."""
    places = placing(fmt, teams, tables)
    record = {r.team: [r.wins, r.draws, r.losses, r.points_for, r.points_against]
              for r in team_records(teams, results_of(tables))}
    if fmt in ELIMINATION:  # a level round decided by the last hand: a win, not a draw
        wins = {t: 0 for t in range(teams)}
        losses = {t: 0 for t in range(teams)}
        for t in tables:
            if t["points"] is not None and t["winner"] is not None:
                won_seat, lost_seat = ("seat0", "seat1") if int(t["winner"]) == 0 \
                    else ("seat1", "seat0")
                wins[int(t[won_seat]) // 2] += 1
                losses[int(t[lost_seat]) // 2] += 1
        for p in range(teams):
            record[p][0], record[p][1], record[p][2] = wins[p], 0, losses[p]
    bracket = bracket_of(fmt, teams, tables) if fmt in ELIMINATION else None
    out = []
    for pair in range(teams):
        status = "in"
        if bracket is not None:
            status = ("champion" if bracket.champion == pair
                      else "out" if pair in bracket.out else "in")
        w, d, lost, made, conceded = record[pair]
        out.append({"place": places[pair], "pair": pair, "name": names[pair],
                    "kind": kinds[pair], "wins": w, "draws": d, "losses": lost,
                    "points_for": made, "points_against": conceded, "status": status})
    out.sort(key=lambda line: (line["place"] is None, line["place"] or 0, line["pair"]))
    return out
