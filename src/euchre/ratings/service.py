"""Rated games and ratings in the database: register a rated table, apply its result once.

A rated table is registered (``pending``) when it starts. When its game ends,
:meth:`RatingService.apply` marks the row ``applied`` with a conditional UPDATE and, in
the same transaction, updates the four ratings: a second call (a retry, a restart that
finds the game finished, a stale process) finds no pending row and changes nothing. The
ratings rows are read ``FOR UPDATE`` on PostgreSQL, so two games ending together that
share a person cannot lose an update.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, func, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from ..coins.ledger import in_transaction, utcnow
from ..storage.accounts_models import accounts
from ..storage.bot_models import bots
from ..storage.people_models import rated_games, rating_changes, rating_opponents, ratings
from .model import Rating, rate_partnerships

PENDING = "pending"
"""A rated game not yet applied."""
APPLIED = "applied"
"""A rated game whose result is in the ratings."""
VOID = "void"
"""A rated game that was never stored (nothing to apply)."""


ESTABLISHED_GAMES = 10
"""Rated games a person must finish before they are listed on the leaderboard."""

ESTABLISHED_OPPONENTS = 6
"""Different people they must have played against (on the other side) by then."""


@dataclass(frozen=True)
class RatingStanding:
    """Whether a person's rating is established enough to be listed, and why not."""

    games: int
    """Rated games finished."""
    opponents: int
    """Different people met on the other side in them."""
    games_needed: int = ESTABLISHED_GAMES
    """Games needed to be listed."""
    opponents_needed: int = ESTABLISHED_OPPONENTS
    """Different opponents needed to be listed."""

    @property
    def provisional(self) -> bool:
        """Whether the rating is still provisional (not listed)."""
        return self.games < self.games_needed or self.opponents < self.opponents_needed

    def to_json(self) -> dict[str, Any]:
        """The figures and the verdict."""
        return {"provisional": self.provisional, "games": self.games,
                "opponents": self.opponents, "games_needed": self.games_needed,
                "opponents_needed": self.opponents_needed}


def _people_met() -> Any:
    """Per account, the different people met on the other side (a subquery of
    ``account_id``, ``met``): each opponent counted as its person (a bot as its owner), and
    the account's own person (itself, or a bot's owner) never counted. So one person's
    throw-away bots cannot make up the different people a rating needs (issue 34)."""
    theirs, mine = bots.alias("their_bot"), bots.alias("my_bot")
    person = func.coalesce(theirs.c.owner_id, rating_opponents.c.opponent_id)
    me = func.coalesce(mine.c.owner_id, rating_opponents.c.account_id)
    return (select(rating_opponents.c.account_id,
                   func.count(func.distinct(person)).label("met"))
            .select_from(rating_opponents
                         .outerjoin(theirs, theirs.c.account_id == rating_opponents.c.opponent_id)
                         .outerjoin(mine, mine.c.account_id == rating_opponents.c.account_id))
            .where(person != me)
            .group_by(rating_opponents.c.account_id).subquery())


class RatedGameError(Exception):
    """A rated game that cannot be registered or applied as asked; nothing changed."""


@dataclass(frozen=True)
class LeaderboardRow:
    """One row of the leaderboard."""

    rank: int
    """1 for the highest rating (mu)."""
    account_id: int
    """The account."""
    username: str
    """Its name."""
    rating: Rating
    """Its rating."""
    bot: bool = False
    """Whether the account is an outside bot's (rated where people allowed bots)."""

    def to_json(self) -> dict[str, Any]:
        """rank, username and the rating's figures (``bot`` only for a bot)."""
        return {"rank": self.rank, "username": self.username, **self.rating.to_json(),
                **({"bot": True} if self.bot else {})}


@dataclass(frozen=True)
class RatingChange:
    """One person's rating before and after one rated game."""

    game_id: str
    """The game (table) id."""
    seat: int
    """Their seat."""
    username: str
    """Their name."""
    won: bool
    """Whether their side won."""
    before: Rating
    """The rating going in (``games`` not kept: 0)."""
    after: Rating
    """The rating after the game."""
    at: dt.datetime
    """When the game was applied."""
    account_id: int = 0
    """Their account."""


def _change(row: Any) -> RatingChange:
    return RatingChange(str(row.game_id), int(row.seat), str(row.username), bool(row.won),
                        Rating(float(row.mu_before), float(row.sigma_before)),
                        Rating(float(row.mu_after), float(row.sigma_after)), row.created_at,
                        int(row.account_id))


def _rating(row: Any) -> Rating:
    return Rating(float(row.mu), float(row.sigma), int(row.games))


class RatingService:
    """Ratings over one database."""

    def __init__(self, engine: AsyncEngine, now: Callable[[], dt.datetime] = utcnow,
                 games_needed: int = ESTABLISHED_GAMES,
                 opponents_needed: int = ESTABLISHED_OPPONENTS) -> None:
        """The service on ``engine`` (migrated); ``now`` stamps the rows; a person is listed
        after ``games_needed`` rated games against ``opponents_needed`` different people."""
        self.engine = engine
        """The database (the accounts')."""
        self.now = now
        """The clock for row times."""
        self.games_needed = games_needed
        """Rated games before a person is listed."""
        self.opponents_needed = opponents_needed
        """Different opponents before a person is listed."""
        self._insert = pg_insert if engine.dialect.name == "postgresql" else sqlite_insert

    async def register(self, game_id: str, seats: Sequence[int]) -> None:
        """Record a rated table of four distinct accounts (seat order); a repeat changes
        nothing."""
        if len(seats) != 4 or len(set(seats)) != 4:
            raise RatedGameError("a rated table seats four different signed-in people")

        async def work(conn: AsyncConnection) -> None:
            await conn.execute(self._insert(rated_games).values(
                game_id=game_id, seats=json.dumps(list(seats)), status=PENDING,
                created_at=self.now()).on_conflict_do_nothing(index_elements=["game_id"]))

        await in_transaction(self.engine, work)

    async def is_rated(self, game_id: str) -> bool:
        """Whether ``game_id`` was registered as rated."""
        async with self.engine.connect() as conn:
            found = await conn.scalar(select(rated_games.c.game_id)
                                      .where(rated_games.c.game_id == game_id))
        return found is not None

    async def status(self, game_id: str) -> str | None:
        """``pending``, ``applied`` or ``void``; None if not a rated game."""
        async with self.engine.connect() as conn:
            value = await conn.scalar(select(rated_games.c.status)
                                      .where(rated_games.c.game_id == game_id))
        return None if value is None else str(value)

    async def pending(self) -> list[str]:
        """The rated games not yet applied, oldest first."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(rated_games.c.game_id)
                                      .where(rated_games.c.status == PENDING)
                                      .order_by(rated_games.c.created_at))
            return [str(r.game_id) for r in rows]

    async def void(self, game_id: str) -> None:
        """Mark a pending rated game that was never stored: it will never be applied."""
        async with self.engine.begin() as conn:
            await conn.execute(update(rated_games).where(
                rated_games.c.game_id == game_id, rated_games.c.status == PENDING
            ).values(status=VOID))

    async def apply(self, game_id: str, winner: int) -> bool:
        """Update the four ratings for a game side ``winner`` won, if not done already;
        True if this call applied it."""
        if winner not in (0, 1):
            raise RatedGameError("the winning side is 0 or 1")

        async def work(conn: AsyncConnection) -> bool:
            row = (await conn.execute(select(rated_games)
                                      .where(rated_games.c.game_id == game_id))).first()
            if row is None:
                raise RatedGameError(f"game {game_id!r} is not a rated game")
            now = self.now()
            claimed = await conn.execute(update(rated_games).where(
                rated_games.c.game_id == game_id, rated_games.c.status == PENDING
            ).values(status=APPLIED, winner=winner, applied_at=now))
            if claimed.rowcount != 1:
                return False  # applied (or void) already: nothing to do
            seats = [int(a) for a in json.loads(row.seats)]
            await conn.execute(self._insert(ratings).values([
                {"account_id": a, "mu": Rating().mu, "sigma": Rating().sigma,
                 "ordinal": Rating().ordinal, "games": 0, "updated_at": now}
                for a in sorted(set(seats))
            ]).on_conflict_do_nothing(index_elements=["account_id"]))
            current = {int(r.account_id): _rating(r) for r in await conn.execute(
                select(ratings).where(ratings.c.account_id.in_(seats))
                .order_by(ratings.c.account_id).with_for_update())}
            after = rate_partnerships([current[a] for a in seats], winner)
            # Each person's before and after, in this same transaction (the history the
            # game-over panel and the account page show).
            await conn.execute(rating_changes.insert().values([
                {"game_id": game_id, "account_id": a, "seat": seat, "won": seat % 2 == winner,
                 "mu_before": current[a].mu, "sigma_before": current[a].sigma,
                 "mu_after": new.mu, "sigma_after": new.sigma, "created_at": now}
                for seat, (a, new) in enumerate(zip(seats, after, strict=True))]))
            for account_id, new in zip(seats, after, strict=True):
                await conn.execute(update(ratings).where(ratings.c.account_id == account_id)
                                   .values(mu=new.mu, sigma=new.sigma, ordinal=new.ordinal,
                                           games=new.games, updated_at=now))
            # Who met whom (each pair once, each way): the leaderboard's opponents count. In
            # key order, as the ratings rows are locked, so two games never wait on each other.
            await conn.execute(self._insert(rating_opponents).values([
                {"account_id": a, "opponent_id": b} for a, b in sorted(
                    (a, b) for i, a in enumerate(seats) for b in seats[(i + 1) % 2::2])
            ]).on_conflict_do_nothing(index_elements=["account_id", "opponent_id"]))
            return True

        return await in_transaction(self.engine, work)

    async def changes_of_game(self, game_id: str) -> list[RatingChange]:
        """Each seat's rating before and after a rated game, seat order ([] until it is
        applied)."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(rating_changes, accounts.c.username)
                .join(accounts, accounts.c.id == rating_changes.c.account_id)
                .where(rating_changes.c.game_id == game_id).order_by(rating_changes.c.seat))
            return [_change(r) for r in rows]

    async def history(self, account_id: int, limit: int = 50) -> list[RatingChange]:
        """The account's rating changes, newest first (at most ``limit``)."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(rating_changes, accounts.c.username)
                .join(accounts, accounts.c.id == rating_changes.c.account_id)
                .where(rating_changes.c.account_id == account_id)
                .order_by(rating_changes.c.created_at.desc(), rating_changes.c.game_id)
                .limit(limit))
            return [_change(r) for r in rows]

    async def changes_in(self, account_id: int, game_ids: Sequence[str]
                         ) -> dict[str, RatingChange]:
        """The account's rating change in each of those games that was rated."""
        if not game_ids:
            return {}
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(rating_changes, accounts.c.username)
                .join(accounts, accounts.c.id == rating_changes.c.account_id)
                .where(rating_changes.c.account_id == account_id,
                       rating_changes.c.game_id.in_(list(game_ids))))
            return {str(r.game_id): _change(r) for r in rows}

    async def of(self, account_ids: Sequence[int]) -> dict[int, Rating]:
        """The ratings of those accounts that have one."""
        if not account_ids:
            return {}
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(ratings)
                                      .where(ratings.c.account_id.in_(set(account_ids))))
            return {int(r.account_id): _rating(r) for r in rows}

    async def opponents(self, account_ids: Sequence[int]) -> dict[int, int]:
        """How many different people each account has played against (on the other side)
        in applied rated games (``rating_opponents``, written as each game is applied: one
        indexed count, whatever the number of games). An outside bot is its owner: the
        bots of one person are one opponent with them, and one's own bots none
        (:func:`_people_met`)."""
        met = dict.fromkeys(account_ids, 0)
        if not met:
            return met
        counted = _people_met()
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(counted.c.account_id, counted.c.met)
                .where(counted.c.account_id.in_(list(met))))
            for account_id, count in rows:
                met[int(account_id)] = int(count)
        return met

    async def provisional_of(self, account_ids: Sequence[int]) -> dict[int, bool]:
        """Whether each account's rating is provisional now (an unrated account is)."""
        known = await self.of(account_ids)
        met = await self.opponents([a for a in account_ids if a in known])
        return {a: RatingStanding(known[a].games if a in known else 0, met.get(a, 0),
                            self.games_needed, self.opponents_needed).provisional
                for a in account_ids}

    async def standing(self, account_id: int) -> RatingStanding:
        """Whether ``account_id``'s rating is listed yet, with the figures that decide it."""
        rating = (await self.of([account_id])).get(account_id)
        games = rating.games if rating is not None else 0
        met = (await self.opponents([account_id]))[account_id] if games else 0
        return RatingStanding(games, met, self.games_needed, self.opponents_needed)

    def _listed(self) -> Select[Any]:
        """The listed people's rows (rating, name, bot owner), best ordinal first (then the
        older account): enough rated games, against enough different people."""
        met = _people_met()
        return (select(ratings, accounts.c.username, bots.c.owner_id)
                .join(accounts, accounts.c.id == ratings.c.account_id)
                .outerjoin(bots, bots.c.account_id == ratings.c.account_id)
                .outerjoin(met, met.c.account_id == ratings.c.account_id)
                .where(ratings.c.games >= self.games_needed,
                       func.coalesce(met.c.met, 0) >= self.opponents_needed))

    async def _count_listed(self, conn: AsyncConnection) -> int:
        """How many people the leaderboard lists."""
        return int(await conn.scalar(
            select(func.count()).select_from(self._listed().subquery())) or 0)

    async def rank_of(self, account_id: int) -> int | None:
        """The account's place on the leaderboard (1 is first), or None if it is not listed
        (unrated, or provisional)."""
        listed = self._listed().subquery()
        async with self.engine.connect() as conn:
            mine = (await conn.execute(select(listed.c.mu, listed.c.ordinal).where(
                listed.c.account_id == account_id))).first()
            if mine is None:
                return None
            ahead = await conn.scalar(select(func.count()).select_from(listed).where(
                (listed.c.mu > mine.mu)
                | ((listed.c.mu == mine.mu) & (listed.c.ordinal > mine.ordinal))
                | ((listed.c.mu == mine.mu) & (listed.c.ordinal == mine.ordinal)
                   & (listed.c.account_id < account_id))))
        return int(ahead or 0) + 1

    async def leaders(self, limit: int, offset: int = 0) -> tuple[list[LeaderboardRow], int]:
        """One page of the leaderboard (the highest rating, mu, first; then the higher
        ordinal, then the older account) and how many people it lists; provisional people
        are left off (:meth:`provisional`). Sorted by mu, as the number people read is, so
        the ranks agree with the numbers; the provisional rule keeps lucky newcomers off."""
        async with self.engine.connect() as conn:
            rows = list(await conn.execute(
                self._listed().order_by(ratings.c.mu.desc(), ratings.c.ordinal.desc(),
                                        ratings.c.account_id)
                .limit(limit).offset(offset)))
            total = await self._count_listed(conn)
        return [LeaderboardRow(offset + i + 1, int(r.account_id), str(r.username), _rating(r),
                       r.owner_id is not None)
                for i, r in enumerate(rows)], total

    async def provisional(self, listed: int | None = None) -> int:
        """How many rated people are not listed yet; ``listed``: how many the leaderboard
        lists, when the caller has it (:meth:`leaders` counts them), so it is not counted
        again."""
        async with self.engine.connect() as conn:
            rated = int(await conn.scalar(select(func.count()).select_from(ratings)) or 0)
            return rated - (listed if listed is not None else await self._count_listed(conn))
