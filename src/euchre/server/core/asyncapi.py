"""``/asyncapi.json``: the sockets' protocol (AsyncAPI 3.0), generated from the models.

Two operations on the table channel, ``/ws/tables/{table_id}``: the client sends
:data:`~euchre.server.wire.socket.CLIENT_MESSAGES`, the server sends
:data:`~euchre.server.wire.socket.SERVER_MESSAGES`; and the same two for every socket an
extension adds (:class:`~euchre.server.core.registry.SocketChannel`, e.g. the lobby). Schemas
come from :func:`msgspec.json.schema_components`, as for ``/openapi.json``.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ... import __version__
from ..wire.common import REF
from ..wire.socket import CLIENT_MESSAGES, EVENTS, MAX_MESSAGE_BYTES, SERVER_MESSAGES
from ..wire.tables import TableSnapshot
from .registry import Registry, SocketChannel

CLOSE_CODES = (
    "Close codes of its own: 4401 the seat's bot token was revoked; 4403 a page of another "
    "origin opened it; 4408 no join within 5 seconds; 4426 its join or watch did not say "
    "\"protocol\": 2 (after one error, code \"old_protocol\": reload the page); 4429 a "
    f"cap or a rate was reached. 1009: a message over 64 KiB (one over {MAX_MESSAGE_BYTES} "
    "bytes is answered with an error, the socket kept). 1012: the table stopped "
    "here (reconnect with since); 1013: the client read too slowly (reconnect with since). "
    "docs/protocol.md has each.")
"""The table channel's close codes, as ``/asyncapi.json`` describes them."""


def _name(model: type[Any]) -> str:
    return model.__name__


def _message(m: type[Any]) -> dict[str, Any]:
    return {
        "name": m.__struct_config__.tag,
        "title": _name(m),
        "summary": (m.__doc__ or "").strip().splitlines()[0],
        "contentType": "application/json",
        "payload": {"$ref": REF.format(name=_name(m))},
    }


def _channel(channel: SocketChannel, messages: dict[str, Any], channels: dict[str, Any],
             operations: dict[str, Any]) -> None:
    """Add an extension's socket: its channel, messages and two operations."""
    for m in (*channel.client_messages, *channel.server_messages):
        messages[_name(m)] = _message(m)
    channels[channel.name] = {
        "address": channel.path,
        "description": channel.description,
        **({"parameters": {p: {"description": d} for p, d in channel.parameters.items()}}
           if channel.parameters else {}),
        "messages": {_name(m): {"$ref": f"#/components/messages/{_name(m)}"}
                     for m in (*channel.client_messages, *channel.server_messages)},
    }
    for action, key, models in (("receive", "FromClient", channel.client_messages),
                                ("send", "ToClient", channel.server_messages)):
        if models:
            operations[f"{channel.name}{key}"] = {
                "action": action,
                "channel": {"$ref": f"#/channels/{channel.name}"},
                "messages": [{"$ref": f"#/channels/{channel.name}/messages/{_name(m)}"}
                             for m in models],
            }


def asyncapi_document(registry: Registry[Any] | None = None) -> dict[str, Any]:
    """The AsyncAPI 3.0 document of the table socket and the sockets ``registry``'s
    extensions add."""
    extra = list(registry.sockets()) if registry is not None else []
    models: list[Any] = [*CLIENT_MESSAGES, *SERVER_MESSAGES, *EVENTS, TableSnapshot,
                         *(m for c in extra for m in (*c.client_messages, *c.server_messages))]
    _, components = msgspec.json.schema_components(models, ref_template=REF)
    components["TableEvent"] = {
        "description": "An event body, as the receiving seat may see it.",
        "oneOf": [{"$ref": REF.format(name=_name(e))} for e in EVENTS],
    }
    messages = {_name(m): _message(m) for m in (*CLIENT_MESSAGES, *SERVER_MESSAGES)}
    channel_messages = {n: {"$ref": f"#/components/messages/{n}"} for n in messages}
    document: dict[str, Any] = {
        "asyncapi": "3.0.0",
        "info": {"title": "Euchre table socket", "version": __version__,
                 "description": "One WebSocket per seat and table (protocol 2): join with "
                                "the seat's token and \"protocol\": 2, then send moves. "
                                "A snapshot (the whole table) comes on joining; every "
                                "change comes back as a versioned event carrying what it "
                                "changed in the public table (changes, as paths) and, to "
                                "the seat only, its own part (you: hand, legal moves), "
                                "which the client folds into its table. See "
                                "docs/protocol.md."},
        "defaultContentType": "application/json",
        "channels": {
            "table": {
                "address": "/ws/tables/{table_id}",
                "description": CLOSE_CODES,
                "parameters": {"table_id": {"description": "The table id."}},
                "messages": channel_messages,
            }
        },
        "operations": {
            "receiveFromClient": {
                "action": "receive",
                "channel": {"$ref": "#/channels/table"},
                "summary": "What a client sends (the server receives).",
                "messages": [{"$ref": f"#/channels/table/messages/{_name(m)}"}
                             for m in CLIENT_MESSAGES],
            },
            "sendToClient": {
                "action": "send",
                "channel": {"$ref": "#/channels/table"},
                "summary": "What the server sends.",
                "messages": [{"$ref": f"#/channels/table/messages/{_name(m)}"}
                             for m in SERVER_MESSAGES],
            },
        },
        "components": {"schemas": dict(sorted(components.items())), "messages": messages},
    }
    for channel in extra:
        _channel(channel, messages, document["channels"], document["operations"])
    return document
