"""The ``expert`` computer player: the hard player's search, given the time hard leaves unused.

Same method as :mod:`euchre.bots.hard` (sample the unseen cards, weight each deal by how
well it explains the bidding and the play, solve it open-handed under a score-aware
payoff; bid by the hand-value tables with the clear-cut bids of
:mod:`euchre.bots.clear_cut` first), with a larger work budget per decision. The budget
is counted in deals and solver nodes, so its moves repeat exactly on any machine.
"""

from __future__ import annotations

from typing import ClassVar

from .hard import Budget, HardBot

EXPERT_BUDGET = Budget(samples=800, nodes=6_000_000, time_cap=1.0)
"""Deals and solver nodes per decision: inside 0.4 s at the 99th percentile on one core."""


class ExpertBot(HardBot):
    """The hard player with four times the sampled deals per decision."""

    level = "expert"
    default_budget: ClassVar[Budget] = EXPERT_BUDGET


__all__ = ["EXPERT_BUDGET", "ExpertBot"]
