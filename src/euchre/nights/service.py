"""Euchre nights in a room: a host's evening of real tables, scored from the tables' phones.

The host (signed in) names the people in the room; each round's tables come from
:func:`euchre.tournament.schedule`; each table scores its hands from a phone with the short
code of that table and round, and the other pair confirms; the host may correct any hand of
any round. Entries and corrections are only ever added (``night_entries``): the newest row of
a hand counts, and every row keeps who made it. Standings are worked out from the entries by
:func:`euchre.tournament.tallies` each time they are asked for.
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from ..errors import DomainError
from ..storage.night_models import (
    night_confirms,
    night_entries,
    night_people,
    night_tables,
    nights,
)
from ..tournament import (
    TIE_BREAKS,
    HandScore,
    Table,
    hand_points,
    kings_table,
    schedule,
    standings,
    table_winner_or_last,
    tallies,
)

MAX_NAME = 40
"""The longest name of a person in the room."""
MAX_NIGHT_NAME = 80
"""The longest name of a night."""
MAX_ROUNDS = 16
"""The most rounds a night may have."""
MAX_HANDS = 16
"""The most hands a round may have."""
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Letters and digits of table codes: none that look alike (no I, O, 0, 1)."""
CODE_LENGTH = 6
"""Characters in a table code (32**6, about a billion codes)."""
MOVEMENTS = ("rotating", "kings")
"""How people move between rounds: partners from :func:`euchre.tournament.schedule` (the most
different partners), or king's table (:func:`euchre.tournament.kings_table`: each table's
winners move up and split, the losers move down; a tie goes to the pair that scored the last
hand)."""


class NightError(DomainError):
    """A refused request about a euchre night; nothing changed."""


class NightNotFound(NightError):
    """No such night, or no table has that code."""

    code = "not_found"


class NotTheHost(NightError):
    """Only the night's host may do that."""

    code = "forbidden"


class NightConflict(NightError):
    """The night is not at a stage where that can be done."""

    code = "conflict"


def utcnow() -> dt.datetime:
    """The time now, in UTC."""
    return dt.datetime.now(dt.UTC)


def check_names(names: object) -> list[str]:
    """The names, trimmed, if they make whole tables of four distinct names; else refused."""
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise NightError("names must be a list of names")
    out = [" ".join(n.split()) for n in names]
    out = [n for n in out if n]
    for name in out:
        if len(name) > MAX_NAME:
            raise NightError(f"{name[:20]!r}… is longer than {MAX_NAME} characters")
    seen: set[str] = set()
    for name in out:
        if name.casefold() in seen:
            raise NightError(f"{name!r} is in the list twice: add something to tell them apart")
        seen.add(name.casefold())
    if not 4 <= len(out) <= 64:
        raise NightError(f"a night needs 4 to 64 people, not {len(out)}")
    if len(out) % 4:
        short = 4 - len(out) % 4
        raise NightError(f"{len(out)} names do not make whole tables of four: add {short} "
                         f"or take away {4 - short}")
    return out


def _count(name: str, value: object, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= high:
        raise NightError(f"{name} must be a whole number from 1 to {high}, not {value!r}")
    return value


@dataclass(frozen=True)
class HandOnCard:
    """One hand as the newest entry has it."""

    hand: int
    """The hand's number in the round, from 1."""
    makers: int
    """0: seats 0 and 2 made trump; 1: seats 1 and 3."""
    tricks: int
    """The makers' tricks."""
    lone_seat: int | None
    """The seat that went alone, if any."""
    by: str
    """Who entered it (or corrected it)."""
    entry_id: int
    """The log row."""


class NightService:
    """Create, run and score euchre nights in the SQL database of ``engine``."""

    def __init__(self, engine: AsyncEngine, now: Callable[[], dt.datetime] = utcnow) -> None:
        """The service on ``engine``'s (migrated) database."""
        self.engine = engine
        """The database."""
        self.now = now
        """The clock."""

    # -- the host ---------------------------------------------------------------------------

    async def create(self, host_id: int, name: object, names: object, rounds: object,
                     hands: object, loner_bonus: object, movement: object = "rotating") -> str:
        """A new night in registration; returns its id. Refused: bad settings or names."""
        if not isinstance(name, str) or not 1 <= len(name.strip()) <= MAX_NIGHT_NAME:
            raise NightError(f"the night's name must be 1 to {MAX_NIGHT_NAME} characters")
        people = check_names(names)
        count = _count("rounds", rounds, MAX_ROUNDS)
        per_round = _count("hands per round", hands, MAX_HANDS)
        if not isinstance(loner_bonus, bool):
            raise NightError("loner_bonus must be true or false")
        if movement not in MOVEMENTS:
            raise NightError(f"movement must be one of {', '.join(MOVEMENTS)}")
        night_id = secrets.token_urlsafe(9)
        async with self.engine.begin() as conn:
            await conn.execute(nights.insert().values(
                id=night_id, host_id=host_id, name=name.strip(), rounds=count,
                hands=per_round, loner_bonus=loner_bonus, movement=movement,
                status="registering",
                current_round=0, created_at=self.now()))
            await self._insert_people(conn, night_id, people)
        return night_id

    async def set_people(self, host_id: int, night_id: str, names: object) -> None:
        """Replace the names while the night is still registering."""
        people = check_names(names)
        async with self.engine.begin() as conn:
            night = await self._hosted(conn, host_id, night_id)
            if night["status"] != "registering":
                raise NightConflict("the night has started: names can no longer change")
            await conn.execute(night_people.delete().where(night_people.c.night_id == night_id))
            await self._insert_people(conn, night_id, people)

    async def advance(self, host_id: int, night_id: str) -> int:
        """Start the night, or the next round once every table's card is full, or finish
        after the last round; returns the round now played (0 once finished)."""
        async def work(conn: AsyncConnection) -> int:
            night = await self._hosted(conn, host_id, night_id, lock=True)
            if night["status"] == "finished":
                raise NightConflict("the night is over")
            current = int(night["current_round"])
            if current:
                await self._check_round_full(conn, night_id, current, int(night["hands"]))
            if current == int(night["rounds"]):
                await conn.execute(update(nights).where(nights.c.id == night_id)
                                   .values(status="finished"))
                return 0
            people = int(await conn.scalar(select(func.count()).select_from(night_people)
                                           .where(night_people.c.night_id == night_id)) or 0)
            if night["movement"] == "kings" and current:
                tables = await self._kings_round(conn, night_id, current)
            else:
                tables = schedule(people, int(night["rounds"]))[current]
            for number, ((a, c), (b, d)) in enumerate(tables, start=1):
                await conn.execute(night_tables.insert().values(
                    night_id=night_id, round=current + 1, table_no=number,
                    seat0=a, seat1=b, seat2=c, seat3=d, code=_new_code()))
            await conn.execute(update(nights).where(nights.c.id == night_id)
                               .values(status="playing", current_round=current + 1))
            return current + 1

        for attempt in range(3):  # a code clash (one in a billion) draws new codes
            try:
                async with self.engine.begin() as conn:
                    return await work(conn)
            except IntegrityError:
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    async def correct(self, host_id: int, host_name: str, night_id: str, round_no: object,
                      table_no: object, hand: object, makers: object, tricks: object,
                      lone_seat: object) -> None:
        """The host enters or corrects a hand of any round played (kept in the log)."""
        async with self.engine.begin() as conn:
            night = await self._hosted(conn, host_id, night_id)
            if not isinstance(round_no, int) or not 1 <= round_no <= night["current_round"]:
                raise NightError("no such round has been played")
            if not isinstance(table_no, int) or isinstance(table_no, bool):
                raise NightError("table must be a table number")
            seats = await self._seats(conn, night_id, round_no, table_no)
            number, score = _hand_score(seats, hand, makers, tricks, lone_seat,
                                        int(night["hands"]))
            await self._log(conn, night_id, round_no, table_no, number, score, "correction",
                            f"host {host_name}", None)

    # -- a table's phone ------------------------------------------------------------------

    async def enter(self, code: str, by_pair: object, hand: object, makers: object,
                    tricks: object, lone_seat: object) -> None:
        """A table's phone enters (or re-enters) a hand of the round being played."""
        pair = _pair(by_pair)
        async with self.engine.begin() as conn:
            night, row = await self._table_of(conn, code)
            seats = _seats_of(row)
            number, score = _hand_score(seats, hand, makers, tricks, lone_seat,
                                        int(night["hands"]))
            names = await self._names(conn, night["id"])
            by = f"table {row['table_no']}: {names[seats[pair]]} & {names[seats[pair + 2]]}"
            await self._log(conn, night["id"], int(row["round"]), int(row["table_no"]), number,
                            score, "entry", by, pair)

    async def confirm(self, code: str, by_pair: object) -> None:
        """The other pair confirms the table's card: every hand entered, and the newest
        entry made by the pair that did not confirm (a host correction needs no pair)."""
        pair = _pair(by_pair)
        async with self.engine.begin() as conn:
            night, row = await self._table_of(conn, code)
            key = (night["id"], int(row["round"]), int(row["table_no"]))
            card = await self._card(conn, *key)
            if len(card) < int(night["hands"]):
                raise NightConflict(f"{len(card)} of {night['hands']} hands are entered: "
                                    "enter them all, then confirm")
            newest = (await conn.execute(
                select(night_entries.c.id, night_entries.c.by_pair)
                .where(night_entries.c.night_id == key[0], night_entries.c.round == key[1],
                       night_entries.c.table_no == key[2])
                .order_by(night_entries.c.id.desc()).limit(1))).one()
            if newest.by_pair == pair:
                raise NightConflict("the pair that entered the hands cannot confirm them: "
                                    "the other pair confirms")
            seats = _seats_of(row)
            names = await self._names(conn, night["id"])
            by = f"{names[seats[pair]]} & {names[seats[pair + 2]]}"
            await conn.execute(night_confirms.insert().values(
                night_id=key[0], round=key[1], table_no=key[2], by=by, by_pair=pair,
                entry_id=int(newest.id), at=self.now()))

    async def card(self, code: str) -> dict[str, Any]:
        """A table's card for its phone: who sits where, the hands so far, confirmation."""
        async with self.engine.connect() as conn:
            night, row = await self._table_of(conn, code, playing_only=False)
            key = (str(night["id"]), int(row["round"]), int(row["table_no"]))
            names = await self._names(conn, key[0])
            seats = _seats_of(row)
            card = await self._card(conn, *key)
            confirmed = await self._confirmed(conn, *key)
            table = _table(seats)
            return {
                "night": key[0], "name": night["name"], "round": key[1], "table": key[2],
                "hands_per_round": int(night["hands"]), "loner_bonus": bool(night["loner_bonus"]),
                "open": night["status"] == "playing" and key[1] == night["current_round"],
                "seats": [names[p] for p in seats],
                "hands": [_hand_json(h, table, bool(night["loner_bonus"])) for h in card],
                "confirmed_by": confirmed,
            }

    # -- everyone -----------------------------------------------------------------------------

    async def state(self, night_id: str, viewer_id: int | None) -> dict[str, Any]:
        """The night as its pages show it; table codes only for the host."""
        async with self.engine.connect() as conn:
            night = await self._night(conn, night_id)
            is_host = viewer_id is not None and viewer_id == night["host_id"]
            names = await self._names(conn, night_id)
            rows = (await conn.execute(select(night_tables)
                                       .where(night_tables.c.night_id == night_id)
                                       .order_by(night_tables.c.round,
                                                 night_tables.c.table_no))).mappings().all()
            # Three queries for the whole night, however many rounds: pages ask every few
            # seconds.
            entries = (await conn.execute(select(night_entries)
                                          .where(night_entries.c.night_id == night_id)
                                          .order_by(night_entries.c.id))).mappings().all()
            confirms = (await conn.execute(select(night_confirms)
                                           .where(night_confirms.c.night_id == night_id)
                                           .order_by(night_confirms.c.id))).mappings().all()
            by_table: dict[tuple[int, int], list[Any]] = {}
            for entry in entries:
                by_table.setdefault((int(entry["round"]), int(entry["table_no"])), []).append(entry)
            confirmed: dict[tuple[int, int, int], str] = {
                (int(c["round"]), int(c["table_no"]), int(c["entry_id"])): str(c["by"])
                for c in confirms}  # the newest confirmation of each entry wins
            rounds: list[dict[str, Any]] = []
            plays: list[list[tuple[Table, list[HandScore]]]] = []
            loner_bonus = bool(night["loner_bonus"])
            for row in rows:
                number, table_no = int(row["round"]), int(row["table_no"])
                if len(rounds) < number:
                    rounds.append({"round": number, "tables": []})
                    plays.append([])
                seats = _seats_of(row)
                table = _table(seats)
                logged = by_table.get((number, table_no), [])
                card = _newest_hands(logged)
                scores = [_score_of(h, seats) for h in card]
                plays[-1].append((table, scores))
                side = [0, 0]
                for score in scores:
                    points = hand_points(table, score)
                    side[0] += points[table[0][0]]
                    side[1] += points[table[1][0]]
                newest = int(logged[-1]["id"]) if logged else None
                rounds[-1]["tables"].append({
                    "table": table_no, "seats": [names[p] for p in seats],
                    "hands_entered": len(card), "side_points": side,
                    "confirmed_by": (None if newest is None
                                     else confirmed.get((number, table_no, newest))),
                    "code": row["code"] if is_host else None,
                })
            ranked = standings(tallies(len(names), plays, loner_bonus))
            return {
                "id": night_id, "name": night["name"], "status": night["status"],
                "rounds": int(night["rounds"]), "hands": int(night["hands"]),
                "loner_bonus": loner_bonus, "movement": night["movement"],
                "current_round": int(night["current_round"]),
                "people": names, "is_host": is_host, "tie_breaks": list(TIE_BREAKS),
                "round_tables": rounds,
                "standings": [{"place": s.place, "name": names[s.tally.person],
                               "points": s.tally.points, "rounds": s.tally.rounds,
                               "loners_made": s.tally.loners_made, "euchred": s.tally.euchred}
                              for s in ranked],
            }

    async def log(self, night_id: str) -> list[dict[str, Any]]:
        """Every entry, correction and confirmation, oldest first."""
        async with self.engine.connect() as conn:
            await self._night(conn, night_id)
            out: list[dict[str, Any]] = []
            for r in (await conn.execute(select(night_entries)
                                         .where(night_entries.c.night_id == night_id)
                                         .order_by(night_entries.c.id))).mappings():
                out.append({"kind": r["kind"], "round": r["round"], "table": r["table_no"],
                            "hand": r["hand"], "makers": r["makers"], "tricks": r["tricks"],
                            "lone_seat": r["lone_seat"], "by": r["by"],
                            "at": _aware(r["at"]).isoformat(), "id": r["id"]})
            for r in (await conn.execute(select(night_confirms)
                                         .where(night_confirms.c.night_id == night_id)
                                         .order_by(night_confirms.c.id))).mappings():
                out.append({"kind": "confirmation", "round": r["round"], "table": r["table_no"],
                            "hand": None, "makers": None, "tricks": None, "lone_seat": None,
                            "by": r["by"], "at": _aware(r["at"]).isoformat(),
                            "id": r["entry_id"]})
            out.sort(key=lambda e: (e["at"], e["kind"] == "confirmation", e["id"]))
            return out

    async def hosted_by(self, host_id: int) -> list[dict[str, Any]]:
        """The host's nights, newest first."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(nights).where(nights.c.host_id == host_id)
                                       .order_by(nights.c.created_at.desc()))).mappings()
            return [{"id": r["id"], "name": r["name"], "status": r["status"],
                     "current_round": r["current_round"], "rounds": r["rounds"]} for r in rows]

    # -- helpers --------------------------------------------------------------------------------

    async def _insert_people(self, conn: AsyncConnection, night_id: str,
                             people: Sequence[str]) -> None:
        await conn.execute(night_people.insert(), [
            {"night_id": night_id, "number": i, "name": n} for i, n in enumerate(people)])

    async def _night(self, conn: AsyncConnection, night_id: str,
                     lock: bool = False) -> dict[str, Any]:
        query = select(nights).where(nights.c.id == night_id)
        if lock:
            query = query.with_for_update()
        row = (await conn.execute(query)).mappings().first()
        if row is None:
            raise NightNotFound("no euchre night has that id")
        return dict(row)

    async def _hosted(self, conn: AsyncConnection, host_id: int, night_id: str,
                      lock: bool = False) -> dict[str, Any]:
        night = await self._night(conn, night_id, lock)
        if night["host_id"] != host_id:
            raise NotTheHost("only the night's host may do that")
        return night

    async def _names(self, conn: AsyncConnection, night_id: str) -> list[str]:
        rows = await conn.execute(select(night_people.c.name)
                                  .where(night_people.c.night_id == night_id)
                                  .order_by(night_people.c.number))
        return [str(r.name) for r in rows]

    async def _table_of(self, conn: AsyncConnection, code: str, playing_only: bool = True
                        ) -> tuple[dict[str, Any], dict[str, Any]]:
        clean = code.strip().upper() if isinstance(code, str) else ""
        row = (await conn.execute(select(night_tables).where(night_tables.c.code == clean))
               ).mappings().first()
        if row is None:
            raise NightNotFound("no table has that code: check it with the host")
        night = await self._night(conn, str(row["night_id"]))
        if playing_only and (night["status"] != "playing"
                             or row["round"] != night["current_round"]):
            raise NightConflict("that round is over: ask the host to correct a hand")
        return night, dict(row)

    async def _seats(self, conn: AsyncConnection, night_id: str, round_no: int,
                     table_no: int) -> tuple[int, int, int, int]:
        row = (await conn.execute(select(night_tables).where(
            night_tables.c.night_id == night_id, night_tables.c.round == round_no,
            night_tables.c.table_no == table_no))).mappings().first()
        if row is None:
            raise NightError(f"round {round_no} has no table {table_no}")
        return _seats_of(dict(row))

    async def _card(self, conn: AsyncConnection, night_id: str, round_no: int,
                    table_no: int) -> list[HandOnCard]:
        rows = await conn.execute(select(night_entries).where(
            night_entries.c.night_id == night_id, night_entries.c.round == round_no,
            night_entries.c.table_no == table_no).order_by(night_entries.c.id))
        return _newest_hands(rows.mappings().all())

    async def _confirmed(self, conn: AsyncConnection, night_id: str, round_no: int,
                         table_no: int) -> str | None:
        """Who confirmed the card, if the confirmation saw its newest entry."""
        where = (night_entries.c.night_id == night_id, night_entries.c.round == round_no,
                 night_entries.c.table_no == table_no)
        newest = await conn.scalar(select(func.max(night_entries.c.id)).where(*where))
        if newest is None:
            return None
        row = (await conn.execute(select(night_confirms.c.by).where(
            night_confirms.c.night_id == night_id, night_confirms.c.round == round_no,
            night_confirms.c.table_no == table_no, night_confirms.c.entry_id == newest)
            .order_by(night_confirms.c.id.desc()).limit(1))).first()
        return None if row is None else str(row.by)

    async def _kings_round(self, conn: AsyncConnection, night_id: str, current: int
                           ) -> list[Table]:
        """The next round by king's table from the results of round ``current``."""
        rows = (await conn.execute(select(night_tables).where(
            night_tables.c.night_id == night_id, night_tables.c.round == current)
            .order_by(night_tables.c.table_no))).mappings().all()
        tables: list[Table] = []
        winners: list[int] = []
        for row in rows:
            seats = _seats_of(row)
            card = await self._card(conn, night_id, current, int(row["table_no"]))
            tables.append(_table(seats))
            winners.append(table_winner_or_last(_table(seats), [_score_of(h, seats)
                                                                for h in card]))
        return kings_table(tables, winners)

    async def _check_round_full(self, conn: AsyncConnection, night_id: str, round_no: int,
                                hands: int) -> None:
        tables = (await conn.execute(select(night_tables.c.table_no).where(
            night_tables.c.night_id == night_id, night_tables.c.round == round_no)
            .order_by(night_tables.c.table_no))).scalars().all()
        for table_no in tables:
            entered = len(await self._card(conn, night_id, round_no, table_no))
            if entered < hands:
                raise NightConflict(f"table {table_no} has {entered} of {hands} hands entered: "
                                    "enter or correct them before the next round")

    async def _log(self, conn: AsyncConnection, night_id: str, round_no: int, table_no: int,
                   hand: int, score: HandScore, kind: str, by: str, by_pair: int | None
                   ) -> None:
        seats = await self._seats(conn, night_id, round_no, table_no)
        lone_seat = None if score.lone is None else seats.index(score.lone)
        await conn.execute(night_entries.insert().values(
            night_id=night_id, round=round_no, table_no=table_no, hand=hand,
            makers=score.makers, tricks=score.tricks, lone_seat=lone_seat, kind=kind, by=by,
            by_pair=by_pair, at=self.now()))


def _newest_hands(rows: Sequence[Any]) -> list[HandOnCard]:
    """A table's card from its log rows (oldest first): the newest row of each hand."""
    newest: dict[int, HandOnCard] = {}
    for r in rows:
        newest[int(r["hand"])] = HandOnCard(int(r["hand"]), int(r["makers"]), int(r["tricks"]),
                                          r["lone_seat"], str(r["by"]), int(r["id"]))
    return [newest[k] for k in sorted(newest)]


def _pair(value: object) -> int:
    if isinstance(value, bool) or value not in (0, 1):
        raise NightError("by_pair must be 0 (seats 0 and 2) or 1 (seats 1 and 3)")
    return int(value)


def _new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def _seats_of(row: Any) -> tuple[int, int, int, int]:
    return (int(row["seat0"]), int(row["seat1"]), int(row["seat2"]), int(row["seat3"]))


def _table(seats: tuple[int, int, int, int]) -> Table:
    """Seats 0-3 as a table: (seat 0, seat 2) against (seat 1, seat 3)."""
    return ((seats[0], seats[2]), (seats[1], seats[3]))


def _hand_score(seats: tuple[int, int, int, int], hand: object, makers: object,
                tricks: object, lone_seat: object, hands: int) -> tuple[int, HandScore]:
    """A hand as entered (seats, not people), checked; refused in words."""
    if isinstance(hand, bool) or not isinstance(hand, int) or not 1 <= hand <= hands:
        raise NightError(f"hand must be a number from 1 to {hands}")
    if isinstance(makers, bool) or makers not in (0, 1):
        raise NightError("makers must be 0 (seats 0 and 2) or 1 (seats 1 and 3)")
    if isinstance(tricks, bool) or not isinstance(tricks, int) or not 0 <= tricks <= 5:
        raise NightError("the makers' tricks must be 0 to 5")
    lone = None
    if lone_seat is not None:
        if isinstance(lone_seat, bool) or lone_seat not in (0, 1, 2, 3):
            raise NightError("lone_seat must be a seat 0-3, or null")
        if lone_seat % 2 != makers:
            raise NightError("only one of the makers can go alone")
        lone = seats[lone_seat]
    score = HandScore(int(makers), tricks, lone)
    score.check(_table(seats))
    return hand, score


def _score_of(hand: HandOnCard, seats: tuple[int, int, int, int]) -> HandScore:
    lone = None if hand.lone_seat is None else seats[hand.lone_seat]
    return HandScore(hand.makers, hand.tricks, lone)


def _hand_json(hand: HandOnCard, table: Table, loner_bonus: bool) -> dict[str, Any]:
    seats = (table[0][0], table[1][0], table[0][1], table[1][1])
    points = hand_points(table, _score_of(hand, seats), loner_bonus)
    return {"hand": hand.hand, "makers": hand.makers, "tricks": hand.tricks,
            "lone_seat": hand.lone_seat, "by": hand.by,
            "points": [points[p] for p in seats]}


def _aware(t: dt.datetime) -> dt.datetime:
    return t if t.tzinfo else t.replace(tzinfo=dt.UTC)
