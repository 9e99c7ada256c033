"""The tables behind online tournaments (progressive, at the site's own tables), SQLAlchemy Core.

``tournaments`` holds one event: its creator, its settings (rules, hands a round, rounds,
clock, movement, loner bonuses, start time, who may enter) and how far it has gone;
``tournament_entries`` who registered (a person, or an outside bot with its owner) and, from
the start, everyone's number in the schedule, computers that fill the count included;
``tournament_tables`` each round's tables: the site table that plays it, who sits where (person
numbers, seats 0-3) and, once its game is over, the hands as scored. Standings are worked out
from those hands by :func:`euchre.tournament.tallies`. The Alembic migration
``0015_tournaments`` creates these tables; ``0017_tteam`` adds team events (a game length, a
rated flag, partners, match results) and ``tournament_invites``, pair invitations.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    PrimaryKeyConstraint,
    String,
    Table,
    UniqueConstraint,
    false,
)

from .accounts_models import metadata

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("creator_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("name", String(80), nullable=False),
    # "progressive" (rotating partners), or a team event of fixed pairs: "round_robin",
    # "swiss", "single_elimination" or "double_elimination".
    Column("format", String(24), nullable=False),
    Column("preset", String(32), nullable=False),
    # Changes to the preset (house rules), by rule name.
    Column("rules", JSON, nullable=False),
    Column("hands", Integer, nullable=False),
    Column("rounds", Integer, nullable=False),
    Column("seconds_per_move", Float, nullable=False),
    # "rotating" (the schedule) or "kings" (king's table).
    Column("movement", String(16), nullable=False),
    Column("loner_bonus", Boolean, nullable=False),
    Column("level", String(16), nullable=False),
    Column("starts_at", DateTime(timezone=True), nullable=False),
    Column("private", Boolean, nullable=False),
    Column("allow_bots", Boolean, nullable=False),
    Column("late_comers", Boolean, nullable=False),
    # Play coins each entrant pays (0: none); the coin pool is not moved yet (stored, shown).
    Column("entry_fee", Integer, nullable=False),
    # The least field: computers fill up to it (0: to the next multiple of four).
    Column("fill_to", Integer, nullable=False),
    # "registering", "playing", "finished" or "cancelled".
    Column("status", String(16), nullable=False),
    Column("current_round", Integer, nullable=False),
    # Everyone in the schedule, computers included (0 until the start).
    Column("field", Integer, nullable=False),
    # A round's time limit in minutes (null: none), and when the round being played was
    # seated (migration 0018_tround).
    Column("round_minutes", Integer, nullable=True),
    Column("round_started_at", DateTime(timezone=True), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    # Team events: a game to this many points (0: a round of ``hands`` hands instead).
    Column("game_to", Integer, nullable=False, server_default="0"),
    # Team events: whether the games of four people are rated (progressive: never).
    Column("rated", Boolean, nullable=False, server_default=false()),
    CheckConstraint("rounds >= 1", name="ck_tournaments_rounds"),
    CheckConstraint("hands >= 1", name="ck_tournaments_hands"),
    CheckConstraint("entry_fee >= 0", name="ck_tournaments_entry_fee"),
    Index("ix_tournaments_status", "status", "starts_at"),
)
"""One row per online tournament."""

tournament_entries = Table(
    "tournament_entries",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tournament_id", String(24), ForeignKey("tournaments.id"), nullable=False),
    # The account of a person or of an outside bot (null: a computer filling the count).
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=True),
    # An outside bot's owner (null: a person or a computer).
    Column("owner_id", Integer, nullable=True),
    Column("name", String(40), nullable=False),
    # "person", "bot" (an outside bot) or "computer".
    Column("kind", String(16), nullable=False),
    # The number in the schedule (null until the start).
    Column("number", Integer, nullable=True),
    # The first round the entrant plays (a late comer takes a computer's number later).
    Column("from_round", Integer, nullable=False),
    # SHA-256 of the seat token given at registration (an outside bot joins its tables with it).
    Column("token_hash", String(64), nullable=True),
    Column("registered_at", DateTime(timezone=True), nullable=False),
    # Team events: the partner's account (null: progressive, or a computer pair).
    Column("partner_id", Integer, nullable=True),
    # The bot token an outside bot registered with: its seats play only while it is live
    # (migration 0018_tround).
    Column("bot_token_id", Integer, nullable=True),
    UniqueConstraint("tournament_id", "account_id", name="uq_tournament_entries_account"),
    Index("ix_tournament_entries_account", "account_id"),
)
"""Who entered each tournament."""

tournament_tables = Table(
    "tournament_tables",
    metadata,
    Column("tournament_id", String(24), ForeignKey("tournaments.id"), nullable=False),
    Column("round", Integer, nullable=False),
    Column("table_no", Integer, nullable=False),
    # The site's table (and game) that plays it.
    Column("table_id", String(24), nullable=False, unique=True),
    Column("seat0", Integer, nullable=False),
    Column("seat1", Integer, nullable=False),
    Column("seat2", Integer, nullable=False),
    Column("seat3", Integer, nullable=False),
    # The hands as scored, once the game is over: [[makers, tricks, lone seat or null], ...].
    Column("hands", JSON(none_as_null=True), nullable=True),
    Column("finished_at", DateTime(timezone=True), nullable=True),
    # Team events: the bracket's match (elimination), the points each side made
    # ([seats 0 and 2, seats 1 and 3]) and the side that won (null: a level round).
    Column("match", String(8), nullable=True),
    Column("points", JSON(none_as_null=True), nullable=True),
    Column("winner", Integer, nullable=True),
    PrimaryKeyConstraint("tournament_id", "round", "table_no", name="pk_tournament_tables"),
)
"""Each round's tables."""

tournament_invites = Table(
    "tournament_invites",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tournament_id", String(24), ForeignKey("tournaments.id"), nullable=False),
    # Who asked whom to be their partner in a team event.
    Column("from_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("to_id", Integer, ForeignKey("accounts.id"), nullable=False),
    # "pending", "accepted", "declined", "withdrawn" (by the asker) or "closed" (either of
    # them entered with someone else, or the tournament started).
    Column("status", String(16), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_tournament_invites_tournament", "tournament_id", "status"),
)
"""Invitations to be someone's partner in a team event."""
