"""Pieces every wire model uses: the error answer, names, enums, and reading JSON safely."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Any, ClassVar, TypeVar

import msgspec
from msgspec import Meta, Struct

from ...bots import LEVELS
from ...errors import DomainError
from ...rules import PRESETS

REF = "#/components/schemas/{name}"
"""Where the generated documents keep the models' schemas."""

MAX_DEPTH = 16
"""JSON nested deeper than this is refused (no request or message needs more than 4)."""


class BadRequest(DomainError):
    """A body or message that does not fit its model; the message says why, in words."""

    code = "bad_message"


class ErrorAnswer(Struct, omit_defaults=True):
    """Every refusal: ``{"error": message, "code": code}`` with a 4xx or 5xx status."""

    error: str
    """What was wrong, for people."""
    code: str = ""
    """A short stable word for programs (``bad_message``, ``not_found`` ...)."""
    table: str | None = None
    """With ``already_playing``: the table the account is playing at."""
    retry_after: int | None = None
    """With ``rate_limited``: whole seconds to wait (also the Retry-After header)."""


def ref(name: str) -> dict[str, Any]:
    """A JSON-schema reference to the component ``name``."""
    return {"$ref": REF.format(name=name)}


def levels() -> list[str]:
    """The computer levels the bots package offers, weakest first."""
    return list(LEVELS)


def preset_names() -> list[str]:
    """The rules presets."""
    return list(PRESETS)


Level = Annotated[str, Meta(extra_json_schema={"enum": levels()},
                            description="A computer player's level.")]
"""A computer level: one of :data:`euchre.bots.LEVELS` (case and spaces are forgiven)."""

PresetName = Annotated[str, Meta(extra_json_schema={"enum": preset_names()},
                                 description="A rules preset (GET /api/presets).")]
"""A rules preset's name."""

Seat = Annotated[int, Meta(ge=0, le=3, description="0 South, 1 West, 2 North, 3 East.")]
"""A seat number."""

RuleChanges = Annotated[dict[str, Any], Meta(
    description="Rule changes by name (GET /api/presets lists names and allowed values).")]
"""Changes to a preset, by rule name."""


def level_refusal(field: str) -> Callable[[Any], str]:
    """The refusal of a value of ``field`` that is not a computer level."""
    return lambda value: f"{field} must be one of {', '.join(LEVELS)}, not {value!r}"


def preset_refusal(value: Any) -> str:
    """The refusal of a value that names no preset."""
    return f"unknown preset {value!r}: choose one of {', '.join(PRESETS)}"


def level_of(field: str, value: str) -> str:
    """``value`` as a known level (case and spaces forgiven), else a refusal naming ``field``."""
    level = value.strip().lower()
    if level not in LEVELS:
        raise ValueError(level_refusal(field)(value))
    return level


def preset_of(value: str) -> str:
    """``value`` if it names a preset, else a refusal."""
    if value not in PRESETS:
        raise ValueError(preset_refusal(value))
    return value


class Request(Struct, forbid_unknown_fields=True, kw_only=True):
    """A request body: unknown fields are refused, each field's refusal is in words."""

    refusals: ClassVar[dict[str, str | Callable[[Any], str]]] = {}
    """Field -> the refusal when the field has the wrong type or range (``{value!r}``)."""
    what: ClassVar[str] = "this request"
    """How the unknown-field refusal names the request."""
    refused_as: ClassVar[str] = "bad_message"
    """The code of a refusal of this body (signing in refuses as ``wrong_credentials``)."""

    @classmethod
    def unknown_field(cls, name: str) -> str:
        """The refusal of a field the model does not have."""
        fields = ", ".join(f for f in cls.__struct_fields__ if f != "kind")
        return f"unknown field {name!r}: {cls.what} takes {fields}"


T = TypeVar("T")

_UNKNOWN = re.compile(r"unknown field `(.+?)`")
_AT = re.compile(r" - at `\$\.?([A-Za-z_]\w*)?")


def refusal_of(model: type[Any], data: Any, error: msgspec.ValidationError) -> str:
    """The words for a validation error: the field's own refusal where it has one."""
    text = str(error)
    unknown = _UNKNOWN.search(text)
    if unknown and hasattr(model, "unknown_field"):
        message: str = model.unknown_field(unknown.group(1))
        return message
    at = _AT.search(text)
    field = at.group(1) if at else None
    refusals = getattr(model, "refusals", {})
    if field and field in refusals:
        value = data.get(field) if isinstance(data, dict) else None
        template = refusals[field]
        return str(template(value) if callable(template) else template.format(value=value))
    missing = re.search(r"missing required field `(.+?)`", text)
    if missing and missing.group(1) in refusals:
        template = refusals[missing.group(1)]
        return str(template(None) if callable(template) else template.format(value=None))
    return text


def depth(value: Any, limit: int = MAX_DEPTH) -> int:
    """How deeply ``value`` nests (stops counting past ``limit``)."""
    if limit < 0:
        return 1
    if isinstance(value, dict):
        return 1 + max((depth(v, limit - 1) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((depth(v, limit - 1) for v in value), default=0)
    return 0


def load_json(raw: bytes | str, *, what: str, not_json: str) -> Any:
    """Parse JSON text; refuse what is not JSON or nests deeper than :data:`MAX_DEPTH`."""
    try:
        data = msgspec.json.decode(raw)
    except RecursionError:
        raise BadRequest(f"{what} is nested too deeply (at most {MAX_DEPTH} levels)") from None
    except (msgspec.DecodeError, UnicodeDecodeError):
        raise BadRequest(not_json) from None
    if depth(data) > MAX_DEPTH:
        raise BadRequest(f"{what} is nested too deeply (at most {MAX_DEPTH} levels)")
    return data


def convert(data: Any, model: type[T], *, what: str = "the request body") -> T:
    """``data`` (parsed JSON) as ``model``; refuses with the field's words."""
    if not isinstance(data, dict):
        raise BadRequest(f"{what} must be a JSON object")
    try:
        return msgspec.convert(data, model)
    except msgspec.ValidationError as e:
        refusal = BadRequest(refusal_of(model, data, e))
        refusal.code = getattr(model, "refused_as", refusal.code)
        raise refusal from None
