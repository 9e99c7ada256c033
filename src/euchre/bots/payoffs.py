"""What a hand is worth to the makers, and who leads it: shared by the sampling players.

The open-hand solver needs, for each deal, the payoff of every maker trick count and the
first leader; :mod:`euchre.bots.hard` and :mod:`euchre.bots.bidding` both build them.
"""

from __future__ import annotations

from ..view import HandView
from .policy import utility


def payoffs(view: HandView, maker: int, alone: bool, lone_defender: int) -> tuple[
    list[int], list[float], list[int]
]:
    """Per maker trick count 0-5: score-aware worth for the makers (thousandths), points
    for the makers' side (signed), and whether they made it (0 or 1)."""
    side = maker % 2
    game_to = view.rules.game_to
    euchre = 4 if lone_defender >= 0 else 2
    worth: list[int] = []
    points: list[float] = []
    for t in range(6):
        if t < 3:
            ours, theirs = 0, euchre
        elif t < 5:
            ours, theirs = 1, 0
        else:
            ours, theirs = (4 if alone else 2), 0
        worth.append(round(1000 * utility(view.score, side, ours, theirs, game_to)))
        points.append(float(ours - theirs))
    return worth, points, [0, 0, 0, 1, 1, 1]


def out_mask(view: HandView) -> int:
    """The seats sitting out, as a 4-bit mask."""
    m = 0
    for s in view.sitting_out:
        m |= 1 << s
    return m


def first_leader(view: HandView, out: int, maker: int, alone: bool, lone_defender: int) -> int:
    """Who leads the first trick, as the engine decides it."""
    lone = maker if alone else lone_defender
    start = lone if view.rules.lead_when_sitting_out == "loner-left" and lone >= 0 else view.dealer
    seat = (start + 1) % 4
    while out >> seat & 1:
        seat = (seat + 1) % 4
    return seat
