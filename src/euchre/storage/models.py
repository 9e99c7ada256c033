"""The SQL tables (SQLAlchemy 2 declarative models); other modules add theirs to :class:`Base`."""

from __future__ import annotations

from sqlalchemy import BigInteger, Float, Integer, String, Text, text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """The declarative base of every euchre table (one metadata for migrations)."""


class GameRow(Base):
    """A game: its table settings and record as JSON text, saved after every move."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    """The game id (the table id)."""
    kind: Mapped[str] = mapped_column(String(32))
    """The table kind."""
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``playing`` or ``finished``."""
    version: Mapped[int] = mapped_column(Integer)
    """The table's event version when saved."""
    meta: Mapped[str] = mapped_column(Text)
    """Table settings and actor state, JSON."""
    record: Mapped[str] = mapped_column(Text)
    """The record's base, JSON (private: includes the hand in progress): the record as
    last written whole; the lines after it are in :class:`GameLineRow`."""
    lines: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    """How many of the game's :class:`GameLineRow` rows follow the base (rows from this
    number on are left over from a save that was undone, and are not read)."""
    created_at: Mapped[float] = mapped_column(Float)
    """Seconds since the epoch."""
    updated_at: Mapped[float] = mapped_column(Float, index=True)
    """Seconds since the epoch."""
    fence: Mapped[int] = mapped_column(BigInteger, default=0, server_default=text("0"))
    """The fencing number of the owner that last wrote the row (saves with a lower one
    are refused)."""


class GameLineRow(Base):
    """One line of a game's record after its base (the text format of
    :mod:`euchre.record`): a save after a move appends rows, and rewrites nothing."""

    __tablename__ = "game_lines"

    game_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    """The game (no foreign key: a games row is never deleted, and a key would be checked
    on every move)."""
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    """The line's place after the base, from 0."""
    line: Mapped[str] = mapped_column(Text)
    """The line."""
