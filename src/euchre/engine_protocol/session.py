"""The engine protocol: JSON lines that let any program drive the rules engine and the bots.

A :class:`ProtocolSession` holds one game. :meth:`ProtocolSession.feed` takes one request
line (a JSON object such as ``{"id": 7, "cmd": "apply", "action": "play JH"}``) and returns
the response lines: one JSON object, with the request's ``id`` echoed and ``"ok": true`` or
``"ok": false, "code": ..., "error": "..."``. A refused request changes nothing. The
protocol is documented in ``docs/engine_protocol.md``; ``euchre engine``
(``euchre/cli/engine.py``) runs a session over stdin and stdout.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import __version__
from ..actions import ActionError
from ..errors import IllegalActionError, RecordError
from ..game import GameState
from ..hand import PATTERNS, Deal
from ..record import GameRecord
from ..rules import PRESETS
from ..shuffle import commitment, deck_from_seed, new_seed
from .fields import (
    ProtocolError,
    Request,
    fixed_deal,
    optional_int,
    rules_field,
    seat_field,
)
from .results import action_result, deal_result, game_json, record_of

if TYPE_CHECKING:
    from ..bots import Bot

PROTOCOL = 1
"""The protocol version ``info`` reports."""

__all__ = [
    "PROTOCOL",
    "ProtocolError",
    "ProtocolSession",
    "Response",
    "command_names",
    "error_response",
]

Response = dict[str, Any]
"""One response object."""
Entry = tuple[GameState, tuple[str | None, ...]]
"""A game and the verifiable shuffle seed of each of its hands (None: a fixed deal)."""


class ProtocolSession:
    """One game driven by protocol requests; every refused request leaves it unchanged."""

    def __init__(self) -> None:
        """A session with no game yet (send ``new_game`` or ``load``)."""
        self._stack: list[Entry] = []
        self._seed: str | None = None
        self._bots: dict[tuple[str, int | None], Bot] = {}
        self.closed = False
        """True once ``quit`` was received."""

    # -- lines and dispatch ---------------------------------------------------------------

    def feed(self, line: str) -> list[str]:
        """Answer one request line with its response lines (none for a blank line)."""
        if not line.strip():
            return []
        return [json.dumps(self.answer(line), separators=(",", ":"))]

    def answer(self, line: str) -> Response:
        """The response object for one request line."""
        try:
            request = json.loads(line)
        except ValueError as e:
            return error_response(None, ProtocolError(f"malformed JSON: {e}", "bad_json"))
        except RecursionError:
            return error_response(None, ProtocolError("malformed JSON: nested too deeply",
                                                    "bad_json"))
        return self.handle(request)

    def handle(self, request: Any) -> Response:
        """The response to one parsed request."""
        if not isinstance(request, dict):
            return error_response(None, ProtocolError("a request must be a JSON object"))
        cmd = request.get("cmd")
        try:
            if not isinstance(cmd, str):
                raise ProtocolError('a request needs "cmd", a string such as "legal"')
            entry = _COMMANDS.get(cmd)
            if entry is None:
                raise ProtocolError(
                    f"unknown command {cmd!r}: the commands are {', '.join(_COMMANDS)}",
                    "unknown_command",
                )
            method, fields = entry
            extra = sorted(set(request) - set(fields) - {"cmd", "id"})
            if extra:
                raise ProtocolError(f"{cmd} does not take {', '.join(map(repr, extra))}"
                                  f" (it takes: {', '.join(fields) or 'nothing'})")
            body = method(self, request)
        except ProtocolError as e:
            return error_response(request, e, cmd if isinstance(cmd, str) else None)
        except Exception as e:  # a bug must not end the session; the state is not yet changed
            failure = ProtocolError(f"internal error ({type(e).__name__}: {e})", "internal")
            return error_response(request, failure, cmd if isinstance(cmd, str) else None)
        response: Response = {"id": request["id"]} if "id" in request else {}
        response.update({"ok": True, "cmd": cmd})
        response.update(body)
        return response

    # -- the game -------------------------------------------------------------------------

    @property
    def game(self) -> GameState | None:
        """The game now, or None before ``new_game`` / ``load``."""
        return self._stack[-1][0] if self._stack else None

    def _entry(self) -> Entry:
        if not self._stack:
            raise ProtocolError('no game: send {"cmd": "new_game"} or "load" first', "no_game")
        return self._stack[-1]

    def _hand_game(self) -> GameState:
        game = self._entry()[0]
        if game.current is None:
            raise ProtocolError('no hand has been dealt: send {"cmd": "deal"}', "no_game")
        return game

    def _to_act(self, request: Request) -> tuple[GameState, int]:
        game = self._hand_game()
        to_act = game.to_act
        if to_act is None:
            why = "the game is over" if game.is_over else 'the hand is over: send {"cmd": "deal"}'
            raise ProtocolError(f"no seat is to act: {why}", "illegal")
        seat = seat_field(request, "seat", to_act)
        if seat != to_act:
            raise ProtocolError(f"seat {seat} is not to act: seat {to_act} is", "illegal")
        return game, seat

    # -- commands -------------------------------------------------------------------------

    def cmd_info(self, request: Request) -> Response:
        """``info``: the engine, the protocol version, the commands, levels and presets."""
        from ..bots import LEVELS

        return {"engine": "euchre", "version": __version__, "protocol": PROTOCOL,
                "commands": list(_COMMANDS), "levels": list(LEVELS), "presets": list(PRESETS)}

    def cmd_new_game(self, request: Request) -> Response:
        """``new_game``: rules (a preset and/or rule fields), the first dealer, a seed."""
        rules = rules_field(request)
        first = seat_field(request, "first_dealer", 0)
        seed = request.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, str))):
            raise ProtocolError("seed must be an integer or a string")
        self._stack = [(GameState(rules, first), ())]
        self._seed = None if seed is None else str(seed)
        self._bots = {}
        return {"rules": rules.to_dict(), "rules_text": rules.to_text(), "first_dealer": first,
                "seeded": seed is not None}

    def cmd_deal(self, request: Request) -> Response:
        """``deal``: a fixed deal (hands, kitty), a given shuffle seed, or a random shuffle."""
        game, seeds = self._entry()
        if not game.needs_deal:
            why = "the game is over" if game.is_over else "the current hand is not over"
            raise ProtocolError(f"cannot deal: {why}", "illegal")
        pattern = request.get("pattern", "3-2")
        if pattern not in PATTERNS:
            raise ProtocolError(f"pattern must be one of {', '.join(PATTERNS)}")
        dealer = seat_field(request, "dealer", game.next_dealer)
        if dealer != game.next_dealer:
            raise ProtocolError(f"seat {dealer} may not deal: seat {game.next_dealer} deals",
                              "illegal")
        seed: str | None = None
        if "hands" in request or "kitty" in request:
            if "seed" in request:
                raise ProtocolError("give either hands and kitty or a seed, not both")
            cards: list[int] | Deal = fixed_deal(request, pattern)
        else:
            given = request.get("seed")
            if given is not None and not isinstance(given, str):
                raise ProtocolError("seed must be a string")
            number = len(game.all_hands()) + 1
            seed = given or (f"{self._seed}:{number}" if self._seed is not None else new_seed())
            cards = deck_from_seed(seed, game.rules.benny)
        try:
            new = game.deal(cards, pattern)
        except ValueError as e:  # DealError, IllegalActionError
            raise ProtocolError(str(e), "bad_deal") from None
        result = deal_result(new, commitment(seed) if seed is not None else None)
        self._stack.append((new, (*seeds, seed)))
        return result

    def cmd_legal(self, request: Request) -> Response:
        """``legal``: the seat to act and its legal actions."""
        game = self._entry()[0]
        return {"to_act": game.to_act, "legal": [str(a) for a in game.legal_actions()],
                "needs_deal": game.needs_deal, "game_over": game.is_over}

    def cmd_apply(self, request: Request) -> Response:
        """``apply``: the seat to act takes an action (``seat`` refuses acting out of turn)."""
        game, seeds = self._entry()
        text = request.get("action")
        if not isinstance(text, str):
            raise ProtocolError('apply needs "action", a string such as "play JH"')
        seat = seat_field(request, "seat", None)
        return self._apply(game, seeds, text, seat)

    def _apply(self, game: GameState, seeds: tuple[str | None, ...], text: str,
               seat: int | None) -> Response:
        actor = game.to_act
        try:
            new = game.apply(text, seat)
        except ActionError as e:
            raise ProtocolError(str(e), "bad_action") from None
        except IllegalActionError as e:
            raise ProtocolError(str(e), "illegal") from None
        result = action_result(game, new, actor)
        self._stack.append((new, seeds))  # changes are made last, once nothing can fail
        return result

    def cmd_view(self, request: Request) -> Response:
        """``view``: one seat's view of the hand (what that seat may know, nothing more)."""
        game = self._hand_game()
        seat = seat_field(request, "seat", None)
        if seat is None:
            raise ProtocolError('view needs "seat" (0-3)')
        assert game.current is not None
        return {"view": game.current.view(seat).to_json()}

    def cmd_state(self, request: Request) -> Response:
        """``state``: the whole open state (every hand): for programs that own the game."""
        game, seeds = self._entry()
        return {"state": game_json(game, seeds)}

    def cmd_bot(self, request: Request) -> Response:
        """``bot``: a computer player's choice for the seat to act, from that seat's view."""
        game, seat = self._to_act(request)
        level = request.get("level", "medium")
        if not isinstance(level, str):
            raise ProtocolError("level must be a string such as \"hard\"")
        bot_seed = optional_int(request, "bot_seed")
        do_apply = request.get("apply", False)
        if not isinstance(do_apply, bool):
            raise ProtocolError("apply must be true or false")
        if bot_seed is None and self._seed is not None:
            bot_seed = _derived_int(f"{self._seed}:bot:{level}")
        bot = self._bot(level, bot_seed)
        assert game.current is not None
        action = bot.choose(game.current.view(seat))
        if do_apply:
            return self._apply(game, self._entry()[1], str(action), seat)
        return {"seat": seat, "action": str(action)}

    def _bot(self, level: str, seed: int | None) -> Bot:
        from ..bots import LEVELS, make

        key = (level.strip().lower(), seed)
        if key[0] not in LEVELS:
            raise ProtocolError(f"unknown level {level!r}: choose one of {', '.join(LEVELS)}")
        if key not in self._bots:

            try:
                self._bots[key] = make(level, seed)
            except ValueError as e:
                raise ProtocolError(str(e), "unavailable") from None
        return self._bots[key]

    def cmd_hint(self, request: Request) -> Response:
        """``hint``: the hard player's advice for the seat to act, best first."""
        game, seat = self._to_act(request)
        budget = request.get("budget", 0.5)
        if isinstance(budget, bool) or not isinstance(budget, (int, float)) or not (
            0 < budget <= 10
        ):
            raise ProtocolError("budget must be a number of seconds above 0 and at most 10")
        try:
            from ..bots.hints import analyse
        except ImportError as e:
            raise ProtocolError(f"hints are not available: {e}", "unavailable") from None
        assert game.current is not None
        seed = _derived_int(f"{self._seed}:hint") if self._seed is not None else None
        hints = analyse(game.current.view(seat), seed=seed, budget=float(budget))
        return {"seat": seat, "hints": [h.to_json() for h in hints]}

    def cmd_record(self, request: Request) -> Response:
        """``record``: the game so far as a record, ``text`` (default) or ``json``; ``public``
        leaves out the hand in progress."""
        game, seeds = self._entry()
        fmt = request.get("format", "text")
        if fmt not in ("text", "json"):
            raise ProtocolError('format must be "text" or "json"')
        public = request.get("public", False)
        if not isinstance(public, bool):
            raise ProtocolError("public must be true or false")
        record = record_of(game, seeds, public)
        return {"format": fmt, "record": record.to_text() if fmt == "text" else record.to_json()}

    def cmd_load(self, request: Request) -> Response:
        """``load``: replace the game by a record (text, or the JSON object), replayed."""
        data = request.get("record")
        seed = request.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, str))):
            raise ProtocolError("seed must be an integer or a string")
        try:
            if isinstance(data, dict):
                record = GameRecord.from_json(data)
            elif isinstance(data, str):
                text = data.lstrip()
                record = (GameRecord.from_json(text) if text.startswith("{")
                          else GameRecord.from_text(data))
            else:
                raise ProtocolError('load needs "record": the text format or the JSON object')
            record.replay()
        except RecordError as e:
            raise ProtocolError(f"cannot load the record: {e}", "bad_record") from None
        stack = _replayed(record)
        game = stack[-1][0]
        result = {"hands": len(record.hands), "score": list(game.score), "to_act": game.to_act,
                  "needs_deal": game.needs_deal, "game_over": game.is_over}
        self._stack = stack
        self._seed = None if seed is None else str(seed)
        self._bots = {}
        return result

    def cmd_undo(self, request: Request) -> Response:
        """``undo``: take back the last actions or deals (``steps``, default 1)."""
        self._entry()
        steps = optional_int(request, "steps")
        steps = 1 if steps is None else steps
        if steps < 1:
            raise ProtocolError("steps must be at least 1")
        if steps > len(self._stack) - 1:
            taken = len(self._stack) - 1
            raise ProtocolError(f"cannot undo {steps} steps: only {taken} were taken", "illegal")
        del self._stack[-steps:]
        game = self._stack[-1][0]
        return {"undone": steps, "to_act": game.to_act, "needs_deal": game.needs_deal,
                "hand_number": len(game.all_hands()), "score": list(game.score)}

    def cmd_quit(self, request: Request) -> Response:
        """``quit``: end the session."""
        self.closed = True
        return {"bye": True}


def error_response(request: Any, error: ProtocolError, cmd: str | None = None) -> Response:
    """The response to a refused request."""
    out: Response = {}
    if isinstance(request, dict) and "id" in request:
        out["id"] = request["id"]
    out.update({"ok": False, "code": error.code, "error": str(error)})
    if cmd is not None:
        out["cmd"] = cmd
    return out


_COMMANDS: dict[str, tuple[Callable[[ProtocolSession, Request], Response], tuple[str, ...]]] = {
    "info": (ProtocolSession.cmd_info, ()),
    "new_game": (ProtocolSession.cmd_new_game, ("preset", "rules", "first_dealer", "seed")),
    "deal": (ProtocolSession.cmd_deal, ("hands", "kitty", "pattern", "dealer", "seed")),
    "legal": (ProtocolSession.cmd_legal, ()),
    "apply": (ProtocolSession.cmd_apply, ("action", "seat")),
    "view": (ProtocolSession.cmd_view, ("seat",)),
    "state": (ProtocolSession.cmd_state, ()),
    "bot": (ProtocolSession.cmd_bot, ("level", "seat", "bot_seed", "apply")),
    "hint": (ProtocolSession.cmd_hint, ("seat", "budget")),
    "record": (ProtocolSession.cmd_record, ("format", "public")),
    "load": (ProtocolSession.cmd_load, ("record", "seed")),
    "undo": (ProtocolSession.cmd_undo, ("steps",)),
    "quit": (ProtocolSession.cmd_quit, ()),
}


def command_names() -> list[str]:
    """The protocol's commands, in documentation order."""
    return list(_COMMANDS)


def _derived_int(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def _replayed(record: GameRecord) -> list[Entry]:
    """Every state of a record that replays, oldest first (for ``undo`` after ``load``)."""
    game = GameState(record.rules, record.hands[0].dealer if record.hands else 0)
    seeds: tuple[str | None, ...] = ()
    stack: list[Entry] = [(game, seeds)]
    for hand in record.hands:
        game = game.deal(hand.deal)
        seeds = (*seeds, hand.seed)
        stack.append((game, seeds))
        for _, action in hand.actions:
            game = game.apply(action)
            stack.append((game, seeds))
    return stack
