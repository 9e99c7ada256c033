"""Log lines as JSON (``euchre serve --json-logs``), with the table id and request id."""

from __future__ import annotations

import json
import logging
import time

from ...table.actor.logcontext import TABLE_ID
from ..core.middleware import REQUEST_ID


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, table and request ids."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as a JSON line."""
        line: dict[str, object] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        table_id = TABLE_ID.get()
        if table_id:
            line["table_id"] = table_id
        request_id = REQUEST_ID.get()
        if request_id:
            line["request_id"] = request_id
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def configure(level: str = "info", *, json_lines: bool = False) -> None:
    """Send the root logger's lines to stderr, as JSON lines or as plain text."""
    handler = logging.StreamHandler()
    if json_lines:
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(levelname)s:%(name)s:%(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())


def uvicorn_log_config(json_lines: bool) -> dict[str, object] | None:
    """uvicorn's logging config: its loggers through the root (and its format) when JSON."""
    if not json_lines:
        return None
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "loggers": {name: {"handlers": [], "propagate": True}
                    for name in ("uvicorn", "uvicorn.error", "uvicorn.access")},
    }
