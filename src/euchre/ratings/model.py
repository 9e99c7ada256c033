"""A rating and the update after one game, with openskill's Plackett-Luce model.

Euchre is played by partnerships, so a game is two teams of two (seats 0 & 2 against
1 & 3), one of which won: openskill rates teams directly (a team's skill is the sum of its
players'), and each player carries an uncertainty ``sigma`` that shrinks as they play,
so a newcomer moves quickly and a regular slowly. ``ordinal`` (mu - 3 sigma) is the
conservative figure of the model. People read one integer, :func:`rating_number` (the
formula and why it is this one: ``docs/ratings.md``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

DEFAULT_MU = 25.0
"""The skill of someone never rated."""

DEFAULT_SIGMA = 25.0 / 3
"""The uncertainty of someone never rated."""

RATING_BASE = 1500
"""The number a person never rated reads (mu at its default)."""

RATING_SCALE = 60
"""Rating points per unit of mu: a newcomer's first game moves about 120 points."""

_MODEL = PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)


def rating_number(mu: float) -> int:
    """The rating people read: 1500 + 60 (mu - 25), rounded to a whole number."""
    return round(RATING_BASE + RATING_SCALE * (mu - DEFAULT_MU))


@dataclass(frozen=True)
class Rating:
    """One person's rating."""

    mu: float = DEFAULT_MU
    """The estimated skill."""
    sigma: float = DEFAULT_SIGMA
    """How uncertain the estimate is (one standard deviation)."""
    games: int = 0
    """Rated games finished."""

    @property
    def ordinal(self) -> float:
        """mu - 3 sigma: a skill the person very likely has at least."""
        return self.mu - 3 * self.sigma

    @property
    def number(self) -> int:
        """The rating people read (:func:`rating_number`)."""
        return rating_number(self.mu)

    def to_json(self) -> dict[str, Any]:
        """The number people read, mu, sigma, ordinal (rounded for display) and games."""
        return {"number": self.number, "mu": round(self.mu, 2), "sigma": round(self.sigma, 2),
                "ordinal": round(self.ordinal, 2), "games": self.games}


def rate_partnerships(seats: list[Rating], winner: int) -> list[Rating]:
    """The four seats' ratings after a game that side ``winner`` (0: seats 0 & 2) won."""
    if len(seats) != 4 or winner not in (0, 1):
        raise ValueError("a rated game has four seats and a winning side 0 or 1")
    model = [_MODEL.rating(mu=r.mu, sigma=r.sigma) for r in seats]
    teams = [[model[0], model[2]], [model[1], model[3]]]
    ranks = [0.0, 1.0] if winner == 0 else [1.0, 0.0]
    (a, c), (b, d) = _MODEL.rate(teams, ranks=ranks)
    return [Rating(float(x.mu), float(x.sigma), seats[i].games + 1)
            for i, x in enumerate((a, b, c, d))]
