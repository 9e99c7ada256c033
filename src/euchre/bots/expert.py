"""The ``expert`` computer player: the hard player's search, given the time hard leaves unused.

Same method as :mod:`euchre.bots.hard` (sample the unseen cards, weight each deal by how
well it explains the bidding and the play, solve it open-handed under a score-aware
payoff; bid by the hand-value tables with the clear-cut bids of
:mod:`euchre.bots.clear_cut` first), with a larger work budget per decision, spent where
the choice is close: card play stops as soon as the deal-by-deal difference of the two
best cards settles it (paired, so the deals' common spread cancels), else goes on to 800
deals. The budget is counted in deals
and solver nodes, so its moves repeat exactly on any machine.
"""

from __future__ import annotations

from typing import ClassVar

from .hard import Budget, HardBot

EXPERT_BUDGET = Budget(samples=800, nodes=6_000_000, time_cap=2.0, paired=True,
                       bid_samples=300, read_play=True, lead_margin=0.10,
                       second_hand_margin=0.15)
"""Up to 800 deals a decision (hard: 200), stopping earlier once the deal-by-deal difference
of the two best cards settles the choice; 6 million solver nodes; a 2 s time cap. The
conventional lead and second-hand card win only within 0.10 and 0.15 points of the best
(hard: 0.15 and 0.3): played out by the hard player itself, the wider margins gave away
points, and these are the narrowest that keep every convention test."""


class ExpertBot(HardBot):
    """The hard player with up to four times the sampled deals, spent where they matter."""

    level = "expert"
    default_budget: ClassVar[Budget] = EXPERT_BUDGET


__all__ = ["EXPERT_BUDGET", "ExpertBot"]
