"""``euchre bot connect URL TOKEN -- COMMAND``: play a seat at a real table with a program.

The bridge signs in as an outside bot with its bot token (``Authorization: Bearer``), takes a
seat (a free one at the online table ``URL`` links to; or with ``--practice`` or ``--quick``
a new practice table, or ``Play now``, on the site at ``URL``), waits for the game to start,
and plays it over the ordinary table socket. The program ``COMMAND`` is started as a child
process and speaks the JSON lines of ``euchre engine`` (docs/engine_protocol.md), the other
way round: at each of the seat's turns the bridge sends it one request,

    {"id": N, "cmd": "bot", "seat": S, "view": VIEW, "table": {...}}

where ``VIEW`` is exactly what the table sends that seat (``table.view``: its own cards,
never another's), and the program answers as ``euchre engine`` answers ``bot``:

    {"id": N, "ok": true, "cmd": "bot", "seat": S, "action": "play JH"}

A refused move is asked again with ``"refused": {"code", "message"}`` added (at most
:data:`TRIES` times a turn; the last refusal ends the bridge, which gives the seat up).
At the end the program gets
``{"cmd": "quit"}``. See docs/outside_bots.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal
import sys
import urllib.error
import urllib.request
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any, TypeVar
from urllib.parse import urlsplit

from ..table.actor.delta import Folder, Gap
from ..table.actor.wire import PROTOCOL

TRIES = 3
"""Times a turn is asked of the program when the table refuses its move."""

ANSWER_WITHIN = 60.0
"""Seconds the program has to answer one request before the bridge gives up."""

QUIT_WITHIN = 5.0
"""Seconds the program has to answer ``quit``: the bridge is ending, and a program that
stopped reading is not waited for a whole :data:`ANSWER_WITHIN` (then it is killed)."""

T = TypeVar("T")

MAX_LINE = 1 << 20
"""The longest line the program may answer with (bytes): a longer one ends the bridge."""


class BridgeError(Exception):
    """The bridge cannot go on (refused token, no seat, the program failed); the message
    says why, for a person."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``euchre bot connect URL TOKEN [options] -- COMMAND...``."""
    sub = parser.add_subparsers(dest="bot_command", metavar="SUBCOMMAND", required=True)
    connect = sub.add_parser(
        "connect", help="play a seat at a table with a program that speaks the engine "
                        "protocol",
        description="Play a seat at a real table with a program that speaks the engine "
                    "protocol: euchre bot connect URL TOKEN -- COMMAND")  # plain text: no reST
    connect.add_argument("url", help="the online table's link (/online/ID or /table/ID), or "
                                     "the site's address with --practice or --quick")
    connect.add_argument("token", help="the bot token (made on the account page)")
    connect.add_argument("--seat", type=int, choices=[0, 1, 2, 3],
                         help="the seat to claim at an online table (default: the first free)")
    how = connect.add_mutually_exclusive_group()
    how.add_argument("--practice", action="store_true",
                     help="open a practice table on the site (computers in the other seats)")
    how.add_argument("--quick", action="store_true",
                     help="Play now: a seat at a waiting quick-play table (or a new one)")
    connect.add_argument("--fill", action="store_true",
                         help="with --quick: agree to fill free seats with computers")
    connect.add_argument("--preset", default="classic", help="rules preset for a new table")
    connect.epilog = ("After --, the program to run and its arguments: euchre bot connect URL "
                      "TOKEN -- python examples/outside_bot.py")


@dataclass
class TakenSeat:
    """The seat taken: its table, number and token."""

    table_id: str
    seat: int
    token: str


UNASKED_LINES = 100
"""Lines the program may send that answer nothing asked (a greeting, a stray log line)
before the bridge takes it for a flood and stops."""


class Program:
    """The child process that decides: one JSON request per line, one answer per line.

    Its output is read all the time (:meth:`_read`), not only while a request waits, so a
    line nobody asked for is never taken for the next answer, and a program that floods
    is noticed while the bridge waits for the start or for the other seats: it ends the
    bridge with one reason (:attr:`failed`)."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        """Wrap a started process (stdin and stdout piped) and start reading its output."""
        self.proc = proc
        """The process."""
        self.next_id = 0
        self.unasked = 0
        """Lines it sent that answered nothing asked."""
        self.error: BridgeError | None = None
        """Why it can no longer be asked (a flood, a line over the limit), once it can't."""
        self.failed = asyncio.Event()
        """Set with :attr:`error`."""
        self._waiting: asyncio.Future[bytes] | None = None
        self._reader = asyncio.ensure_future(self._read())

    @classmethod
    async def start(cls, command: list[str]) -> Program:
        """Start ``command``."""
        try:
            proc = await asyncio.create_subprocess_exec(
                *command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                limit=MAX_LINE)
        except OSError as e:
            raise BridgeError(f"could not start {command[0]!r}: {e}") from None
        return cls(proc)

    def _fail(self, error: BridgeError) -> None:
        self.error = error
        self.failed.set()
        if self._waiting is not None and not self._waiting.done():
            self._waiting.set_exception(error)

    async def _read(self) -> None:
        """Hand each line to the request waiting for it; count the others."""
        assert self.proc.stdout is not None
        while True:
            try:
                raw = await self.proc.stdout.readline()
            except ValueError:  # the stream's limit: a line longer than MAX_LINE
                self._fail(BridgeError(f"the program sent a line over {MAX_LINE} bytes: "
                                       "stopping"))
                return
            waiting = self._waiting
            if waiting is not None and not waiting.done():
                waiting.set_result(raw)  # b"" once its output ended
            elif raw:
                self.unasked += 1
                if self.unasked > UNASKED_LINES:
                    self._fail(BridgeError(f"the program sent more than {UNASKED_LINES} "
                                           "lines nobody asked for: stopping"))
                    return
            if not raw:
                return

    async def ask(self, cmd: str, *, within: float = ANSWER_WITHIN,
                  **fields: Any) -> dict[str, Any]:
        """Send one request; its answer (:class:`BridgeError` if none comes within ``within``
        seconds, or not JSON)."""
        assert self.proc.stdin is not None
        if self.error is not None:
            raise self.error
        self.next_id += 1
        line = json.dumps({"id": self.next_id, "cmd": cmd, **fields}, separators=(",", ":"))
        self._waiting = asyncio.get_running_loop().create_future()
        try:
            self.proc.stdin.write(line.encode() + b"\n")
            await self.proc.stdin.drain()
            raw = await asyncio.wait_for(self._waiting, within)
        except (BrokenPipeError, ConnectionResetError):
            raise BridgeError("the program stopped") from None
        except TimeoutError:
            raise BridgeError(f"the program did not answer within {within:g} s"
                              ) from None
        finally:
            self._waiting = None
        if not raw:
            raise BridgeError("the program stopped (its output ended)")
        try:
            answer = json.loads(raw)
        except ValueError:
            raise BridgeError(f"the program's answer is not JSON: {raw[:80]!r}") from None
        if not isinstance(answer, dict):
            raise BridgeError("the program's answer is not a JSON object")
        if answer.get("id", self.next_id) != self.next_id:
            raise BridgeError(f"the program answered request {answer.get('id')!r}, "
                              f"not {self.next_id}")
        checked: dict[str, Any] = answer
        return checked

    async def close(self) -> int:
        """Say ``quit`` (if it still listens) and wait for it; its exit status. A program
        that failed (flooded, a line over the limit) is stopped at once."""
        if self.error is not None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()
        with contextlib.suppress(BridgeError, OSError, ValueError):
            await self.ask("quit", within=QUIT_WITHIN)
        try:
            return await asyncio.wait_for(self.proc.wait(), 10)
        except TimeoutError:
            self.proc.kill()
            return await self.proc.wait()
        finally:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
            await self._drain()

    async def _drain(self) -> None:
        """Read the ended program's output to its end: a pipe left unread (the reader stops
        at a flood) keeps its transport open past the loop, which then complains at exit."""
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        if self.proc.stdout is None:
            return
        with contextlib.suppress(TimeoutError, OSError, ValueError):
            async with asyncio.timeout(5):
                while await self.proc.stdout.read(1 << 16):
                    pass

    async def guard(self, work: Awaitable[T]) -> T:
        """``work``'s result, unless the program fails first (a flood while nothing is
        asked, say): then ``work`` is cancelled and :attr:`error` raised."""
        task = asyncio.ensure_future(work)
        failed = asyncio.ensure_future(self.failed.wait())
        try:
            await asyncio.wait({task, failed}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            failed.cancel()
            if not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, BridgeError):
                    await task
        if task.done() and not task.cancelled():
            return task.result()
        assert self.error is not None
        raise self.error


class SiteApi:
    """The site's HTTP API, as the bot (every request carries its bearer token)."""

    def __init__(self, base: str, token: str) -> None:
        """The site at ``base`` (scheme and host), as the bot holding ``token``."""
        self.base = base
        """``http://host:port``."""
        self.token = token
        """The bot token."""

    def _call(self, method: str, path: str, body: Any) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method, headers={
            "Authorization": f"Bearer {self.token}", "Content-Type": "application/json",
            "Accept": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return json.loads(answer.read() or b"{}")
        except urllib.error.HTTPError as e:
            try:
                refusal = json.loads(e.read()).get("error", "")
            except ValueError:
                refusal = ""
            raise BridgeError(f"{method} {path}: {e.code} {refusal or e.reason}") from None
        except urllib.error.URLError as e:
            raise BridgeError(f"cannot reach {self.base}: {e.reason}") from None

    async def call(self, method: str, path: str, body: Any = None) -> Any:
        """One request, in a thread; the JSON answer (:class:`BridgeError` on a refusal)."""
        return await asyncio.to_thread(self._call, method, path, body)

    def ws(self, path: str) -> str:
        """The socket URL of ``path`` on this site."""
        return ("wss" if self.base.startswith("https") else "ws") + self.base[
            self.base.index(":"):] + path


def _table_id(url: str) -> str:
    parts = [p for p in urlsplit(url).path.split("/") if p]
    if len(parts) < 2 or parts[-2] not in {"online", "table", "watch"}:
        raise BridgeError(f"{url} is not a table's link (/online/ID or /table/ID): to open a "
                          "table, give the site's address with --practice or --quick")
    return parts[-1]


async def take_seat(site: SiteApi, args: argparse.Namespace) -> TakenSeat:
    """The seat the options ask for: a new practice table, Play now, or a free seat at the
    linked online table."""
    if args.practice:
        made = await site.call("POST", "/api/tables", {"kind": "practice",
                                                       "preset": args.preset})
        return TakenSeat(made["id"], made["seat"], made["token"])
    if args.quick:
        made = await site.call("POST", "/api/online/quick", {"preset": args.preset})
        if args.fill and made["status"] != "started":
            await site.call("POST", f"/api/online/{made['id']}/fill", {"token": made["token"]})
        return TakenSeat(made["id"], made["seat"], made["token"])
    table_id = _table_id(args.url)
    table = await site.call("GET", f"/api/online/{table_id}")
    if table["status"] != "open":
        raise BridgeError(f"the table is {table['status']}: no seat can be claimed")
    free = [s["seat"] for s in table["seats"] if not s["taken"]]
    seat = args.seat if args.seat is not None else (free[0] if free else None)
    if seat is None:
        raise BridgeError("the table is full")
    made = await site.call("POST", f"/api/tables/{table_id}/seats", {"seat": seat})
    return TakenSeat(table_id, made["seat"], made["token"])


async def wait_for_start(site: SiteApi, table_id: str) -> None:
    """Until the online table's game starts (its waiting page's socket)."""
    from websockets.asyncio.client import connect

    async with connect(site.ws(f"/ws/online/{table_id}")) as ws:
        async for raw in ws:
            message = json.loads(raw)
            if message.get("type") == "gone":
                raise BridgeError(f"the table went before its start "
                                  f"({message.get('reason')})")
            table = message.get("table") if message.get("type") == "table" else None
            if table and table.get("id") == table_id:
                if table["status"] == "started":
                    return
                if table["status"] == "cancelled":
                    raise BridgeError("the table's creator cancelled it")
    raise BridgeError("the server closed the waiting table's socket")


def _public(table: dict[str, Any]) -> dict[str, Any]:
    """What the program is told of the table besides the seat's view."""
    return {k: table.get(k) for k in ("id", "kind", "version", "seats", "score",
                                      "hand_number", "dealer", "rules", "preset")}


async def play(site: SiteApi, seat: TakenSeat, program: Program, out: Any) -> dict[str, Any]:
    """Play the seat over the table socket until the game is over; the last TABLE. A socket
    closed with 1012 or 1013 is opened again and rejoined with ``since``."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    state = _BridgeTurns()
    for _ in range(RECONNECTS + 1):
        try:
            async with connect(site.ws(f"/ws/tables/{seat.table_id}")) as ws:
                done = await _play_socket(ws, seat, program, out, state)
                if done is not None:
                    return done
            final = await _final(site, seat.table_id)
            if final is not None:
                return final
            print(f"the table's socket closed ({ws.close_code} {ws.close_reason}): "
                  "connecting again", file=out, flush=True)
        except ConnectionClosed as e:
            # 1012: the table stopped in that process; 1013: we read too slowly. Both mean
            # "connect again and rejoin with since" (docs/protocol.md).
            code = e.rcvd.code if e.rcvd is not None else None
            if code not in (1012, 1013):
                raise BridgeError(f"the table's socket closed: {e}") from None
            print(f"the table's socket closed ({code}): connecting again", file=out,
                  flush=True)
    raise BridgeError("the server closed the table's socket before the game was over")


RECONNECTS = 5
"""Times the bridge connects again after the table's socket is closed with 1012 or 1013."""


async def _final(site: SiteApi, table_id: str) -> dict[str, Any] | None:
    """The end of a game the table's socket no longer serves, from its record (None while
    it is not over)."""
    try:
        record = await site.call("GET", f"/api/games/{table_id}/record?format=json")
    except BridgeError:
        return None
    final = record.get("final")
    if not final:
        return None
    return {"game_over": True, "score": final, "winner": 0 if final[0] > final[1] else 1}


@dataclass
class _BridgeTurns:
    """What the bridge remembers across reconnections."""

    asked_at: tuple[int, int] | None = None
    """The turn the program was last asked about: (hand number, moves in the hand). Not the
    table's version, which also moves when nothing changes for the seat (a seat connects, a
    spectator comes), so a turn already answered would be asked again."""
    tries: int = 0
    """Times it was asked about that turn."""
    last: dict[str, Any] | None = None
    """The last TABLE seen."""
    folder: Folder = field(default_factory=Folder)
    """The table as folded from the socket's snapshot and events (kept across sockets:
    a rejoin with ``since`` is sent only the events missed)."""
    continued: int | None = None
    """The hand whose result the bridge said it has read (``continue``)."""


async def _play_socket(ws: Any, seat: TakenSeat, program: Program, out: Any, state: _BridgeTurns
                   ) -> dict[str, Any] | None:
    """Join and play over one socket; the final TABLE, or None if the socket closed."""
    since = state.folder.version
    table: dict[str, Any]
    await ws.send(json.dumps({"type": "join", "token": seat.token, "since": since,
                              "protocol": PROTOCOL}))
    refusal: dict[str, Any] | None = None
    async for raw in ws:
        message = json.loads(raw)
        kind = message.get("type")
        if kind == "error":
            if message.get("code") == "no_table" and state.last is not None:
                return None  # gone from memory once over: the record says how it ended
            if message.get("code") in {"bad_token", "revoked", "replaced", "no_table",
                                       "old_protocol"}:
                raise BridgeError(f"the table refused the bot: {message.get('message')}")
            refusal = {"code": message.get("code"), "message": message.get("message")}
            if state.asked_at is not None and state.tries >= TRIES \
                    and refusal["code"] == "illegal":
                raise BridgeError(f"the table refused the program's move {TRIES} times at "
                                  f"one turn (last: {refusal['message']}): stopping")
            if state.asked_at is None or state.tries >= TRIES:
                print(f"refused: {refusal['message']}", file=out, flush=True)
                continue
        elif kind in {"snapshot", "event"}:
            try:
                state.folder.receive(message)
            except Gap:  # never expected (the server sends every version): rejoin
                return None
            table = state.folder.table or {}
            state.last = table
            if table.get("game_over") or table.get("closed"):
                return table
            refusal = None
            hand = table.get("hand_number")
            if (table.get("view") or {}).get("phase") == "over" and state.continued != hand:
                # a program reads no result panel: the table need not hold the hand for it
                state.continued = hand
                await ws.send(json.dumps({"type": "continue", "hand_number": hand}))
        else:
            continue
        table = state.last or {}
        view = table.get("view") or {}
        if table.get("to_act") != seat.seat or not view.get("legal"):
            continue
        turn = (table.get("hand_number", 0), len(view.get("history") or ()))
        if state.asked_at == turn and refusal is None:
            continue
        state.tries = state.tries + 1 if state.asked_at == turn else 1
        state.asked_at = turn
        if state.tries > TRIES:
            continue
        fields: dict[str, Any] = {"seat": seat.seat, "view": view, "table": _public(table)}
        if refusal is not None:
            fields["refused"] = refusal
        answer = await program.ask("bot", **fields)
        if not answer.get("ok") or not isinstance(answer.get("action"), str):
            print(f"the program gave no action: {answer}", file=out, flush=True)
            continue
        await ws.send(json.dumps({"type": "action", "action": answer["action"]}))
    return None


async def connect_bot(args: argparse.Namespace, out: Any) -> int:
    """Sign in as the bot, take a seat, start the program, play the game."""
    parts = urlsplit(args.url)
    if parts.scheme not in {"http", "https"} or not parts.netloc:
        raise BridgeError(f"{args.url} is not an http(s) address")
    command = list(getattr(args, "program", []))
    if not command:
        raise BridgeError("give the program to run after --: euchre bot connect URL TOKEN "
                          "-- python my_bot.py")
    try:
        import websockets  # noqa: F401 - the bridge's sockets: checked before anything is taken
    except ImportError:
        raise BridgeError("the bridge needs the websockets package: pip install "
                          "'euchre[bot]' (or pip install websockets)") from None
    site = SiteApi(f"{parts.scheme}://{parts.netloc}", args.token)
    me = await site.call("GET", "/api/bot")
    print(f"signed in as the bot {me['name']}", file=out, flush=True)
    # The program first: a command that cannot start never leaves a dead bot in a seat.
    program = await Program.start(command)
    seat: TakenSeat | None = None
    try:
        seat = await take_seat(site, args)
        print(f"seat {seat.seat} at table {seat.table_id}", file=out, flush=True)
        table = await program.guard(_wait_and_play(site, seat, program, out, args))
    except (asyncio.CancelledError, BridgeError):  # stopped, or cannot go on: never leave
        if seat is not None:  # the bot seated
            print(await give_back(site, seat, practice=args.practice), file=out, flush=True)
        raise
    finally:
        await program.close()
    winner = table.get("winner")
    if table.get("closed"):
        print(f"the table closed: {table['closed']}", file=out, flush=True)
    else:
        side = "won" if winner is not None and winner == seat.seat % 2 else "lost"
        print(f"game over: the bot's side {side}, {table['score'][0]} to {table['score'][1]}",
              file=out, flush=True)
    return 0


async def _wait_and_play(site: SiteApi, seat: TakenSeat, program: Program, out: Any,
                         args: argparse.Namespace) -> dict[str, Any]:
    """Wait for the start (an online table), then play; the last TABLE."""
    if not args.practice:
        await wait_for_start(site, seat.table_id)
    return await play(site, seat, program, out)


async def give_back(site: SiteApi, seat: TakenSeat, practice: bool = False) -> str:
    """Give the seat up (stopped before the game ended): a waiting table's seat is left,
    a started game's left as a person's would be, the bot's ``practice`` table closed; one
    line saying what became of it."""
    where = f"seat {seat.seat} at table {seat.table_id}"
    if practice:
        try:
            await site.call("POST", f"/api/tables/{seat.table_id}/leave", {})
            return f"stopped: closed the practice table ({where})"
        except BridgeError as e:
            return f"stopped: could not close the practice table ({where}: {e})"
    body = {"token": seat.token}
    try:
        await site.call("POST", f"/api/online/{seat.table_id}/leave", body)
        return f"stopped: gave up {where}"
    except BridgeError:
        pass  # started already (or gone): leave the game itself
    try:
        await site.call("POST", f"/api/online/{seat.table_id}/leave-game", body)
        return f"stopped: left the game at {where}"
    except BridgeError as e:
        return f"stopped: could not give up {where} ({e})"


async def _until_stopped(args: argparse.Namespace, out: Any) -> int:
    """:func:`connect_bot`, cancelled by SIGTERM as Ctrl-C cancels it, so both give the
    seat back."""
    task = asyncio.current_task()
    loop = asyncio.get_running_loop()
    if task is not None:
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not on every platform
            loop.add_signal_handler(signal.SIGTERM, task.cancel)
    return await connect_bot(args, out)


def run(args: argparse.Namespace) -> int:
    """Run the bridge; 1 with the reason when it cannot go on, 130 when stopped."""
    try:
        return asyncio.run(_until_stopped(args, sys.stdout))
    except BridgeError as e:
        print(f"euchre bot: {e}", file=sys.stderr)
        return 1
    except (KeyboardInterrupt, asyncio.CancelledError):
        print("euchre bot: stopped", file=sys.stderr)
        return 130
