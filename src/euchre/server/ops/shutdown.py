"""How ``euchre serve`` ends on SIGTERM or Ctrl-C: promptly, cleanly, with exit code 0.

uvicorn shuts down gracefully on SIGTERM (it stops accepting, closes sockets, runs the
app's shutdown, which stops every table and writes what is unsaved), waits at most
:data:`GRACE_SECONDS` for requests still running, then raises the signal again with the
handler that was there before it started. :func:`exit_zero_on_sigterm` installs that
handler: a clean exit with code 0, as a service manager expects from a requested stop.
"""

from __future__ import annotations

import signal
from types import FrameType

GRACE_SECONDS = 5
"""Seconds uvicorn waits for requests and sockets still open before it cuts them off."""


def _exit_zero(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(0)


def exit_zero_on_sigterm() -> None:
    """Make SIGTERM end the process with exit code 0 (call before ``uvicorn.run``)."""
    signal.signal(signal.SIGTERM, _exit_zero)
