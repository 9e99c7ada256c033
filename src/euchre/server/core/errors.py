"""Errors at the edge: every refusal is JSON ``{"error", "code"}`` with a 4xx or 5xx status.

The domain layers raise :class:`~euchre.errors.DomainError` subclasses with a stable
``code`` and no HTTP status; :data:`STATUS` maps codes to statuses here, and the exception
handlers :func:`handlers` returns answer every error a route can raise, Starlette's own
404/405 included, so nothing is ever plain text or a dropped socket. (One exception: a
browser asking for a page that does not exist gets the site's 404 page in HTML.)
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Awaitable, Callable, Mapping
from types import MappingProxyType
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from ...errors import DomainError
from ..wire.common import ErrorAnswer
from .encoder import json_answer

log = logging.getLogger(__name__)

STATUS: Mapping[str, int] = MappingProxyType({
    "bad_request": 400,
    "bad_message": 400,
    "bad_username": 400,
    "bad_password": 400,
    "bad_stake": 400,
    "unknown_kind": 400,
    "not_enabled": 400,
    "illegal": 400,
    "no_token": 401,
    "not_signed_in": 401,
    "wrong_credentials": 401,
    "bad_bot_token": 401,
    "csrf": 403,
    "forbidden": 403,
    "bad_token": 403,
    "other_site": 403,
    "not_found": 404,
    "unknown_account": 404,
    "no_table": 404,
    "no_game": 404,
    "no_person": 404,
    "not_available": 404,
    "method_not_allowed": 405,
    "conflict": 409,
    "username_taken": 409,
    "insufficient_coins": 409,
    "idempotency_conflict": 409,
    "already_playing": 409,
    "not_active": 409,
    "game_ended": 409,
    "top_up_refused": 409,
    "still_playing": 409,
    "too_many_seats": 409,
    "same_origin": 409,
    "too_large": 413,
    "unsupported_media": 415,
    "rate_limited": 429,
    "internal": 500,
    "unavailable": 503,
    "not_stored": 503,
    "limits_unavailable": 503,
    "not_ready": 503,
})
"""Each refusal code's HTTP status (a code not listed answers 400)."""


class ApiError(DomainError):
    """A refusal made at the edge itself (a bad body, a missing token), with its code."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        """The refusal: ``code`` from :data:`STATUS`, the message for people."""
        super().__init__(message)
        self.code = code
        self.extra = extra
        """Further fields of the answer (``table`` for ``already_playing``)."""


def status_of(code: str) -> int:
    """The HTTP status of a refusal code."""
    return STATUS.get(code, 400)


def error_answer(code: str, message: str, headers: Mapping[str, str] | None = None,
                 **extra: Any) -> Response:
    """The JSON answer to a refusal."""
    body = ErrorAnswer(error=message, code=code, table=extra.get("table"),
                       retry_after=extra.get("retry_after"))
    return json_answer(body, status_of(code), headers=headers)


async def _domain_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, DomainError)
    extra: dict[str, Any] = dict(getattr(exc, "extra", {}))
    if getattr(exc, "table_id", None):
        extra["table"] = exc.table_id  # type: ignore[attr-defined]
    headers = {}
    retry_after = getattr(exc, "retry_after", None)
    if retry_after is not None:
        headers["Retry-After"] = str(retry_after)
        extra["retry_after"] = retry_after
    return error_answer(exc.code, exc.message, headers, **extra)


_HTTP_CODES = MappingProxyType({404: "not_found", 405: "method_not_allowed", 413: "too_large"})


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 404:  # a browser asking for a page that is not there: a page
        from .pages import not_found_page

        page = not_found_page(request)
        if page is not None:
            return page
    code = _HTTP_CODES.get(exc.status_code, "bad_request")
    message = {404: f"nothing at {request.url.path}",
               405: f"{request.method} is not allowed on {request.url.path}"}.get(
        exc.status_code, str(exc.detail))
    answer = json_answer(ErrorAnswer(error=message, code=code), exc.status_code,
                         headers=exc.headers)
    return answer


BUSY_RETRY_AFTER = 2
"""Seconds a request refused because the database was busy is told to wait."""


def is_database_busy(exc: BaseException) -> bool:
    """Whether ``exc`` (or what it wraps) is SQLite's lock held too long by another writer
    (another process, ``busy_timeout`` spent): a moment's state, not a bug."""
    seen: set[int] = set()
    todo: list[BaseException | None] = [exc]
    while todo:
        e = todo.pop()
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        if isinstance(e, sqlite3.OperationalError) and (
                "database is locked" in str(e) or "database is busy" in str(e)):
            return True
        orig = getattr(e, "orig", None)  # SQLAlchemy's wrapper of the driver's error
        todo += [orig if isinstance(orig, BaseException) else None, e.__cause__,
                 e.__context__]
    return False


async def _server_error(request: Request, exc: Exception) -> Response:
    if is_database_busy(exc):
        # One line, no traceback: the request changed nothing and may simply be sent again.
        log.warning("%s %s: the database is busy (locked by another writer): answered 503",
                    request.method, request.url.path)
        return error_answer("unavailable", "the database is busy: try again in a moment",
                            {"Retry-After": str(BUSY_RETRY_AFTER)},
                            retry_after=BUSY_RETRY_AFTER)
    log.exception("error answering %s %s", request.method, request.url.path, exc_info=exc)
    return error_answer("internal", "the server could not do that (a server error)")


Handler = Callable[[Request, Exception], Awaitable[Response]]


def handlers() -> dict[Any, Handler]:
    """The app's exception handlers: domain refusals, Starlette's HTTP errors, bugs."""
    return {DomainError: _domain_error, HTTPException: _http_error, Exception: _server_error}
