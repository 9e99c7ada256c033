"""The ratings and statistics models: the leaderboard, a person's statistics, one game's."""

from __future__ import annotations

from typing import Literal

from msgspec import UNSET, Struct, UnsetType

from .online import SeatRating

MAX_LEADERS = 100
"""The most leaders one page of ``GET /api/leaders`` lists."""

LEADERS_PAGE = 25
"""Leaders per page when the request names no ``limit``."""


class Leader(Struct):
    """One row of the leaderboard."""

    rank: int
    """1 for the highest rating."""
    username: str
    number: int
    """The rating people read: 1500 + 60 (mu - 25), rounded (docs/ratings.md)."""
    mu: float
    """Skill."""
    sigma: float
    """Its uncertainty (one standard deviation)."""
    ordinal: float
    """mu - 3 sigma: a skill the person very likely has at least."""
    games: int
    """Rated games finished."""
    bot: bool | UnsetType = UNSET
    """``true`` for an outside bot (absent for a person)."""


class Leaders(Struct):
    """One page of the leaderboard, highest rating first: people whose rating is established
    (provisional ones are counted, not listed)."""

    leaders: list[Leader]
    total: int
    """People listed (established ratings)."""
    limit: int
    offset: int
    next: int | None = None
    """The offset of the next page (null: the last)."""
    provisional: int = 0
    """Rated people not listed yet: fewer rated games or different opponents than needed."""
    games_needed: int = 10
    """Rated games before a person is listed."""
    opponents_needed: int = 6
    """Different people played against before a person is listed."""


class Standing(Struct):
    """Whether a person's rating is listed yet, and the figures that decide it."""

    provisional: bool
    """True until both figures reach what is needed: not on the leaderboard."""
    games: int
    """Rated games finished."""
    opponents: int
    """Different people played against (on the other side) in them."""
    games_needed: int
    opponents_needed: int


class StatCounts(Struct):
    """Counts over finished games, and the rates shown (null: nothing to divide by)."""

    games: int
    wins: int
    hands: int
    """Hands played (a hand thrown in is not counted)."""
    points: int
    """Points their side scored in those hands."""
    made_trump: int
    """Hands in which they were the maker."""
    made: int
    """Of those, hands their side took three tricks or more."""
    euchred: int
    """Of those, hands their side took fewer than three."""
    alone: int
    """Hands they went alone."""
    marches: int
    """Hands they made in which their side took all five tricks."""
    win_rate: float | None
    points_per_hand: float | None
    make_trump_rate: float | None
    """Per hand."""
    euchred_rate: float | None
    """Per hand they made trump."""
    alone_rate: float | None
    """Per hand."""
    march_rate: float | None
    """Per hand."""


class PersonStatistics(Struct):
    """A person's statistics over their latest finished games."""

    all: StatCounts
    by_kind: dict[str, StatCounts]
    """``practice``, ``coin``, ``online``."""
    games_counted: int
    """Games played to their end (the counts' ``games``)."""
    games_unfinished: int = 0
    """Games that ended without a result (left, closed, put away): not counted."""


class PersonStats(Struct):
    """``GET /api/me/stats``: the rating, the place on the leaderboard, the statistics."""

    username: str
    rating: SeatRating | None
    rank: int | None
    """The place on the leaderboard; null while unrated or provisional."""
    stats: PersonStatistics
    standing: Standing | None = None
    """Whether the rating is provisional, and why (null while unrated)."""


class GameSeatStats(StatCounts):
    """One seat's counts in one game."""

    seat: int = 0
    name: str = ""
    signed_in: bool = False
    """Whether a signed-in person sat there (their counts go to their account)."""
    bot: bool | UnsetType = UNSET
    """``true`` when an outside bot played the seat (absent for a person or a computer)."""


class GameStats(Struct):
    """``GET /api/games/{id}/stats``: each seat's counts in a finished game."""

    id: str
    kind: str
    seats: list[GameSeatStats]


class RatingFigures(Struct):
    """A rating at one moment: the ``number`` people read, and openskill's ``mu`` ±
    ``sigma``, ``ordinal`` = mu - 3 sigma."""

    number: int
    """1500 + 60 (mu - 25), rounded (docs/ratings.md)."""
    mu: float
    sigma: float
    ordinal: float


class RatingChangeItem(Struct):
    """One person's rating before and after one rated game."""

    game_id: str
    seat: int
    name: str
    won: bool
    before: RatingFigures
    after: RatingFigures
    at: str
    """When the game was applied (ISO 8601)."""
    provisional: bool | UnsetType = UNSET
    """In ``GET /api/games/{id}/ratings``: whether the person's rating is provisional now
    (not on the leaderboard yet); absent in a person's history."""


class GameRatings(Struct):
    """``GET /api/games/{id}/ratings``: each person's rating before and after a rated game;
    ``changes`` is empty while the game is ``pending`` (not yet applied)."""

    id: str
    status: Literal["pending", "applied", "void"]
    changes: list[RatingChangeItem]


class RatingHistory(Struct):
    """``GET /api/me/ratings``: the signed-in person's rating changes, newest first."""

    changes: list[RatingChangeItem]


class PlayedSeat(Struct):
    """Someone at a finished game, as a list of games shows them."""

    name: str
    """The name it had at the table: a person's or an outside bot's own, a computer's by its
    real seat ("North (computer)")."""
    computer: bool = False
    """A computer player of the site (not a person, nor an outside bot)."""
    bot: bool = False
    """An outside bot (a program with a bot token)."""


class RatingMove(Struct):
    """The person's rating before and after a rated game (the numbers people read)."""

    before: int
    after: int


class PlayedGameItem(Struct):
    """One finished game in a person's list, from their side of the table."""

    id: str
    finished: str
    """When it ended (ISO 8601)."""
    kind: Literal["practice", "coin", "online"] | str
    preset: str
    """The rules preset."""
    seat: int
    """Their seat."""
    partner: PlayedSeat
    opponents: list[PlayedSeat]
    """The seats on their left and right."""
    score: list[int] | None
    """[their side, the other side]; null if the record could not be read."""
    result: Literal["won", "lost", "ended"]
    """``ended``: it ended without a result (left, closed)."""
    rating: RatingMove | None = None
    """A rated game's change (null: not rated)."""
    coins: int | None = None
    """Coins won (+) or lost (-) at the table, stake, payout and fees together (null: no
    coins, or not shown on a public page)."""
    replay: str = ""
    """The replay's page."""


class PlayedGames(Struct):
    """``GET /api/me/played`` and ``GET /api/people/{username}/games``: finished games, newest
    first, a page at a time."""

    games: list[PlayedGameItem]
    limit: int
    offset: int
    next: int | None = None
    """The offset of the next page (null: the last)."""
    username: str | UnsetType = UNSET
    """On a person's public page: their name."""
    rating: SeatRating | UnsetType | None = UNSET
    """On a person's public page: their rating (null: unrated)."""


class PersonCard(Struct):
    """A person as their public page shows them."""

    username: str
    rating: SeatRating | None
    """Their rating (null: unrated)."""


class PersonLookup(Struct):
    """``GET /api/people/{username}``: the person, or ``person: null`` when nobody has that
    name (a 200 either way, so the page can say so without a refusal)."""

    person: PersonCard | None
