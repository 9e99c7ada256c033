"""Online tournaments: registration, seating each round at the site's tables, results, standings.

A signed-in person creates a progressive tournament; people (and, where the creator allows,
outside bots) register until it starts. At the start (its time on the site's clock, or the
creator's "start now") computers fill the count to a multiple of four, everyone gets a number
and each round's tables come from :func:`euchre.tournament.schedule` (or, with king's table,
from :func:`euchre.tournament.kings_table` and the last round's results). This service only
keeps the database: it says which site tables to open (:class:`RoundTable`), and is told each
table's hands when its game is over; the server opens the tables and reports their ends.

Every step that moves a tournament on (start, next round, finish) is one conditional UPDATE
over the round it read, so when two processes try at once exactly one seats the round.
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from ..coins.ledger import in_transaction
from ..coins.pools import Pool, PoolService
from ..game import GameState
from ..rules import GAME_LENGTHS, Rules
from ..storage.accounts_models import accounts
from ..storage.bot_models import bot_tokens
from ..storage.tournament_models import (
    tournament_entries,
    tournament_invites,
    tournament_tables,
    tournaments,
)
from ..tournament import (
    DEFAULT_PRIZE_TABLE,
    TIE_BREAKS,
    HandScore,
    StandingsLine,
    Table,
    check_prize_table,
    kings_table,
    schedule,
    standings,
    table_winner_or_last,
    tallies,
)
from . import teams
from .errors import (
    TournamentConflict,
    TournamentError,
    TournamentForbidden,
    TournamentNotFound,
)
from .pairs import PairRegistration
from .seat_tokens import new_seat_token, token_hash

FORMATS = ("progressive", *teams.TEAM_FORMATS)
"""Progressive (rotating partners), and team events of fixed pairs."""
MOVEMENTS = ("rotating", "kings")
"""``rotating``: partners from the schedule (the most different partners); ``kings``: king's
table (each table's winners move up and split, the losers move down)."""
LEVELS = ("easy", "medium", "hard", "expert")
"""Computer levels that may fill seats."""
MAX_NAME = 80
"""The longest tournament name."""
MAX_ROUNDS = 16
"""The most rounds."""
MAX_HANDS = 16
"""The most hands a round."""
MAX_FIELD = 64
"""The most entrants, computers included (16 tables)."""
MIN_SECONDS, MAX_SECONDS = 5.0, 600.0
"""The move clock's range, as at online tables."""
MAX_ENTRY_FEE = 10_000
"""The largest entry fee in play coins."""
MAX_ROUND_MINUTES = 240
"""The longest round time limit, in minutes."""
ROUND_TIME = "round_time"
"""Why a round's table closed after the hand in play: the round's time limit passed."""
STATUSES = ("registering", "playing", "finished", "cancelled")
"""A tournament's stages."""


def utcnow() -> dt.datetime:
    """The time now, in UTC."""
    return dt.datetime.now(dt.UTC)


@dataclass(frozen=True)
class TournamentSettings:
    """What the creator chose, checked."""

    name: str
    """The tournament's name."""
    preset: str = "classic"
    """The rules preset."""
    rules: dict[str, Any] | None = None
    """House rules: changes to the preset, by rule name."""
    hands: int = 8
    """Hands a round."""
    rounds: int = 4
    """Rounds."""
    seconds_per_move: float = 30.0
    """The move clock."""
    movement: str = "rotating"
    """``rotating`` or ``kings``."""
    loner_bonus: bool = False
    """5 to a lone player who takes all five and 4 to the partner; 3 each for euchring one."""
    level: str = "medium"
    """The computers' level."""
    starts_at: dt.datetime | None = None
    """When it starts (None: when the creator says)."""
    private: bool = False
    """By invitation: listed nowhere, reached by its link."""
    allow_bots: bool = False
    """Whether outside bots may register."""
    late_comers: bool = False
    """Whether someone may take a computer's place between rounds."""
    entry_fee: int = 0
    """Play coins each entrant pays into the tournament's pool (0: free)."""
    prize_table: tuple[int, ...] = DEFAULT_PRIZE_TABLE
    """With an entry fee: each paid place's whole percentage of the pool (50/30/20)."""
    format: str = "progressive"
    """The format."""
    fill_to: int = 0
    """The least field, a multiple of four: computers fill up to it at the start (0: only
    to the next multiple of four)."""
    game_to: int = 0
    """Team events: each match a game to this many points (0: a round of ``hands`` hands)."""
    rated: bool = False
    """Team events: whether the games of four people are rated (progressive: never)."""
    round_minutes: int | None = None
    """A round's time limit in minutes from its seating (None: none): when it passes, each
    of the round's tables finishes the hand in play and ends."""

    def check(self, now: dt.datetime) -> Rules:
        """Refuse bad settings in words; the rules in force (with ``hands_limit``)."""
        if not isinstance(self.name, str) or not 1 <= len(self.name.strip()) <= MAX_NAME:
            raise TournamentError(f"the tournament's name must be 1 to {MAX_NAME} characters")
        if self.format not in FORMATS:
            raise TournamentError(f"format must be one of {', '.join(FORMATS)}")
        self._check_team()
        _count("rounds", self.rounds, MAX_ROUNDS)
        _count("hands per round", self.hands, MAX_HANDS)
        seconds = self.seconds_per_move
        if isinstance(seconds, bool) or not isinstance(seconds, int | float) \
                or not MIN_SECONDS <= seconds <= MAX_SECONDS:
            raise TournamentError(f"seconds_per_move must be {MIN_SECONDS:g} to "
                                  f"{MAX_SECONDS:g}")
        if self.movement not in MOVEMENTS:
            raise TournamentError(f"movement must be one of {', '.join(MOVEMENTS)}")
        if self.level not in LEVELS:
            raise TournamentError(f"level must be one of {', '.join(LEVELS)}")
        for flag in ("loner_bonus", "private", "allow_bots", "late_comers"):
            if not isinstance(getattr(self, flag), bool):
                raise TournamentError(f"{flag} must be true or false")
        if isinstance(self.entry_fee, bool) or not isinstance(self.entry_fee, int) \
                or not 0 <= self.entry_fee <= MAX_ENTRY_FEE:
            raise TournamentError(f"entry_fee must be 0 to {MAX_ENTRY_FEE} coins")
        try:
            check_prize_table(self.prize_table)
        except (ValueError, TypeError) as e:
            raise TournamentError(f"bad prize table: {e}") from None
        if isinstance(self.fill_to, bool) or not isinstance(self.fill_to, int) \
                or self.fill_to % 4 or not 0 <= self.fill_to <= MAX_FIELD:
            raise TournamentError(f"fill_to must be 0 or a multiple of four up to {MAX_FIELD}")
        minutes = self.round_minutes
        if minutes is not None and (isinstance(minutes, bool) or not isinstance(minutes, int)
                                    or not 1 <= minutes <= MAX_ROUND_MINUTES):
            raise TournamentError(f"round_minutes must be a whole number of minutes from 1 to "
                                  f"{MAX_ROUND_MINUTES}, or null for no time limit, not "
                                  f"{minutes!r}")
        if self.starts_at is not None and _aware(self.starts_at) <= now:
            raise TournamentError("the start time must be in the future")
        changes = dict(self.rules or {})
        if "hands_limit" in changes or "game_to" in changes:
            raise TournamentError("hands per round (or a team event's game_to) sets the "
                                  "round's length: leave hands_limit and game_to out of the "
                                  "house rules")
        length = {"game_to": self.game_to} if self.game_to else {"hands_limit": self.hands}
        try:
            return Rules.preset(self.preset, **changes, **length)
        except (ValueError, TypeError) as e:
            raise TournamentError(f"bad rules: {e}") from None


    def _check_team(self) -> None:
        """Refuse what a format does not take: rated or a game length for progressive
        events; loner bonuses, late comers, outside bots or ``fill_to`` for team events."""
        if not isinstance(self.rated, bool):
            raise TournamentError("rated must be true or false")
        if isinstance(self.game_to, bool) or not isinstance(self.game_to, int) \
                or (self.game_to and self.game_to not in GAME_LENGTHS):
            raise TournamentError("game_to must be 0 (a round of hands) or one of "
                                  f"{', '.join(map(str, GAME_LENGTHS))} points")
        if not teams.is_team(self.format):
            if self.rated:
                raise TournamentError("progressive events are never rated: partners change "
                                      "every round, so no rating could say whose play won; "
                                      "choose a team format to be rated")
            if self.game_to:
                raise TournamentError("progressive rounds are a number of hands: game_to is "
                                      "for team events")
            return
        for flag, why in (("loner_bonus", "loner bonuses score people in progressive "
                           "events"), ("late_comers", "pairs cannot join between rounds"),
                          ("allow_bots", "outside bots do not enter team events yet")):
            if getattr(self, flag) is True:
                raise TournamentError(f"{flag} is not for team events: {why}")
        if self.fill_to:
            raise TournamentError("fill_to is not for team events: computer pairs fill the "
                                  "count the format needs")


@dataclass(frozen=True)
class Seated:
    """One seat of a round's table: who plays it."""

    number: int
    """The entrant's number in the schedule."""
    name: str
    """Their entrant name; a computer's is its one name for the whole tournament, "Computer 3
    (computer)", the same at its tables, on the page and in the standings."""
    kind: str
    """``person``, ``bot`` (an outside bot) or ``computer``."""
    account_id: int | None
    """The account of a person or a bot."""
    token_hash: str | None
    """Their seat token's hash (a person or a bot)."""
    bot_token: int | None = None
    """An outside bot's bot token: its table seat plays only while the token is live (the
    socket's bot gate closes it at once when it is revoked)."""


@dataclass(frozen=True)
class RoundTable:
    """A table the server is to open for a round."""

    tournament_id: str
    """The tournament."""
    round: int
    """The round, from 1."""
    table_no: int
    """The table, from 1 (table 1 is the king's table)."""
    table_id: str
    """The site table's id, chosen here."""
    seats: tuple[Seated, Seated, Seated, Seated]
    """Seats 0-3."""
    rules: Rules
    """The rules, with ``hands_limit``."""
    preset: str
    """The preset the rules came from."""
    seconds_per_move: float
    """The move clock."""
    level: str
    """The computers' level."""
    name: str
    """The tournament's name (shown at the table)."""
    rated: bool = False
    """Whether the game is rated (a rated team event, four people at the table)."""


def hand_scores(game: GameState) -> list[HandScore]:
    """A finished table's hands as the tournament scores them, ``lone`` as the lone player's
    *seat* (thrown-in hands left out; a hand stopped by a renege scores as a march, or a
    euchre, for whichever side it paid)."""
    out: list[HandScore] = []
    for hand in game.all_hands():
        if not hand.is_over or hand.thrown_in or hand.maker < 0:
            continue
        side = hand.maker % 2
        lone = hand.maker if hand.alone else None
        if hand.reneged is not None:
            paid = hand.points[side] > 0
            out.append(HandScore(side, 5 if paid else 0, lone if paid else None))
            continue
        out.append(HandScore(side, hand.tricks_won[side], lone))
    return out


def _hands_json(scores: Sequence[HandScore]) -> list[Any]:
    """Hands by seat as kept: ``[makers, tricks, lone seat or null]``."""
    return [[s.makers, s.tricks, s.lone] for s in scores]


def _scores_of(data: Any, seats: tuple[int, int, int, int]) -> list[HandScore]:
    return [HandScore(int(m), int(t), None if lone is None else seats[int(lone)])
            for m, t, lone in (data or [])]


class TournamentService(PairRegistration):
    """Create, fill, seat and score online tournaments in the SQL database of ``engine``."""

    def __init__(self, engine: AsyncEngine, now: Callable[[], dt.datetime] = utcnow) -> None:
        """The service on ``engine``'s (migrated) database, on the clock ``now``."""
        self.engine = engine
        """The database."""
        self.now = now
        """The site's clock (tests pass a fake one)."""
        self.pools = PoolService(engine, now)
        """The coin pools of tournaments with an entry fee (moved in the tournament's own
        transactions, after its row is locked)."""

    # -- the creator ------------------------------------------------------------------------

    async def create(self, creator_id: int, settings: TournamentSettings) -> str:
        """A new tournament, registering; returns its id. Refused: bad settings."""
        now = self.now()
        settings.check(now)
        tournament_id = secrets.token_urlsafe(9)
        async with self.engine.begin() as conn:
            await conn.execute(tournaments.insert().values(
                id=tournament_id, creator_id=creator_id, name=settings.name.strip(),
                format=settings.format, preset=settings.preset, rules=dict(settings.rules or {}),
                hands=settings.hands, rounds=settings.rounds,
                seconds_per_move=float(settings.seconds_per_move), movement=settings.movement,
                loner_bonus=settings.loner_bonus, level=settings.level,
                starts_at=settings.starts_at or now + dt.timedelta(days=7),
                private=settings.private, allow_bots=settings.allow_bots,
                late_comers=settings.late_comers, entry_fee=settings.entry_fee,
                fill_to=settings.fill_to, game_to=settings.game_to, rated=settings.rated,
                round_minutes=settings.round_minutes,
                status="registering", current_round=0, field=0, created_at=now))
            if settings.entry_fee:
                await self.pools.open(tournament_id, settings.entry_fee,
                                      settings.prize_table, conn=conn)
        return tournament_id

    async def cancel(self, creator_id: int, tournament_id: str) -> None:
        """The creator cancels a tournament before its start; every entry fee is refunded
        (forfeits too)."""
        async def work(conn: AsyncConnection) -> None:
            row = await self._row(conn, tournament_id, lock=True)
            if row["creator_id"] != creator_id:
                raise TournamentForbidden("only the tournament's creator may cancel it")
            done = await conn.execute(update(tournaments).where(
                tournaments.c.id == tournament_id, tournaments.c.status == "registering")
                .values(status="cancelled"))
            if done.rowcount != 1:
                raise TournamentConflict("only a tournament that has not started can be "
                                         "cancelled")
            if row["entry_fee"]:
                await self.pools.cancel(tournament_id, conn=conn)

        await in_transaction(self.engine, work)

    # -- entrants ------------------------------------------------------------------------------

    async def register(self, tournament_id: str, account_id: int, name: str, *,
                       bot_owner: int | None = None, request_id: str | None = None,
                       bot_token: int | None = None) -> str:
        """Enter ``account_id`` (a person, or an outside bot owned by ``bot_owner`` that
        registered with its bot token ``bot_token``: its seats play only while that token is
        live); returns
        their seat token (its hash is kept). Before the start; after it, a late comer takes a
        computer's number from the next round where the creator allowed it. With an entry
        fee, the fee is charged in the same transaction (once: a repeat is "already
        registered" and charges nothing; a balance that cannot pay refuses, nothing moves);
        ``request_id`` is kept with the entry."""
        token = new_seat_token()

        async def work(conn: AsyncConnection) -> str:
            row = await self._row(conn, tournament_id, lock=True)
            status = row["status"]
            kind = "bot" if bot_owner is not None else "person"
            if teams.is_team(str(row["format"])):
                raise TournamentConflict("a team event takes pairs: invite your partner by "
                                         "name, and the pair is registered when they accept")
            if kind == "bot" and not row["allow_bots"]:
                raise TournamentForbidden("this tournament does not allow outside bots: its "
                                          "creator chose people and computers only")
            entries = await self._entries(conn, tournament_id)
            if any(e["account_id"] == account_id for e in entries):
                raise TournamentConflict("already registered for this tournament")
            owner = bot_owner if bot_owner is not None else account_id
            for e in entries:
                if kind == "bot" and e["account_id"] == bot_owner:
                    raise TournamentForbidden("a bot cannot enter a tournament its owner "
                                              "plays in")
                if e["kind"] == "bot" and e["owner_id"] == owner:
                    raise TournamentForbidden(
                        "a bot and its owner cannot enter one tournament" if kind == "person"
                        else "one owner's bots cannot enter one tournament together")
            if status == "registering":
                if sum(e["kind"] != "computer" for e in entries) >= MAX_FIELD:
                    raise TournamentConflict(f"the tournament is full ({MAX_FIELD})")
                if row["entry_fee"]:
                    await self.pools.enter(tournament_id, account_id,
                                           request_id or f"register:{account_id}", conn=conn)
                await conn.execute(tournament_entries.insert().values(
                    tournament_id=tournament_id, account_id=account_id, owner_id=bot_owner,
                    bot_token_id=bot_token,
                    name=name, kind=kind, number=None, from_round=1,
                    token_hash=token_hash(token), registered_at=self.now()))
                return token
            if row["entry_fee"] and status == "playing":
                raise TournamentConflict("registration has closed: the tournament has "
                                         "started, and its pool takes no more entries")
            if status != "playing" or not row["late_comers"]:
                raise TournamentConflict("registration has closed: the tournament has started"
                                         if status == "playing" else
                                         f"the tournament is {status}")
            if row["current_round"] >= row["rounds"]:
                raise TournamentConflict("the last round is being played: no round is left "
                                         "to join")
            free = [e for e in entries if e["kind"] == "computer"]
            if not free:
                raise TournamentConflict("no computer's seat is free to take")
            spot = min(free, key=lambda e: int(e["number"]))
            await conn.execute(update(tournament_entries)
                               .where(tournament_entries.c.id == spot["id"])
                               .values(account_id=account_id, owner_id=bot_owner, name=name,
                                       bot_token_id=bot_token,
                                       kind=kind, from_round=int(row["current_round"]) + 1,
                                       token_hash=token_hash(token),
                                       registered_at=self.now()))
            return token

        return await in_transaction(self.engine, work)

    async def unregister(self, tournament_id: str, account_id: int) -> None:
        """Withdraw before the start (after it, leaving a table lets a computer play); in a
        team event the pair withdraws together. With an entry fee the entry (a pair's two)
        is forfeit: it stays in the pool, and the person may not enter again."""
        async with self.engine.begin() as conn:
            row = await self._row(conn, tournament_id, lock=True)
            if row["status"] != "registering":
                raise TournamentConflict("the tournament has started: a computer plays for "
                                         "anyone who leaves")
            partner = await conn.scalar(select(tournament_entries.c.partner_id).where(
                tournament_entries.c.tournament_id == tournament_id,
                tournament_entries.c.account_id == account_id))
            leaving = [account_id] + ([int(partner)] if partner is not None else [])
            done = await conn.execute(tournament_entries.delete().where(
                tournament_entries.c.tournament_id == tournament_id,
                tournament_entries.c.account_id.in_(leaving)))
            if done.rowcount < 1:
                raise TournamentConflict("not registered for this tournament")
            if row["entry_fee"]:  # a pair withdraws together: both fees are forfeit
                for account in leaving:
                    await self.pools.leave(tournament_id, account, conn=conn)

    # -- moving on -----------------------------------------------------------------------------

    async def due(self) -> list[str]:
        """Tournaments whose start time has come, still registering."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(tournaments.c.id).where(
                tournaments.c.status == "registering", tournaments.c.starts_at <= self.now()))
            return [str(r.id) for r in rows]

    async def running(self) -> list[str]:
        """Tournaments being played."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(tournaments.c.id)
                                      .where(tournaments.c.status == "playing"))
            return [str(r.id) for r in rows]

    async def start(self, tournament_id: str, by: int | None = None) -> list[RoundTable]:
        """Start: computers fill the count to a multiple of four, numbers are given, round 1
        is seated; the tables to open. ``by``: the creator's "start now" (None: the clock)."""
        async with self.engine.begin() as conn:
            row = await self._row(conn, tournament_id, lock=True)
            if by is not None and row["creator_id"] != by:
                raise TournamentForbidden("only the tournament's creator may start it")
            if row["status"] != "registering":
                raise TournamentConflict(f"the tournament is {row['status']}, not registering")
            if by is None and _aware(row["starts_at"]) > self.now():
                raise TournamentConflict("the start time has not come")
            claimed = await conn.execute(update(tournaments).where(
                tournaments.c.id == tournament_id, tournaments.c.status == "registering")
                .values(status="playing"))
            if claimed.rowcount != 1:
                raise TournamentConflict("the tournament has already started")
            if row["entry_fee"]:
                await self.pools.close_entries(tournament_id, conn=conn)
            if teams.is_team(str(row["format"])):
                return await self._start_team(conn, row)
            entries = sorted(await self._entries(conn, tournament_id),
                             key=lambda e: int(e["id"]))
            count = max(4, -(-len(entries) // 4) * 4, int(row["fill_to"]))
            for number, entry in enumerate(entries):
                await conn.execute(update(tournament_entries)
                                   .where(tournament_entries.c.id == entry["id"])
                                   .values(number=number))
            for number in range(len(entries), count):
                await conn.execute(tournament_entries.insert().values(
                    tournament_id=tournament_id, account_id=None, owner_id=None,
                    name=f"Computer {number - len(entries) + 1}", kind="computer",
                    number=number, from_round=1, token_hash=None, registered_at=self.now()))
            await conn.execute(update(tournaments).where(tournaments.c.id == tournament_id)
                               .values(field=count))
            return await self._seat(conn, dict(row) | {"field": count}, 0)

    async def table_over(self, table_id: str, game: GameState) -> str | None:
        """Keep a round table's hands once its game is over (once: a second report changes
        nothing); in a team event also each side's points and the winning side (an
        elimination match that ends level goes to the side that scored the last hand);
        the tournament's id, or None if the table is no tournament's."""
        async with self.engine.begin() as conn:
            row = (await conn.execute(select(tournament_tables).where(
                tournament_tables.c.table_id == table_id))).mappings().first()
            if row is None:
                return None
            fmt = str(await conn.scalar(select(tournaments.c.format).where(
                tournaments.c.id == row["tournament_id"])))
            scores = hand_scores(game)
            values: dict[str, Any] = {"hands": _hands_json(scores), "finished_at": self.now()}
            if teams.is_team(fmt):
                winner = game.winner
                if winner is None and fmt in teams.ELIMINATION:
                    last = scores[-1] if scores else None
                    winner = 0 if last is None else (
                        last.makers if last.tricks >= 3 else 1 - last.makers)
                values |= {"points": [int(game.score[0]), int(game.score[1])],
                           "winner": winner}
            await conn.execute(update(tournament_tables).where(
                tournament_tables.c.table_id == table_id, tournament_tables.c.hands.is_(None))
                .values(**values))
            return str(row["tournament_id"])

    async def advance(self, tournament_id: str) -> list[RoundTable]:
        """If every table of the round being played is over: seat the next round (the tables
        to open) or, after the last, finish. Nothing to do: ``[]``."""
        async with self.engine.begin() as conn:
            row = await self._row(conn, tournament_id, lock=True)
            if row["status"] != "playing":
                return []
            current = int(row["current_round"])
            waiting = await conn.scalar(select(func.count()).select_from(tournament_tables)
                                        .where(tournament_tables.c.tournament_id
                                               == tournament_id,
                                               tournament_tables.c.round == current,
                                               tournament_tables.c.hands.is_(None)))
            if waiting:
                return []
            over = current >= int(row["rounds"])
            if teams.is_team(str(row["format"])):
                over = teams.next_matches(str(row["format"]), int(row["field"]) // 2,
                                          int(row["rounds"]), current,
                                          await self._tables(conn, tournament_id)) is None
            if over:
                done = await conn.execute(update(tournaments).where(
                    tournaments.c.id == tournament_id, tournaments.c.current_round == current,
                    tournaments.c.status == "playing").values(status="finished"))
                if done.rowcount == 1 and row["entry_fee"]:
                    ranks, unpaid = await self._prize_ranks(conn, row)
                    partners = {int(e["account_id"]): int(e["partner_id"])
                                for e in await self._entries(conn, tournament_id)
                                if e["partner_id"] is not None
                                and e["account_id"] in dict(ranks)}
                    await self.pools.pay_out(tournament_id, ranks, conn=conn, unpaid=unpaid,
                                             partners=partners)
                return []
            return await self._seat(conn, row, current)

    async def time_up(self, tournament_id: str) -> list[str]:
        """The site tables of the round being played that are not over although the
        round's time limit has passed on the service's clock (none without a limit): each
        is to finish the hand in play and end."""
        async with self.engine.connect() as conn:
            row = await self._row(conn, tournament_id)
            ends = _round_ends(row)
            if row["status"] != "playing" or ends is None or self.now() < ends:
                return []
            rows = await conn.execute(select(tournament_tables.c.table_id).where(
                tournament_tables.c.tournament_id == tournament_id,
                tournament_tables.c.round == int(row["current_round"]),
                tournament_tables.c.hands.is_(None))
                .order_by(tournament_tables.c.table_no))
            return [str(r.table_id) for r in rows]

    async def round_tables(self, tournament_id: str) -> list[RoundTable]:
        """The current round's tables whose games are not over (to open again any that a
        process died before opening)."""
        async with self.engine.connect() as conn:
            row = await self._row(conn, tournament_id)
            current = int(row["current_round"])
            rows = (await conn.execute(select(tournament_tables).where(
                tournament_tables.c.tournament_id == tournament_id,
                tournament_tables.c.round == current, tournament_tables.c.hands.is_(None))
                .order_by(tournament_tables.c.table_no))).mappings().all()
            entries = {int(e["number"]): e for e in await self._entries(conn, tournament_id)}
            revoked = await _revoked_tokens(conn, entries.values())
            return [self._round_table(row, current, int(t["table_no"]), str(t["table_id"]),
                                      _seats_of(t), entries, current, revoked) for t in rows]

    # -- reading -------------------------------------------------------------------------------

    async def listing(self, viewer_id: int | None = None) -> dict[str, list[dict[str, Any]]]:
        """Public tournaments open for registration and running now (and the viewer's own,
        public or not)."""
        async with self.engine.connect() as conn:
            where = tournaments.c.status.in_(("registering", "playing"))
            rows = (await conn.execute(select(tournaments).where(where)
                                       .order_by(tournaments.c.starts_at))).mappings().all()
            counts: dict[str, int] = {str(r[0]): int(r[1]) for r in await conn.execute(
                select(tournament_entries.c.tournament_id, func.count())
                .where(tournament_entries.c.kind != "computer")
                .group_by(tournament_entries.c.tournament_id))}
            mine: set[str] = set()
            if viewer_id is not None:
                mine = set((await conn.execute(select(tournament_entries.c.tournament_id).where(
                    tournament_entries.c.account_id == viewer_id))).scalars().all())
            out: dict[str, list[dict[str, Any]]] = {"open": [], "running": []}
            for r in rows:
                if r["private"] and r["creator_id"] != viewer_id and r["id"] not in mine:
                    continue
                item = _summary(r, int(counts.get(r["id"], 0)))
                out["open" if r["status"] == "registering" else "running"].append(item)
            return out

    async def state(self, tournament_id: str, viewer_id: int | None) -> dict[str, Any]:
        """The tournament as its page shows it: settings, who is in, each round's tables,
        points by round, the standings with the tie-breaks, the final table at the end."""
        async with self.engine.connect() as conn:
            row = await self._row(conn, tournament_id)
            entries = sorted(await self._entries(conn, tournament_id),
                             key=lambda e: (e["number"] is None, e["number"] or 0, e["id"]))
            tables = (await conn.execute(select(tournament_tables).where(
                tournament_tables.c.tournament_id == tournament_id)
                .order_by(tournament_tables.c.round, tournament_tables.c.table_no))
                ).mappings().all()
        by_number = {int(e["number"]): e for e in entries if e["number"] is not None}
        people = [e for e in entries if e["kind"] != "computer"]
        computers = int(row["field"]) - len(people) if row["field"] else 0
        first = _first_computer(entries)
        rounds: list[dict[str, Any]] = []
        for t in tables:
            number = int(t["round"])
            while len(rounds) < number:
                rounds.append({"round": len(rounds) + 1, "tables": []})
            seats = _seats_of(t)
            scores = _scores_of(t["hands"], seats)
            side = [0, 0]
            for s in scores:
                side[s.makers if s.tricks >= 3 else 1 - s.makers] += (
                    (4 if s.lone is not None else 2) if s.tricks == 5 else
                    1 if s.tricks >= 3 else 2)
            rounds[number - 1]["tables"].append({
                "table": int(t["table_no"]), "table_id": t["table_id"],
                "watch": f"/watch/{t['table_id']}", "play": f"/table/{t['table_id']}",
                "seats": [_seat_name(by_number.get(p), p, number, first)
                          for p in seats],
                "over": t["hands"] is not None,
                "side_points": list(t["points"]) if t.get("points") is not None else side,
                "match": t.get("match"), "winner": t.get("winner")})
        field = int(row["field"])
        # A team event ranks pairs (``team_standings``), not people.
        ranked = [] if teams.is_team(str(row["format"])) else _ranked(row, by_number, tables)
        pool = await self.pools.get(tournament_id) if row["entry_fee"] else None
        status = str(row["status"])
        final = None
        if status == "finished" and rounds:
            final = rounds[-1]["tables"][0] if row["movement"] == "kings" else None
        team = await self._team_state(row, entries, tables, viewer_id) \
            if teams.is_team(str(row["format"])) else {}
        return {
            **_summary(row, len(people)),
            "creator_id": int(row["creator_id"]),
            "is_creator": viewer_id is not None and viewer_id == row["creator_id"],
            "registered": viewer_id is not None and any(e["account_id"] == viewer_id
                                                        for e in entries),
            "rules": dict(row["rules"] or {}), "rules_text": _rules_text(row),
            "level": row["level"], "late_comers": bool(row["late_comers"]),
            "people_in": [{"name": e["name"], "kind": e["kind"],
                        "number": e["number"], "from_round": int(e["from_round"])}
                       for e in people],
            "computers": computers,
            "filled": (f"{len(people)} registered; {computers} computer"
                       f"{'' if computers == 1 else 's'} fill the count to {field}"
                       if computers else None) if field else None,
            "tie_breaks": list(TIE_BREAKS),
            "round_tables": rounds,
            "standings": [{"place": s.place,
                           "name": _seat_name(by_number.get(s.tally.person), s.tally.person,
                                              0, first),
                           "kind": (by_number[s.tally.person]["kind"]
                                    if s.tally.person in by_number else "computer"),
                           "points": s.tally.points, "rounds": s.tally.rounds,
                           "loners_made": s.tally.loners_made, "euchred": s.tally.euchred}
                          for s in ranked],
            "final_table": final,
            "pool": _pool_json(pool, by_number),
            **{k: v for k, v in team.items() if k != "partners"},
        }

    async def _team_state(self, row: dict[str, Any], entries: list[dict[str, Any]],
                          tables: Sequence[Any], viewer_id: int | None) -> dict[str, Any]:
        """What a team event's page adds: the pairs, the team standings with their order
        stated, the bracket's byes, and the viewer's partner and invitations."""
        fmt = str(row["format"])
        by_account = {e["account_id"]: e for e in entries if e["account_id"] is not None}
        pairs: list[tuple[dict[str, Any], dict[str, Any]]] = []
        seen: set[int] = set()
        for e in sorted(entries, key=lambda e: (e["number"] is None, e["number"] or 0,
                                                 e["id"])):
            mate = by_account.get(e["partner_id"]) if e["kind"] != "computer" else None
            if e["id"] in seen or (mate is None and e["kind"] != "computer"):
                continue
            if e["kind"] == "computer":
                if e["number"] is None or int(e["number"]) % 2:
                    continue
                mate = next(m for m in entries if m["number"] == int(e["number"]) + 1)
            assert mate is not None
            seen |= {int(e["id"]), int(mate["id"])}
            pairs.append((e, mate))
        kinds = ["computer" if a["kind"] == "computer" else "people" for a, _ in pairs]
        people_pairs = sum(k == "people" for k in kinds)
        names = [f"Computer pair {i - people_pairs + 1}" if a["kind"] == "computer"
                 else f"{a['name']} & {b['name']}" for i, (a, b) in enumerate(pairs)]
        field = int(row["field"])
        count = field // 2
        by_hands = not int(row.get("game_to") or 0)
        lines = teams.team_lines(fmt, count, tables, names, kinds) \
            if field and len(pairs) == count else []
        byes: list[dict[str, Any]] = []
        if field and fmt in teams.ELIMINATION:
            bracket = teams.bracket_of(fmt, count, tables)
            byes = [{"match": m, "pair": names[p]} for m, p in bracket.byes]
        mine = next(((i, b if a["account_id"] == viewer_id else a)
                     for i, (a, b) in enumerate(pairs)
                     if viewer_id is not None and viewer_id in (a["account_id"],
                                                                b["account_id"])), None)
        invites = []
        if viewer_id is not None:
            raw = await self.invites_of(str(row["id"]), viewer_id)
            ids = {int(r["from_id"]) for r in raw} | {int(r["to_id"]) for r in raw}
            async with self.engine.connect() as conn:
                who = {int(r.id): str(r.username) for r in await conn.execute(
                    select(accounts.c.id, accounts.c.username).where(accounts.c.id.in_(ids)))}
            invites = [{"id": int(r["id"]), "from": who.get(int(r["from_id"]), "?"),
                        "to": who.get(int(r["to_id"]), "?"), "status": str(r["status"]),
                        "sent": int(r["from_id"]) == viewer_id}
                       for r in raw if r["status"] in ("pending", "declined")]
        return {
            "pairs": [{"pair": i, "name": names[i], "kind": kinds[i],
                       "members": [a["name"], b["name"]]} for i, (a, b) in enumerate(pairs)],
            "pairs_in": people_pairs,
            "team_standings": lines,
            "tie_breaks": teams.tie_breaks(fmt, by_hands),
            "filled": teams.filled_text(people_pairs, count) if field else None,
            "standings": [],
            "byes": byes,
            "partner": None if mine is None else str(mine[1]["name"]),
            "my_pair": None if mine is None else mine[0],
            "invites": invites,
            "partners": {int(a["account_id"]): int(b["account_id"]) for a, b in pairs
                         if a["account_id"] is not None and b["account_id"] is not None},
        }

    async def results_of(self, account_id: int) -> list[dict[str, Any]]:
        """A person's finished tournaments, newest first: place, points, field."""
        async with self.engine.connect() as conn:
            ids = (await conn.execute(select(tournament_entries.c.tournament_id)
                                      .join(tournaments, tournaments.c.id
                                            == tournament_entries.c.tournament_id)
                                      .where(tournament_entries.c.account_id == account_id,
                                             tournaments.c.status == "finished")
                                      .order_by(tournaments.c.starts_at.desc())
                                      .limit(50))).scalars().all()
        out = []
        for tid in ids:
            state = await self.state(str(tid), account_id)
            async with self.engine.connect() as conn:
                name = await conn.scalar(select(tournament_entries.c.name).where(
                    tournament_entries.c.tournament_id == tid,
                    tournament_entries.c.account_id == account_id))
            if state.get("team_standings"):  # a team event: the person's pair
                line = next((t for t in state["team_standings"]
                             if t["pair"] == state.get("my_pair")), None)
                if line is None or line["place"] is None:
                    continue
                out.append({"id": tid, "name": state["name"], "url": state["url"],
                            "place": line["place"], "points": line["points_for"],
                            "field": state["field"], "rounds": state["current_round"],
                            "format": state["format"], "partner": state.get("partner")})
                continue
            mine = next((s for s in state["standings"] if s["name"] == name), None)
            if mine is None:
                continue
            out.append({"id": tid, "name": state["name"], "url": state["url"],
                        "place": mine["place"], "points": mine["points"],
                        "field": state["field"], "rounds": state["rounds"]})
        return out

    async def seats_of_token(self, token_id: int) -> list[tuple[str, int]]:
        """``(site table, seat)`` of each table not over, in the round being played of a
        running tournament, where an outside bot that registered with bot token
        ``token_id`` sits (its token was revoked: a computer is to play those seats)."""
        async with self.engine.connect() as conn:
            found = (await conn.execute(
                select(tournament_entries.c.tournament_id, tournament_entries.c.number,
                       tournaments.c.current_round)
                .join(tournaments, tournaments.c.id == tournament_entries.c.tournament_id)
                .where(tournament_entries.c.bot_token_id == token_id,
                       tournament_entries.c.kind == "bot",
                       tournament_entries.c.from_round <= tournaments.c.current_round,
                       tournaments.c.status == "playing"))).all()
            out = []
            for tournament_id, number, current in found:
                rows = await conn.execute(select(tournament_tables).where(
                    tournament_tables.c.tournament_id == tournament_id,
                    tournament_tables.c.round == current, tournament_tables.c.hands.is_(None)))
                for t in rows.mappings():
                    seats = _seats_of(t)
                    if number in seats:
                        out.append((str(t["table_id"]), seats.index(number)))
            return out

    async def seat_token_owner(self, tournament_id: str, account_id: int) -> bool:
        """Whether ``account_id`` is registered (for the person's own requests)."""
        async with self.engine.connect() as conn:
            found = await conn.scalar(select(func.count()).select_from(tournament_entries)
                                      .where(tournament_entries.c.tournament_id
                                             == tournament_id,
                                             tournament_entries.c.account_id == account_id))
            return bool(found)

    # -- helpers -------------------------------------------------------------------------------

    async def _row(self, conn: AsyncConnection, tournament_id: str,
                   lock: bool = False) -> dict[str, Any]:
        query = select(tournaments).where(tournaments.c.id == tournament_id)
        if lock:
            query = query.with_for_update()
        row = (await conn.execute(query)).mappings().first()
        if row is None:
            raise TournamentNotFound("no tournament has that id")
        return dict(row)

    async def _entries(self, conn: AsyncConnection, tournament_id: str
                       ) -> list[dict[str, Any]]:
        rows = await conn.execute(select(tournament_entries).where(
            tournament_entries.c.tournament_id == tournament_id))
        return [dict(r) for r in rows.mappings()]

    async def _prize_ranks(self, conn: AsyncConnection, row: dict[str, Any]
                           ) -> tuple[list[tuple[int, int]], list[int]]:
        """``(account, place)`` of each person or bot in the final standings, level ones in
        the order they entered, and the computers' places (they share a tie like anyone,
        and their shares are the house's)."""
        tournament_id = str(row["id"])
        entries = await self._entries(conn, tournament_id)
        by_number = {int(e["number"]): e for e in entries if e["number"] is not None}
        tables = await self._tables(conn, tournament_id)
        if teams.is_team(str(row["format"])):
            return self._pair_ranks(row, by_number, tables)
        out = []
        unpaid = []
        for s in _ranked(row, by_number, tables):
            entry = by_number.get(s.tally.person)
            if entry is not None and entry["kind"] != "computer" \
                    and entry["account_id"] is not None:
                out.append((int(entry["number"]), int(entry["account_id"]), s.place))
            else:
                unpaid.append(s.place)
        return [(account, place) for _, account, place in sorted(out)], unpaid

    @staticmethod
    def _pair_ranks(row: dict[str, Any], by_number: dict[int, dict[str, Any]],
                    tables: Sequence[Any]) -> tuple[list[tuple[int, int]], list[int]]:
        """A team event's final places for the pool: each people pair's first member at
        the pair's place (the partner shares it: ``PoolService.pay_out``'s ``partners``),
        and computer pairs' places."""
        places = teams.placing(str(row["format"]), int(row["field"]) // 2, tables)
        ranks, unpaid = [], []
        for pair, place in sorted(places.items()):
            lead = by_number[2 * pair]
            if lead["kind"] == "computer" or lead["account_id"] is None:
                unpaid.append(int(place or 1))
            else:
                ranks.append((int(lead["account_id"]), int(place or 1)))
        return ranks, unpaid

    async def _seat(self, conn: AsyncConnection, row: dict[str, Any], current: int
                    ) -> list[RoundTable]:
        """Seat round ``current + 1`` over round ``current`` (one caller wins)."""
        tournament_id = str(row["id"])
        field = int(row["field"])
        if teams.is_team(str(row["format"])):
            return await self._seat_team(conn, row, current)
        if row["movement"] == "kings" and current:
            tables = await self._kings_round(conn, tournament_id, current)
        else:
            tables = schedule(field, int(row["rounds"]))[current]
        moved = await conn.execute(update(tournaments).where(
            tournaments.c.id == tournament_id, tournaments.c.current_round == current)
            .values(current_round=current + 1, round_started_at=self.now()))
        if moved.rowcount != 1:
            return []  # another process seated it
        entries = {int(e["number"]): e for e in await self._entries(conn, tournament_id)}
        revoked = await _revoked_tokens(conn, entries.values())
        out = []
        for number, ((a, c), (b, d)) in enumerate(tables, start=1):
            table_id = secrets.token_urlsafe(9)
            await conn.execute(tournament_tables.insert().values(
                tournament_id=tournament_id, round=current + 1, table_no=number,
                table_id=table_id, seat0=a, seat1=b, seat2=c, seat3=d))
            out.append(self._round_table(row, current + 1, number, table_id, (a, b, c, d),
                                         entries, current + 1, revoked))
        return out

    def _round_table(self, row: dict[str, Any], round_no: int, table_no: int, table_id: str,
                     seats: tuple[int, int, int, int], entries: dict[int, dict[str, Any]],
                     playing: int, revoked: set[int]) -> RoundTable:
        first = _first_computer(list(entries.values()))

        def seated(number: int) -> Seated:
            e = entries[number]
            plays = e["kind"] != "computer" and int(e["from_round"]) <= playing
            if plays and e["bot_token_id"] is not None and e["bot_token_id"] in revoked:
                # A bot whose token was revoked: a computer plays its seat, under its name.
                return Seated(number, _name(e), "computer", None, None)
            return Seated(number, str(e["name"]) if plays else computer_name(number, first),
                          str(e["kind"]) if plays else "computer",
                          e["account_id"] if plays else None,
                          e["token_hash"] if plays else None,
                          e["bot_token_id"] if plays else None)

        four = (seated(seats[0]), seated(seats[1]), seated(seats[2]), seated(seats[3]))
        # Rated only with four people: a computer or an outside bot at the table leaves
        # the game unrated (as rated online tables seat four people).
        rated = bool(row.get("rated")) and all(s.kind == "person" for s in four)
        return RoundTable(str(row["id"]), round_no, table_no, table_id, four,
                          _rules_of(row), str(row["preset"]), float(row["seconds_per_move"]),
                          str(row["level"]), str(row["name"]), rated)

    async def _tables(self, conn: AsyncConnection, tournament_id: str) -> list[Any]:
        """Every round table of the tournament, in round and table order."""
        return list((await conn.execute(select(tournament_tables).where(
            tournament_tables.c.tournament_id == tournament_id)
            .order_by(tournament_tables.c.round, tournament_tables.c.table_no))
            ).mappings().all())

    async def _start_team(self, conn: AsyncConnection, row: dict[str, Any]
                          ) -> list[RoundTable]:
        """Number the pairs in the order they registered (the seeding), fill the count the
        format needs with computer pairs, and seat round 1."""
        tournament_id, fmt = str(row["id"]), str(row["format"])
        entries = sorted(await self._entries(conn, tournament_id), key=lambda e: int(e["id"]))
        by_account = {e["account_id"]: e for e in entries}
        pairs: list[tuple[dict[str, Any], dict[str, Any]]] = []
        seen: set[int] = set()
        for e in entries:
            mate = by_account.get(e["partner_id"])
            if e["id"] in seen or mate is None:
                continue
            seen |= {int(e["id"]), int(mate["id"])}
            pairs.append((e, mate))
        count = teams.teams_for(fmt, len(pairs))
        for t, pair in enumerate(pairs):
            for k, entry in enumerate(pair):
                await conn.execute(update(tournament_entries)
                                   .where(tournament_entries.c.id == entry["id"])
                                   .values(number=2 * t + k))
        for number in range(2 * len(pairs), 2 * count):
            await conn.execute(tournament_entries.insert().values(
                tournament_id=tournament_id, account_id=None, owner_id=None,
                name=f"Computer {number - 2 * len(pairs) + 1}", kind="computer",
                number=number, from_round=1, token_hash=None, registered_at=self.now()))
        rounds = teams.planned_rounds(fmt, count, int(row["rounds"]))
        await conn.execute(update(tournaments).where(tournaments.c.id == tournament_id)
                           .values(field=2 * count, rounds=rounds))
        await conn.execute(update(tournament_invites).where(
            tournament_invites.c.tournament_id == tournament_id,
            tournament_invites.c.status == "pending").values(status="closed"))
        return await self._seat(conn, dict(row) | {"field": 2 * count, "rounds": rounds}, 0)

    async def _seat_team(self, conn: AsyncConnection, row: dict[str, Any], current: int
                         ) -> list[RoundTable]:
        """Seat a team event's round ``current + 1`` from the library, given the results so
        far (one caller wins)."""
        tournament_id, fmt = str(row["id"]), str(row["format"])
        matches = teams.next_matches(fmt, int(row["field"]) // 2, int(row["rounds"]), current,
                                     await self._tables(conn, tournament_id))
        if not matches:
            return []
        values: dict[str, Any] = {"current_round": current + 1,
                                  "round_started_at": self.now()}
        if fmt in teams.ELIMINATION:  # a bracket's rounds are known as it is played
            values["rounds"] = max(int(row["rounds"]), current + 1)
        moved = await conn.execute(update(tournaments).where(
            tournaments.c.id == tournament_id, tournaments.c.current_round == current)
            .values(**values))
        if moved.rowcount != 1:
            return []  # another process seated it
        entries = {int(e["number"]): e for e in await self._entries(conn, tournament_id)}
        revoked = await _revoked_tokens(conn, entries.values())
        out = []
        for number, (name, match) in enumerate(matches, start=1):
            table_id = secrets.token_urlsafe(9)
            seats = teams.seats_of(match)
            await conn.execute(tournament_tables.insert().values(
                tournament_id=tournament_id, round=current + 1, table_no=number,
                table_id=table_id, seat0=seats[0], seat1=seats[1], seat2=seats[2],
                seat3=seats[3], match=name))
            out.append(self._round_table(row, current + 1, number, table_id, seats, entries,
                                         current + 1, revoked))
        return out

    async def _kings_round(self, conn: AsyncConnection, tournament_id: str, current: int
                           ) -> list[Table]:
        rows = (await conn.execute(select(tournament_tables).where(
            tournament_tables.c.tournament_id == tournament_id,
            tournament_tables.c.round == current)
            .order_by(tournament_tables.c.table_no))).mappings().all()
        tables: list[Table] = []
        winners: list[int] = []
        for r in rows:
            seats = _seats_of(r)
            scores = _scores_of(r["hands"], seats)
            tables.append(_table(seats))
            winners.append(table_winner_or_last(_table(seats), scores) if scores else 0)
        return kings_table(tables, winners)


async def _revoked_tokens(conn: AsyncConnection, entries: Iterable[dict[str, Any]]
                          ) -> set[int]:
    """The revoked ones among the bot tokens the entrants registered with."""
    ids = {int(e["bot_token_id"]) for e in entries if e.get("bot_token_id") is not None}
    if not ids:
        return set()
    rows = await conn.execute(select(bot_tokens.c.id).where(
        bot_tokens.c.id.in_(ids), bot_tokens.c.revoked_at.is_not(None)))
    return {int(r.id) for r in rows}


def _ranked(row: Any, by_number: dict[int, dict[str, Any]], tables: Sequence[Any]
            ) -> list[StandingsLine]:
    """The standings from the tables' kept hands (empty before any round is over)."""
    field = int(row["field"])
    if not field:
        return []
    plays: list[list[tuple[Table, list[HandScore]]]] = []
    for t in tables:
        number = int(t["round"])
        while len(plays) < number:
            plays.append([])
        if t["hands"] is not None:
            seats = _seats_of(t)
            plays[number - 1].append((_table(seats), _scores_of(t["hands"], seats)))
    records = tallies(field, plays, bool(row["loner_bonus"]))
    for record in records:  # a late comer's rounds before theirs were a computer's
        entry = by_number.get(record.person)
        if entry is not None:
            for i in range(min(int(entry["from_round"]) - 1, len(record.rounds))):
                record.rounds[i] = 0
    return standings(records) if any(r.rounds for r in records) else []


def _pool_json(pool: Pool | None, by_number: dict[int, dict[str, Any]]
               ) -> dict[str, Any] | None:
    """The pool as the page shows it: fee, prize table, coins in it and, once paid, each
    finisher's place and prize by name."""
    if pool is None:
        return None
    names = {int(e["account_id"]): _name(e) for e in by_number.values()
             if e["account_id"] is not None and e["kind"] != "computer"}
    prizes = sorted(({"name": names.get(e.account_id, "?"), "place": e.place,
                      "prize": e.prize or 0} for e in pool.entries
                     if e.status == "finished"),
                    key=lambda p: (p["place"] is None, p["place"] or 0, p["name"]))
    return {**pool.to_json(), "forfeit": sum(e.status == "left" for e in pool.entries),
            "prizes": prizes}


def _count(name: str, value: object, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= high:
        raise TournamentError(f"{name} must be a whole number from 1 to {high}, not {value!r}")
    return value


def _seats_of(row: Any) -> tuple[int, int, int, int]:
    return (int(row["seat0"]), int(row["seat1"]), int(row["seat2"]), int(row["seat3"]))


def _table(seats: tuple[int, int, int, int]) -> Table:
    return ((seats[0], seats[2]), (seats[1], seats[3]))


def _name(entry: dict[str, Any] | None) -> str:
    if entry is None:
        return "Computer"
    if entry["kind"] == "computer":
        return f"{entry['name']} (computer)"
    if entry["kind"] == "bot":
        return f"{entry['name']} (bot)"
    return str(entry["name"])


def computer_name(number: int, first: int) -> str:
    """The one name of the computer given ``number`` at the start (``first``: the first
    computer's number), at its tables, on the page and in the standings for the whole
    tournament: "Computer 2 (computer)". (No account can be named so: names have no spaces.)"""
    return f"Computer {number - first + 1} (computer)"


def _first_computer(entries: Sequence[dict[str, Any]]) -> int:
    """The first computer's number: everyone registered before the start came first (a late
    comer, from a later round, took a computer's number)."""
    return sum(e["kind"] != "computer" and int(e["from_round"]) == 1 for e in entries)


def _seat_name(entry: dict[str, Any] | None, number: int, round_no: int, first: int) -> str:
    """Who plays ``number`` in round ``round_no`` (0: the standings, by the entrant now): a
    computer (or a late comer's number before their first round) by its one name."""
    if entry is None or entry["kind"] == "computer" \
            or (round_no and int(entry["from_round"]) > round_no):
        return computer_name(number, first)
    return _name(entry)


def _round_ends(row: Any) -> dt.datetime | None:
    """When the round being played reaches its time limit (None: no limit, or no round)."""
    if not row["round_minutes"] or row["round_started_at"] is None:
        return None
    return _aware(row["round_started_at"]) + dt.timedelta(minutes=int(row["round_minutes"]))


def _aware(t: dt.datetime) -> dt.datetime:
    return t if t.tzinfo else t.replace(tzinfo=dt.UTC)


def _rules_of(row: Any) -> Rules:
    """A tournament's rules at its tables: a round of ``hands`` hands, or (a team event)
    a game to ``game_to`` points."""
    game_to = int(row.get("game_to") or 0)
    length = {"game_to": game_to} if game_to else {"hands_limit": int(row["hands"])}
    return Rules.preset(str(row["preset"]), **dict(row["rules"] or {}), **length)


def _rules_text(row: Any) -> list[str]:
    return list(_rules_of(row).describe())


def _summary(row: Any, people: int) -> dict[str, Any]:
    ends = _round_ends(row) if row["status"] == "playing" else None
    return {
        "id": row["id"], "name": row["name"], "format": row["format"],
        "status": row["status"], "url": f"/tournaments/{row['id']}",
        "starts_at": _aware(row["starts_at"]).isoformat(), "preset": row["preset"],
        "hands": int(row["hands"]), "rounds": int(row["rounds"]),
        "current_round": int(row["current_round"]), "movement": row["movement"],
        "seconds_per_move": float(row["seconds_per_move"]),
        "loner_bonus": bool(row["loner_bonus"]), "private": bool(row["private"]),
        "allow_bots": bool(row["allow_bots"]), "entry_fee": int(row["entry_fee"]),
        "fill_to": int(row["fill_to"]),
        "round_minutes": row["round_minutes"],
        "round_ends_at": ends.isoformat() if ends is not None else None,
        "rated": bool(row.get("rated")), "people": people, "field": int(row["field"]),
        "format_name": teams.FORMAT_NAMES.get(str(row["format"]), str(row["format"])),
        "game_to": int(row.get("game_to") or 0),
    }

