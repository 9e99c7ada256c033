"""Record every HTTP answer and socket message an app sends, and validate them against the
app's own ``/openapi.json`` and ``/asyncapi.json``."""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

import jsonschema
from starlette.testclient import WebSocketTestSession
from starlette.types import ASGIApp, Message, Receive, Scope, Send


@dataclass
class Sent:
    """What an app sent: HTTP answers (method, path, status, media type, body) and socket
    messages."""

    http: list[tuple[str, str, int, str, bytes]] = field(default_factory=list)
    socket: list[str] = field(default_factory=list)


class Recording:
    """An ASGI wrapper that keeps a copy of everything the app sends."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.sent = Sent()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            async def send_ws(message: Message) -> None:
                if message["type"] == "websocket.send" and message.get("text") is not None:
                    self.sent.socket.append(message["text"])
                await send(message)

            await self.app(scope, receive, send_ws)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start: dict[str, Any] = {}
        body: list[bytes] = []

        async def send_http(message: Message) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
            elif message["type"] == "http.response.body":
                body.append(message.get("body", b""))
                if not message.get("more_body"):
                    headers = {k.decode().lower(): v.decode() for k, v in start["headers"]}
                    media = headers.get("content-type", "").split(";")[0]
                    self.sent.http.append((scope["method"], scope["path"], start["status"],
                                           media, b"".join(body)))
            await send(message)

        await self.app(scope, receive, send_http)


def _validator(document: dict[str, Any], schema: dict[str, Any]) -> Any:
    root = {**schema, "components": document["components"]}
    return jsonschema.Draft202012Validator(root)


def _operation(openapi: dict[str, Any], method: str, path: str) -> dict[str, Any] | None:
    for template, ops in openapi["paths"].items():
        pattern = "^" + re.sub(r"\\{[^}]+\\}", "[^/]+", re.escape(template)) + "$"
        if re.match(pattern, path) and method.lower() in ops:
            op: dict[str, Any] = ops[method.lower()]
            return op
    return None


def validate_http(openapi: dict[str, Any], sent: Sent) -> int:
    """Validate every JSON answer against its operation's documented answer; returns how
    many were checked. An answer with a status the document does not list fails."""
    checked = 0
    for method, path, status, media, body in sent.http:
        if media != "application/json" or path in ("/openapi.json", "/asyncapi.json"):
            continue
        op = _operation(openapi, method, path)
        if op is None:  # not an API route: it must still be a JSON error answer
            error = {"$ref": "#/components/schemas/ErrorAnswer"}
            _validator(openapi, error).validate(json.loads(body))
            assert status >= 400, (method, path, status)
            checked += 1
            continue
        answer = op["responses"].get(str(status))
        assert answer is not None, f"{method} {path} answered {status}, not documented"
        schema = answer["content"]["application/json"]["schema"]
        _validator(openapi, schema).validate(json.loads(body))
        checked += 1
    return checked


def validate_socket(asyncapi: dict[str, Any], sent: Sent) -> int:
    """Validate every socket message against the server's messages; returns the count."""
    refs = [m["payload"] for name, m in asyncapi["components"]["messages"].items()
            if {"$ref": f"#/channels/table/messages/{name}"}
            in asyncapi["operations"]["sendToClient"]["messages"]]
    validator = _validator(asyncapi, {"oneOf": refs})
    for text in sent.socket:
        validator.validate(json.loads(text))
    return len(sent.socket)


def play_to_the_end(ws: WebSocketTestSession, seat: int = 0, seed: int = 1,
                    refusals: frozenset[str] = frozenset()) -> dict[str, Any]:
    """Play ``seat`` with random legal moves until the game is over; the last table.
    Error messages with a code in ``refusals`` (asked for by the test) are passed over."""
    rng = random.Random(seed)
    table: dict[str, Any] = {}
    waiting = False
    while True:
        m = ws.receive_json()
        assert m["type"] != "error" or m["code"] in refusals, m
        if "table" in m:
            table = m["table"]
        if m["type"] == "event" and m["event"]["kind"] == "action" \
                and m["event"]["seat"] == seat:
            waiting = False
        if table.get("game_over") and m.get("version") == table["version"]:
            return table
        view = table.get("view")
        if m["type"] == "event" and not waiting and m["version"] == table["version"] \
                and view and view["legal"]:
            ws.send_json({"type": "action", "action": rng.choice(view["legal"])})
            waiting = True
