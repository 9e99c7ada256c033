"""Computer players: ``make(level, seed)`` gives a bot that answers a seat's view with an action.

Levels: ``random`` (any legal action), ``easy`` (plain rules), ``medium`` (the conventions
good players follow), ``hard`` (sampling the unseen cards and solving them open-handed)
and ``expert`` (the same search with a larger budget of deals and solver nodes).
Every bot is seeded; a bot never sees a hidden card, only a :class:`~euchre.view.HandView`.
"""

from __future__ import annotations

from .base import Bot, Player, decision_rng

LEVELS: tuple[str, ...] = ("random", "easy", "medium", "hard", "expert")
"""The levels :func:`make` knows, weakest first."""

__all__ = ["LEVELS", "Bot", "Player", "decision_rng", "make"]


def make(level: str, seed: int | None = None) -> Bot:
    """A computer player of the named level; the same seed gives the same decisions."""
    name = level.strip().lower()
    if name == "random":
        from .simple import RandomBot

        return RandomBot(seed)
    if name == "easy":
        from .simple import EasyBot

        return EasyBot(seed)
    if name == "medium":
        from .medium import MediumBot

        return MediumBot(seed)
    if name == "hard":
        try:
            from .hard import HardBot  # type: ignore[import-not-found, unused-ignore]
        except ImportError as e:
            raise ValueError(f"the hard computer player is not available: {e}") from None
        bot: Bot = HardBot(seed=seed)
        return bot
    if name == "expert":
        try:
            from .expert import ExpertBot  # type: ignore[import-not-found, unused-ignore]
        except ImportError as e:
            raise ValueError(f"the expert computer player is not available: {e}") from None
        expert: Bot = ExpertBot(seed=seed)
        return expert
    raise ValueError(f"unknown level {level!r}: choose one of {', '.join(LEVELS)}")
