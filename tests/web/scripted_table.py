"""A stand-in for the table socket, answered inside the browser (Playwright's
``route_web_socket``): it keeps a real engine hand, sends the seat's real view (with
``legal``), applies the client's moves with the engine (a move the engine refuses is kept in
``errors``), moves the other seats by their first legal action, and sends the events the
server sends (an action, then a trick when one is completed, in one batch), in protocol 2:
the first event of a batch with what it changed in the TABLE the page holds.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec
from playwright.sync_api import Page, WebSocketRoute

from euchre.cards import card_text
from euchre.hand import HandState
from euchre.table.actor.delta import event_changes, you_changes, you_of
from euchre.table.actor.snapshot import view_json

TABLE_ID = "scripted"
ME = 0


class ScriptedTable:
    """One hand of a table, played through a routed WebSocket."""

    def __init__(
        self,
        state: HandState,
        preset: str,
        bots_order: bool = False,
        drop_first: bool = False,
        clock: bool = False,
        timed_out_first: bool = False,
        names: list[str] | None = None,
        kind: str = "practice",
    ) -> None:
        self.state = state
        self.names = names
        self.kind = kind
        self.overlay: dict[str, Any] = {}
        """Fields laid over every TABLE sent (a summary, the game's end, an away seat)."""
        self.ws: WebSocketRoute | None = None
        self.hints: list[dict[str, Any]] | None = None
        """The hint answer to send (None: stand-in estimates, best first)."""
        self.continued: list[int] = []
        """The hands whose result the page said it has read (``continue`` messages)."""
        self.said: list[str] = []
        """The quick messages the page sent (``say``), by id."""
        self.preset = preset
        self.bots_order = bots_order
        self.drop_first = drop_first
        self.clock = clock
        self.timed_out_first = timed_out_first
        self.joins: list[int | None] = []
        self.version = 1
        self.received: list[str] = []
        self.errors: list[str] = []
        self.sent: dict[str, Any] | None = None
        """The public TABLE the page holds (the last snapshot, the events since folded in)."""
        self.you: dict[str, Any] | None = None
        """The seat's own part of it the page holds (None: a spectator)."""

    def seats(self) -> list[dict[str, Any]]:
        if self.names:  # people, as at an online table
            return [{"seat": s, "name": n, "kind": "human", "level": None, "connected": True}
                    for s, n in enumerate(self.names)]
        return [
            {"seat": s, "name": n, "kind": k, "level": lv, "connected": True}
            for s, n, k, lv in [
                (0, "You", "human", None),
                (1, "West", "bot", "easy"),
                (2, "North", "bot", "easy"),
                (3, "East", "bot", "easy"),
            ]
        ]

    def table(self, seat: int | None = ME) -> dict[str, Any]:
        state = self.state
        rules = state.rules
        view = (state.view(ME).to_json() if seat is not None
                else msgspec.to_builtins(view_json(state.view(state.dealer), public=True)))
        return {
            "id": TABLE_ID,
            "kind": self.kind,
            "version": self.version,
            "seat": seat,
            "seats": self.seats(),
            "preset": self.preset,
            "rules": rules.to_dict(),
            "rules_text": rules.describe(),
            "score": [0, 0],
            "hand_number": 1,
            "dealer": state.dealer,
            "to_act": state.to_act,
            "commitment": None,
            "game_over": False,
            "winner": None,
            "view": view,
            "clock": {"seat": state.to_act, "deadline_ms_left": 90_000} if self.clock else None,
            "summary": None,
            **self.overlay,
        }

    def push(self, **fields: Any) -> None:
        """Lay ``fields`` over the TABLE from now on and send it as a new snapshot."""
        self.overlay.update(fields)
        self.version += 1
        assert self.ws is not None, "the page has not joined yet"
        self.snapshot(self.ws, self.watcher)

    def snapshot(self, ws: WebSocketRoute, seat: int | None) -> None:
        """Send the TABLE whole (with the seat's own part, as the server does)."""
        self.sent = self.table(None)
        message: dict[str, Any] = {"type": "snapshot", "version": self.version,
                                   "table": self.table(seat)}
        if seat is not None:
            self.you = message["you"] = you_of(seat, message["table"], self.sent)
        ws.send(json.dumps(message))

    def send_batch(self, ws: WebSocketRoute, batch: list[dict[str, Any]]) -> None:
        """Send a move's events as the server does (protocol 2): the first with what changed
        of the seat's own part (``you``), the last with what the public TABLE changed beyond
        what the events say themselves."""
        first = self.version + 1
        self.version += len(batch)
        public = self.table(None)
        seen = [public_event(e) for e in batch]
        delta = event_changes(self.sent, public, seen)
        self.sent = public
        mine: dict[str, Any] = {}
        if self.watcher is not None:
            you = you_of(self.watcher, self.table(self.watcher), public)
            mine = you_changes(self.you, you)
            self.you = you
        for i, e in enumerate(batch):
            message: dict[str, Any] = {"type": "event", "version": first + i, "event": e}
            if i == 0 and mine:
                message["you"] = mine
            if i + 1 == len(batch) and delta:
                message["changes"] = delta
            ws.send(json.dumps(message))

    def send_event(self, event: dict[str, Any]) -> None:
        """Send one event (with what it changed in the TABLE as it stands)."""
        assert self.ws is not None, "the page has not joined yet"
        self.send_batch(self.ws, [event])

    def deal_next(self, state: HandState, hand_number: int) -> None:
        """Deal the next hand (its ``deal`` event), the result of the last one still kept."""
        self.state = state
        self.overlay["hand_number"] = hand_number
        self.send_event({"kind": "deal", "dealer": state.dealer, "hand_number": hand_number})

    watcher: int | None = ME
    """ME for the seat's page; None once a spectator watches (see :func:`open_watching`)."""

    def on_message(self, ws: WebSocketRoute, raw: str | bytes) -> None:
        message = json.loads(raw)
        self.ws = ws
        if message["type"] == "watch":
            self.watcher = None
            self.snapshot(ws, None)
            return
        if message["type"] == "continue":
            self.continued.append(message["hand_number"])
            return
        if message["type"] == "say":
            self.said.append(message["message"])  # the test answers (an event, a refusal)
            return
        if message["type"] == "join":
            since = message.get("since")
            self.joins.append(since)
            ws.send(
                json.dumps(
                    {"type": "joined", "table_id": TABLE_ID, "seat": ME, "version": self.version}
                )
            )
            if since != self.version:
                self.snapshot(ws, ME)
            if self.drop_first and len(self.joins) == 1:
                ws.close()  # the connection drops before anything else happens
                return
            self.run_bots(ws)
            if self.timed_out_first and self.state.to_act == ME:
                # Our clock runs out at once: the table plays our first legal move for us.
                self.timed_out_first = False
                self.act(ws, ME, str(self.state.legal_actions()[0]), timed_out=True)
        elif message["type"] == "hint":
            # Stand-in estimates, best first (the real analysis is tested with the server).
            legal = [str(a) for a in self.state.legal_actions()]
            hints = self.hints or [{"action": a, "text": "", "expected_points": 1.0 - 0.25 * i,
                                    "make_chance": None} for i, a in enumerate(legal)]
            ws.send(json.dumps({"type": "hint", "hints": hints, "version": self.version}))
            return
        elif message["type"] == "action":
            self.received.append(message["action"])
            if not self.state.is_legal(message["action"]) or self.state.to_act != ME:
                self.errors.append(message["action"])
                ws.send(json.dumps({"type": "error", "code": "illegal", "message": "not legal"}))
                return
            self.act(ws, ME, message["action"])
        self.run_bots(ws)

    def run_bots(self, ws: WebSocketRoute) -> None:
        """Let the other seats move until it is our turn."""
        while not self.state.is_over and self.state.to_act not in (ME, None):
            self.act(ws, self.state.to_act, self.bot_move())

    def bot_move(self) -> str:
        """The other seats' move: the first legal one (or ordering up, if asked to)."""
        legal = [str(a) for a in self.state.legal_actions()]
        return "order" if self.bots_order and "order" in legal else legal[0]

    def act(self, ws: WebSocketRoute, seat: int, action: str, timed_out: bool = False) -> None:
        tricks = len(self.state.tricks)
        self.state = self.state.apply(action)
        shown = action
        if seat != ME and action.startswith(("discard ", "farmer swap ")):
            shown = "discard" if action.startswith("discard") else "farmer swap"
        event: dict[str, Any] = {"kind": "action", "seat": seat, "action": shown}
        if timed_out:
            event["timed_out"] = True
        batch = [event]
        if len(self.state.tricks) > tricks:
            leader, cards, winner = self.state.tricks[-1]
            batch.append({"kind": "trick", "leader": leader,
                          "cards": [card_text(c) for c in cards], "winner": winner})
        self.send_batch(ws, batch)


def public_event(event: dict[str, Any]) -> dict[str, Any]:
    """An event as a spectator sees it: a discard or a farmer's swap by its kind only."""
    action = event.get("action", "") if event.get("kind") == "action" else ""
    for kind in ("discard", "farmer swap"):
        if action.startswith(kind + " "):
            return {**event, "action": kind}
    return event


def open_scripted(page: Page, state: HandState, preset: str, **options: Any) -> ScriptedTable:
    """Open the table page on a scripted hand."""
    table = ScriptedTable(state, preset, **options)
    page.add_init_script(
        f"localStorage.setItem('euchre.seats', "
        f"JSON.stringify({{{json.dumps(TABLE_ID)}: {{token: 't', at: 0}}}}))"
    )
    page.route_web_socket(
        f"**/ws/tables/{TABLE_ID}",
        lambda ws: ws.on_message(lambda raw: table.on_message(ws, raw)),
    )
    page.goto(f"/table/{TABLE_ID}")
    return table


def open_watching(page: Page, state: HandState, preset: str, **options: Any) -> ScriptedTable:
    """Open the watch page (a spectator, no seat) on a scripted hand."""
    table = ScriptedTable(state, preset, **options)
    page.route(f"**/api/online/{TABLE_ID}", lambda route: route.fulfill(
        json={"id": TABLE_ID, "status": "playing", "spectators": True}))
    page.route_web_socket(
        f"**/ws/tables/{TABLE_ID}",
        lambda ws: ws.on_message(lambda raw: table.on_message(ws, raw)),
    )
    page.goto(f"/watch/{TABLE_ID}")
    return table
