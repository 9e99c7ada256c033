"""Team events by elimination: seeded single and double elimination brackets.

Pairs are numbered from 0 in seed order (0 the top seed). The bracket has a place for the next
power of two; the places beyond the field are empty, and the seeding (1 v 16, 8 v 9, ...)
puts them against the top seeds, so the top seeds have the byes of the first round.

A bracket is a fixed set of named matches; each place of a match is fed by a seed, or by the
winner or the loser of an earlier match. A match with one empty place is a **bye** for the
other pair (it goes through without playing: :attr:`Bracket.byes`); with two empty places it
is empty itself. The state of a bracket is a pure function of its results so far
(``{match name: winning pair}``): :func:`single_elimination` and :func:`double_elimination`
give the matches ready to play, the byes, each pair's losses, who is out, and the champion.

- Single elimination: matches ``W1.1``, ``W1.2``, ... ``Wk.1`` (round, then match); one loss
  puts a pair out.
- Double elimination: the winners bracket as above; the losers bracket ``L1.1`` ... (losers of
  the winners' first round meet, then each later round's losers drop in); the grand final
  ``GF`` between the two brackets' winners; with ``reset``, if the losers bracket's winner
  wins the grand final (the other pair's first loss), a second final ``GF2`` decides it. Two
  losses put a pair out (without a reset, the winners bracket's winner is out after losing
  the grand final).

Standard library only; the same arguments give the same bracket.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from .team_pairings import check_teams

Source = tuple[Literal["seed", "winner", "loser"], int | str]
"""What feeds a place of a match: a seed (the pair's number, maybe beyond the field: empty),
or the winner or the loser of a named match."""

EMPTY = -1
"""A place no pair fills (beyond the field, or the loser of a bye)."""
_PENDING = -2


@dataclass(frozen=True, slots=True)
class Match:
    """A match of a bracket whose two pairs are known."""

    name: str
    """The match's name in the bracket (``W1.1``, ``L2.3``, ``GF``, ``GF2``)."""
    first: int
    """The pair in seats 0 and 2 (the one from the upper place)."""
    second: int
    """The pair in seats 1 and 3."""


@dataclass(frozen=True, slots=True)
class Bracket:
    """An elimination bracket's state after the results so far."""

    ready: tuple[Match, ...]
    """Matches whose two pairs are known and that have no result yet: the next to play."""
    byes: tuple[tuple[str, int], ...]
    """``(match, pair)`` for each match a pair went through without playing."""
    losses: tuple[int, ...]
    """Each pair's losses so far, by pair number."""
    out: tuple[int, ...]
    """Pairs knocked out, in the order they went out."""
    champion: int | None
    """The winner, once decided."""
    played: tuple[Match, ...] = field(default=())
    """Matches with a result, in bracket order."""


def bracket_order(size: int) -> list[int]:
    """The seeds (from 0) in the order of a bracket's first-round places, for a power of two:
    for 8, ``[0, 7, 3, 4, 1, 6, 2, 5]`` (1 v 8, 4 v 5, 2 v 7, 3 v 6)."""
    if size < 1 or size & (size - 1):
        raise ValueError(f"a bracket's size is a power of two, not {size}")
    order = [0]
    while len(order) < size:
        count = 2 * len(order)
        order = [s for seed in order for s in (seed, count - 1 - seed)]
    return order


def _size(teams: int) -> int:
    size = 1
    while size < teams:
        size *= 2
    return size


def _winners_bracket(teams: int) -> dict[str, tuple[Source, Source]]:
    size = _size(teams)
    seeds = bracket_order(size)
    plan: dict[str, tuple[Source, Source]] = {}
    for i in range(size // 2):
        plan[f"W1.{i + 1}"] = (("seed", seeds[2 * i]), ("seed", seeds[2 * i + 1]))
    matches, r = size // 2, 1
    while matches > 1:
        matches //= 2
        r += 1
        for i in range(matches):
            plan[f"W{r}.{i + 1}"] = (("winner", f"W{r - 1}.{2 * i + 1}"),
                                     ("winner", f"W{r - 1}.{2 * i + 2}"))
    return plan


def _rounds(teams: int) -> int:
    return _size(teams).bit_length() - 1


def single_elimination_plan(teams: int) -> dict[str, tuple[Source, Source]]:
    """Every match of a single elimination bracket of ``teams`` pairs (2 to 64), each after
    the matches that feed it, with what feeds its two places."""
    return _winners_bracket(check_teams(teams))


def double_elimination_plan(teams: int, reset: bool = True) -> dict[str, tuple[Source, Source]]:
    """Every match of a double elimination bracket of ``teams`` pairs (2 to 64), each after
    the matches that feed it (winners bracket, losers bracket, ``GF``, then ``GF2`` with
    ``reset``), with what feeds its two places."""
    plan = _winners_bracket(check_teams(teams))
    k = _rounds(teams)
    number = 0  # the losers bracket's rounds so far
    last: list[str] = []  # the losers bracket's latest round's matches
    for r in range(1, k + 1):
        dropped = [f"W{r}.{i + 1}" for i in range(2 ** (k - r))]
        if r % 2 == 0:
            dropped.reverse()  # losers drop in crosswise, so two pairs rarely meet again at once
        if r == 1:
            if len(dropped) > 1:
                number = 1
                last = [f"L1.{i + 1}" for i in range(len(dropped) // 2)]
                for i, name in enumerate(last):
                    plan[name] = (("loser", dropped[2 * i]), ("loser", dropped[2 * i + 1]))
            continue
        if len(last) > len(dropped):
            # Halve the losers bracket first, so its winners meet the pairs dropping in.
            number += 1
            halved = [f"L{number}.{i + 1}" for i in range(len(last) // 2)]
            for i, name in enumerate(halved):
                plan[name] = (("winner", last[2 * i]), ("winner", last[2 * i + 1]))
            last = halved
        number += 1
        current = [f"L{number}.{i + 1}" for i in range(len(dropped))]
        for i, name in enumerate(current):
            plan[name] = (("winner", last[i]), ("loser", dropped[i]))
        last = current
    final = f"W{k}.1"
    lower: Source = ("winner", last[0]) if last else ("loser", final)
    plan["GF"] = (("winner", final), lower)
    if reset:
        plan["GF2"] = (("winner", final), lower)
    return plan


def single_elimination(teams: int, results: Mapping[str, int]) -> Bracket:
    """A single elimination bracket's state from the results so far (``{match: winner}``).

    Raises :class:`ValueError` for a result of a match that is not ready or not in the
    bracket, or whose winner did not play in it.
    """
    return _state(check_teams(teams), single_elimination_plan(teams), results, None)


def double_elimination(teams: int, results: Mapping[str, int], reset: bool = True) -> Bracket:
    """A double elimination bracket's state from the results so far (``{match: winner}``);
    with ``reset`` a second grand final is played when the losers bracket's winner wins the
    first. Raises :class:`ValueError` as :func:`single_elimination` does."""
    return _state(check_teams(teams), double_elimination_plan(teams, reset), results,
                  "GF2" if reset else None)


def _state(teams: int, plan: Mapping[str, tuple[Source, Source]], results: Mapping[str, int],
           reset: str | None) -> Bracket:
    for name in results:
        if name not in plan:
            raise ValueError(f"there is no match {name!r} in this bracket")
    outcome: dict[str, tuple[int, int]] = {}  # match -> (winner, loser), EMPTY or pending

    def feed(source: Source) -> int:
        kind, value = source
        if kind == "seed":
            assert isinstance(value, int)
            return value if value < teams else EMPTY
        assert isinstance(value, str)
        return outcome[value][0 if kind == "winner" else 1]

    ready: list[Match] = []
    played: list[Match] = []
    byes: list[tuple[str, int]] = []
    losses = [0] * teams
    out: list[int] = []
    double = "GF" in plan
    for name, (upper, lower) in plan.items():
        a, b = feed(upper), feed(lower)
        if name == reset and outcome["GF"][0] in (_PENDING, a):
            # No second final (yet): the grand final is unplayed, or the winners bracket's
            # winner won it.
            outcome[name] = (outcome["GF"][0], EMPTY)
            if name in results:
                raise ValueError(f"match {name} is not to be played")
            continue
        if _PENDING in (a, b):
            outcome[name] = (_PENDING, _PENDING)
            if name in results:
                raise ValueError(f"match {name} is not ready: its pairs are not known yet")
            continue
        if EMPTY in (a, b):
            through = b if a == EMPTY else a
            outcome[name] = (through, EMPTY)
            if through != EMPTY:
                byes.append((name, through))
            if name in results:
                raise ValueError(f"match {name} is a bye: it is not played")
            continue
        match = Match(name, a, b)
        if name not in results:
            outcome[name] = (_PENDING, _PENDING)
            ready.append(match)
            continue
        won = results[name]
        if won not in (a, b):
            raise ValueError(f"pair {won!r} did not play in match {name} ({a} v {b})")
        lost = b if won == a else a
        outcome[name] = (won, lost)
        played.append(match)
        losses[lost] += 1
        # Out at the second loss (the first in single elimination); without a reset the
        # grand final's loser is out whatever its losses.
        if losses[lost] == (2 if double else 1) or (name == "GF" and reset is None):
            out.append(lost)
    decider = outcome[reset if reset is not None else list(plan)[-1]][0]
    champion = decider if decider >= 0 else None
    return Bracket(tuple(ready), tuple(byes), tuple(losses), tuple(out), champion,
                   tuple(played))
