"""The one JSON encoder: every body and socket message the server sends goes through it.

Built on msgspec: it encodes the wire models (:mod:`euchre.server.wire`) and the plain
JSON data the table layer renders, and :class:`msgspec.Raw` lets a snapshot encoded once
be sent in several messages without being encoded again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec
from starlette.responses import Response

_ENCODER = msgspec.json.Encoder()  # stateless; shared so each call skips building one


def encode(value: Any) -> bytes:
    """The compact JSON of a model or of plain JSON data."""
    return _ENCODER.encode(value)


def encode_text(value: Any) -> str:
    """:func:`encode` as text (for a socket's text frames)."""
    return _ENCODER.encode(value).decode()


def raw(value: Any) -> msgspec.Raw:
    """``value`` encoded once, to embed as is in later messages."""
    return msgspec.Raw(_ENCODER.encode(value))


class JsonAnswer(Response):
    """An HTTP answer whose body went through the encoder."""

    media_type = "application/json"


def json_answer(value: Any, status: int = 200, headers: Mapping[str, str] | None = None
                ) -> JsonAnswer:
    """An HTTP answer with ``value`` as its JSON body."""
    return JsonAnswer(encode(value), status_code=status, headers=headers)
