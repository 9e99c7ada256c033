"""The computer player interface: a :class:`Bot` takes one seat's view and returns an action.

Every bot is seeded: the random numbers behind one decision come from the bot's seed and
the view's public content (:func:`decision_rng`), so the same view and the same seed give
the same decision whatever order the bot is asked in. A forced move (one legal action)
is answered at once.
"""

from __future__ import annotations

import hashlib
import random
from functools import lru_cache
from typing import ClassVar, Protocol, runtime_checkable

from ..actions import Action
from ..rules import Rules
from ..view import HandView


@runtime_checkable
class Player(Protocol):
    """Anything that can take a seat: a bot, or a stand-in for a person."""

    @property
    def name(self) -> str:
        """A display name."""
        ...

    def choose(self, view: HandView) -> Action:
        """One of ``view.legal_actions()``."""
        ...


@lru_cache(maxsize=64)
def _rules_text(rules: Rules) -> str:
    return rules.to_text()


def view_key(view: HandView) -> bytes:
    """The public content of a view as bytes: what a seat knows, in a fixed form."""
    parts = (
        view.seat,
        view.dealer,
        view.score,
        _rules_text(view.rules),
        view.hand,
        view.upcard,
        view.discard,
        view.farmer_gave,
        tuple((s, None if a is None else str(a)) for s, a in view.history),
        view.hidden_kinds,
    )
    return repr(parts).encode()


def decision_rng(seed: int, view: HandView) -> random.Random:
    """The random numbers for one decision: a function of the seed and the view only."""
    digest = hashlib.blake2b(view_key(view), digest_size=8, key=str(seed).encode()).digest()
    return random.Random(int.from_bytes(digest, "big"))


class Bot:
    """Base class of the computer players; subclasses implement :meth:`decide`."""

    level: ClassVar[str] = "bot"
    """The level name given to :func:`euchre.bots.make`."""
    uses_rng: ClassVar[bool] = True
    """Whether :meth:`decide` draws random numbers (if not, it gets a fixed generator)."""

    def __init__(self, seed: int | None = None) -> None:
        """A bot; with no seed, a fresh random one (decisions still repeat per view)."""
        self.seed: int = random.SystemRandom().getrandbits(63) if seed is None else int(seed)
        """The seed behind every random choice."""
        self._fixed = random.Random(self.seed)

    @property
    def name(self) -> str:
        """A display name, such as ``"medium bot"``."""
        return f"{self.level} bot"

    def choose(self, view: HandView) -> Action:
        """One of ``view.legal_actions()``; a forced move is returned at once."""
        legal = view.legal
        if not legal:
            raise ValueError(f"seat {view.seat} has nothing to do now")
        if len(legal) == 1:
            return legal[0]
        rng = decision_rng(self.seed, view) if self.uses_rng else self._fixed
        action = self.decide(view, rng)
        if action not in legal:  # pragma: no cover - a bug in a subclass
            raise AssertionError(f"{self.name} chose an illegal action: {action}")
        return action

    def decide(self, view: HandView, rng: random.Random) -> Action:
        """The decision when there is a real choice; ``rng`` is this decision's randomness."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"
