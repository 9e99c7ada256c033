"""The tables behind people's games and ratings (SQLAlchemy Core).

``game_players`` says which account sat where at which table (an index into the stored
games: statistics are computed from the records, never counted twice by hand);
``rated_games`` holds one row per rated table, written when it starts, and moves from
``pending`` to ``applied`` in the same transaction that updates the four ratings, so a
game is rated exactly once across crashes and restarts; ``ratings`` is each account's
openskill rating; ``rating_changes`` each person's rating before and after each rated game
(migration ``0009_rating_changes``); ``rating_opponents`` who has played against whom
(``0011_rating_opponents``). The Alembic migration ``0004_ratings`` creates the first three.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
)

from .accounts_models import metadata

game_players = Table(
    "game_players",
    metadata,
    Column("game_id", String(64), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    # The table kind ("practice", "online"; coin games are found through coin_games).
    Column("kind", String(32), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    PrimaryKeyConstraint("game_id", "seat", name="pk_game_players"),
)
"""One row per signed-in person's seat at a table."""

Index("ix_game_players_account", game_players.c.account_id, game_players.c.created_at)

rated_games = Table(
    "rated_games",
    metadata,
    Column("game_id", String(64), primary_key=True),
    # The account ids of seats 0-3, JSON (a rated table seats four signed-in people).
    Column("seats", Text, nullable=False),
    # "pending" until the game's rating is applied, then "applied"; "void" if the table
    # was never stored (a crash between the start and the first save).
    Column("status", String(16), nullable=False),
    Column("winner", Integer, nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("applied_at", DateTime(timezone=True), nullable=True),
)
"""One row per rated table."""

Index("ix_rated_games_status", rated_games.c.status)

ratings = Table(
    "ratings",
    metadata,
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    # mu - 3 sigma, kept beside them so the leaderboard can be ordered by an index.
    Column("ordinal", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)
"""One row per account that has finished a rated game."""

Index("ix_ratings_ordinal", ratings.c.ordinal, ratings.c.account_id)

rating_changes = Table(
    "rating_changes",
    metadata,
    Column("game_id", String(64), nullable=False),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("won", Boolean, nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu_after", Float, nullable=False),
    Column("sigma_after", Float, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    PrimaryKeyConstraint("game_id", "account_id", name="pk_rating_changes"),
)
"""One row per person per rated game: the rating before and after, written in the
transaction that applies the game (so a game's changes and the ratings never disagree)."""

Index("ix_rating_changes_account", rating_changes.c.account_id, rating_changes.c.created_at)

rating_opponents = Table(
    "rating_opponents",
    metadata,
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("opponent_id", Integer, ForeignKey("accounts.id"), nullable=False),
    PrimaryKeyConstraint("account_id", "opponent_id", name="pk_rating_opponents"),
)
"""Each pair of people who sat on opposite sides of an applied rated game, once each way
(migration ``0011_rating_opponents``, which fills it from the games applied before it):
written in the transaction that applies the game, so the leaderboard counts a person's
different opponents with one indexed query instead of reading every rated game."""

seat_claims = Table(
    "seat_claims",
    metadata,
    Column("table_id", String(64), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    PrimaryKeyConstraint("table_id", "seat", name="pk_seat_claims"),
)
"""A guest's seat bound to the account its person signed in to afterwards (migration
``0010_seat_claims``): the first claim of a seat stands."""

Index("ix_seat_claims_account", seat_claims.c.account_id, seat_claims.c.table_id)
