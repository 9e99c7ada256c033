"""Worker processes end with their parent, however it ends.

``euchre serve --workers N`` runs uvicorn's supervisor, which stops its workers when it is
told to (SIGTERM, Ctrl-C, a worker that fails to start) but cannot when it is killed
(SIGKILL, the OOM killer): its workers would serve on, holding the port and their tables'
leases. So each worker asks the kernel for SIGTERM when its parent dies (Linux's
``PR_SET_PDEATHSIG``) and, elsewhere, a thread watches the parent's pid. SIGTERM is the
worker's graceful shutdown: its tables are saved and their leases given up.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
import threading
import time

PARENT_PID_ENV = "EUCHRE_PARENT_PID"
"""Environment variable: the pid of the ``euchre serve`` that started the workers."""

PR_SET_PDEATHSIG = 1
"""prctl(2)'s option: the signal this process gets when its parent dies."""

WATCH_EVERY = 1.0
"""Seconds between looks at the parent's pid where the kernel cannot tell (not Linux)."""


def mark_parent(environ: dict[str, str] | os._Environ[str] = os.environ) -> None:
    """Name this process as the workers' parent, in the environment they inherit."""
    environ[PARENT_PID_ENV] = str(os.getpid())


def end_with_parent(environ: dict[str, str] | os._Environ[str] = os.environ) -> None:
    """In a worker: get SIGTERM when the parent named by :func:`mark_parent` ends (at once,
    if it ended before this was called). Does nothing in a process without one."""
    wanted = environ.get(PARENT_PID_ENV)
    if not wanted:
        return
    parent = int(wanted)
    if sys.platform.startswith("linux") and _pdeathsig(signal.SIGTERM):
        pass  # the kernel tells us from now on
    else:
        threading.Thread(target=_watch, args=(parent,), name="euchre-parent-watch",
                         daemon=True).start()
    if os.getppid() != parent:  # it died before we asked: nobody would tell us
        os.kill(os.getpid(), signal.SIGTERM)


def _pdeathsig(sig: int) -> bool:
    """Ask Linux for ``sig`` when the parent dies; whether it agreed."""
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    return bool(libc.prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0) == 0)


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_EVERY)
    os.kill(os.getpid(), signal.SIGTERM)
