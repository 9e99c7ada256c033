"""Test clients of the table socket fold its messages as the browser does.

Every test that reads a table socket through Starlette's test client
(``WebSocketTestSession.receive_json``) or a ``websockets`` client (``recv``: the text is
decoded, folded and encoded again) reads it through :func:`folded`: a snapshot or event
comes back as sent, plus ``"table"``, the table its socket has folded so far
(:class:`~euchre.table.actor.delta.Folder`, the same steps as ``static/js/connection.js``), the
way the browser's page sees it. The message itself is unchanged otherwise (a scan for
hidden cards reads its ``changes`` and ``you`` as sent, and the folded table too). A socket
that rejoined with ``since`` and holds no table yet gets no ``"table"`` on its events.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

from euchre.table.actor.delta import Folder

_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder().decode


def json_copy(value: Any) -> Any:
    """A deep copy of JSON data (a folded table: dicts with string keys, lists, strings,
    numbers, booleans, None), through msgspec's JSON: about ten times as fast as
    ``copy.deepcopy``, which was most of the time of the tests that keep every table."""
    return _decode(_encode(value))


def folded(folder: Folder, message: dict[str, Any]) -> dict[str, Any]:
    """``message`` folded into ``folder``, with the table after it as ``"table"``."""
    kind = message.get("type")
    if kind == "snapshot" or (kind == "event" and folder.table is not None
                              and "version" in message):
        folder.receive(message)
        return {**message, "table": json_copy(folder.table)}
    return message


def folded_text(owner: Any, text: Any) -> Any:
    """A received text folded by ``owner``'s folder (made on first use), re-encoded: what
    a test reading raw texts (the ``websockets`` clients) decodes."""
    if not isinstance(text, str) or (
            '"type":"snapshot"' not in text and '"type":"event"' not in text):
        return text
    message = json.loads(text)
    if not isinstance(message, dict):
        return text
    folder = owner.__dict__.setdefault("_folder", Folder())
    return json.dumps(folded(folder, message))


def held_table(owner: Any) -> dict[str, Any] | None:
    """The table a client socket ``owner`` has folded so far (None before a snapshot)."""
    folder = owner.__dict__.get("_folder")
    return folder.table if folder is not None else None


def carry_table(old: Any, new: Any) -> int | None:
    """Let the client socket ``new`` fold onto the table ``old`` folded, as the page keeps
    its table across a reconnect; the version it holds (what to rejoin ``since``), or
    None if it holds none (rejoin without ``since``: events alone would fold onto nothing)."""
    folder = old.__dict__.get("_folder")
    if folder is None or folder.table is None:
        return None
    new.__dict__["_folder"] = folder
    version: int = folder.table["version"]
    return version


def install() -> None:
    """Make the test clients' table sockets fold (once per test session): Starlette's
    ``WebSocketTestSession.receive_json`` and the ``websockets`` clients' ``recv``."""
    from starlette.testclient import WebSocketTestSession
    from websockets.asyncio.connection import Connection as AsyncConnection
    from websockets.sync.connection import Connection as SyncConnection

    if getattr(WebSocketTestSession, "_folds", False):
        return
    plain = WebSocketTestSession.receive_json

    def receive_json(self: WebSocketTestSession, mode: Any = "text") -> Any:
        message = plain(self, mode)
        if not isinstance(message, dict):
            return message
        folder = self.__dict__.setdefault("_folder", Folder())
        return folded(folder, message)

    WebSocketTestSession.receive_json = receive_json  # type: ignore[method-assign]
    WebSocketTestSession._folds = True  # type: ignore[attr-defined]

    sync_recv = SyncConnection.recv

    def recv(self: SyncConnection, *args: Any, **kwargs: Any) -> Any:
        return folded_text(self, sync_recv(self, *args, **kwargs))

    SyncConnection.recv = recv  # type: ignore[method-assign]
    async_recv = AsyncConnection.recv

    async def recv_async(self: AsyncConnection, *args: Any, **kwargs: Any) -> Any:
        return folded_text(self, await async_recv(self, *args, **kwargs))

    AsyncConnection.recv = recv_async  # type: ignore[method-assign]
