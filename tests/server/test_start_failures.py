"""Every way `euchre serve` can fail to start ends the same: one line on stderr naming the
cause, nothing on stdout, a non-zero exit status, and nothing served (real processes).
And `/metrics` of a real server answers only the operator's token."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from live_server import free_port

EUCHRE = str(Path(sys.executable).parent / "euchre")
NOBODY = 65534
"""The user a read-only file is tried as when the tests run as root (root writes anyway)."""


def serve(*args: str, as_nobody: bool = False, env: dict[str, str] | None = None
          ) -> subprocess.CompletedProcess[str]:
    """`euchre serve` with ``args``, until it exits."""
    command = [EUCHRE, "serve", *args]
    if as_nobody:  # util-linux's setpriv: Python's own user= cannot reach this interpreter
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv: a read-only file cannot be tried")
        command = [setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups",
                   *command]
    return subprocess.run(command, capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})}, cwd="/tmp")


def one_line(run: subprocess.CompletedProcess[str]) -> str:
    """The one line a failed start printed (and that it failed)."""
    assert run.returncode == 1, (run.returncode, run.stderr)
    assert run.stdout == ""
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert "Traceback" not in run.stderr and "startup failed" not in run.stderr
    return lines[0]


@pytest.mark.parametrize(("url", "driver"), [
    ("mysql+aiomysql://someone:secret@127.0.0.1/euchre", "mysql+aiomysql"),
    ("sqlite:///tmp/euchre-sync-driver.db", "sqlite"),
    ("postgresql://someone:secret@127.0.0.1:5432/euchre", "postgresql"),
    ("oracle+cx_oracle://x@y/z", "oracle+cx_oracle"),
])
def test_an_unknown_database_driver_is_one_line(url: str, driver: str) -> None:
    line = one_line(serve("--port", str(free_port()), "--database-url", url))
    assert line.startswith("euchre serve: database ")
    assert f"the driver {driver!r} is not one this server speaks" in line
    assert "secret" not in line


def _read_only_database(folder: Path) -> Path:
    """A migrated SQLite file that the serving user may read but not write."""
    folder.mkdir()
    path = folder / "euchre.db"
    done = subprocess.run([EUCHRE, "db", "upgrade", "--database-url",
                           f"sqlite+aiosqlite:///{path}"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    for leftover in folder.glob("euchre.db-*"):
        leftover.unlink()
    if os.geteuid() == 0:
        shutil.chown(folder, NOBODY, NOBODY)
        shutil.chown(path, NOBODY, NOBODY)
    path.chmod(0o444)
    return path


@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A folder anyone may enter (pytest's own are the owner's only)."""
    folder = Path(tempfile.mkdtemp(prefix="euchre-start-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_a_read_only_sqlite_file_is_one_line(open_folder: Path) -> None:
    path = _read_only_database(open_folder / "db")
    before = path.read_bytes()
    url = f"sqlite+aiosqlite:///{path}"
    line = one_line(serve("--port", str(free_port()), "--database-url", url,
                          as_nobody=os.geteuid() == 0))
    assert line == (f"euchre serve: database {url}: cannot write to it: attempt to write a "
                    "readonly database")
    assert path.read_bytes() == before


def test_a_database_it_may_not_reach_is_one_line(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root, to try it as another user")
    url = f"sqlite+aiosqlite:///{tmp_path}/euchre.db"  # pytest's folders: the owner's only
    line = one_line(serve("--port", str(free_port()), "--database-url", url, as_nobody=True))
    assert line == f"euchre serve: database {url}: cannot reach it: Permission denied"


def test_a_database_it_may_not_upgrade_is_one_line(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/never-migrated.db"
    line = one_line(serve("--port", str(free_port()), "--database-url", url, "--no-upgrade"))
    assert line.startswith("euchre serve: could not start: OperationalError: no such table")


def test_workers_whose_database_cannot_be_upgraded_is_one_line() -> None:
    # --workers checks and upgrades the database once, before the workers start: a
    # PostgreSQL nobody listens for is one line too, never a traceback.
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]  # bound, never listening: refused
        url = f"postgresql+asyncpg://someone:secret@127.0.0.1:{port}/euchre"
        line = one_line(serve("--port", str(free_port()), "--workers", "2", "--database-url",
                              url, "--redis-url", "redis://127.0.0.1:1/0"))
    assert line.startswith("euchre serve: database postgresql+asyncpg://someone:***@")
    assert "cannot connect" in line and "secret" not in line


def test_a_port_in_use_is_one_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        line = one_line(serve("--port", str(port), "--database-url", "memory:"))
    assert line == f"euchre serve: cannot listen on 127.0.0.1:{port}: Address already in use"


def test_metrics_of_a_real_server_answer_only_the_operators_token(tmp_path: Path) -> None:
    from live_server import ServerProcess

    for token in (None, "operators-token"):
        port = free_port()
        server = ServerProcess(f"sqlite+aiosqlite:///{tmp_path}/m{port}.db", port,
                               env={"EUCHRE_METRICS_TOKEN": token or ""})
        server.start()
        try:
            base = f"http://127.0.0.1:{port}"
            assert httpx.get(f"{base}/healthz").status_code == 200
            anyone = httpx.get(f"{base}/metrics")
            assert anyone.status_code == (401 if token else 404)
            assert "euchre_" not in anyone.text
            if token:
                wrong = httpx.get(f"{base}/metrics", headers={"Authorization": "Bearer no"})
                assert wrong.status_code == 401
                right = httpx.get(f"{base}/metrics",
                                  headers={"Authorization": f"Bearer {token}"})
                assert right.status_code == 200 and "euchre_moves_total" in right.text
        finally:
            server.stop()


@pytest.mark.parametrize("trusted", ["*", "127.0.0.1, *"])
def test_trusting_forwarded_addresses_from_anyone_is_refused_in_one_line(trusted: str) -> None:
    """``FORWARDED_ALLOW_IPS='*'`` lets any client write its own address (issue 34, item 1):
    refused unless the operator vouches that a proxy overwrites the header."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {"FORWARDED_ALLOW_IPS": trusted, "EUCHRE_PROXY_OVERWRITES_FORWARDED": ""}
        run = serve("--port", str(port), "--database-url", "memory:", env=env)
        assert run.returncode == 2 and run.stdout == ""
        assert run.stderr.splitlines() == [
            "euchre serve: FORWARDED_ALLOW_IPS='*' lets any client choose its own address "
            "(X-Forwarded-For): trust only your proxy's address, or pass "
            "--proxy-overwrites-forwarded if only a proxy that overwrites the header can "
            "reach this port (docs/server.md, Behind a proxy)"]
        # Vouched for (the flag or its variable), it goes on to the next check: the port.
        for vouch, extra in (([], {"EUCHRE_PROXY_OVERWRITES_FORWARDED": "1"}),
                             (["--proxy-overwrites-forwarded"], {})):
            line = one_line(serve("--port", str(port), "--database-url", "memory:", *vouch,
                                  env={**env, **extra}))
            assert line.startswith(f"euchre serve: cannot listen on 127.0.0.1:{port}")
        # One proxy's address (the shipped set-up) needs no vouching.
        line = one_line(serve("--port", str(port), "--database-url", "memory:",
                              env={**env, "FORWARDED_ALLOW_IPS": "172.28.0.10"}))
        assert line.startswith(f"euchre serve: cannot listen on 127.0.0.1:{port}")


def test_a_database_driver_that_is_not_installed_names_its_extra(tmp_path: Path) -> None:
    """As after ``scripts/setup server`` (no asyncpg), a PostgreSQL URL: one line naming the
    extra that installs the driver, not asyncpg's traceback (issue 34, item 9)."""
    (tmp_path / "sitecustomize.py").write_text(
        "import sys\n"
        "class NoAsyncpg:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] == 'asyncpg':\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
        "sys.meta_path.insert(0, NoAsyncpg())\n")
    hidden = {"PYTHONPATH": str(tmp_path)}
    url = "postgresql+asyncpg://someone:secret@127.0.0.1:5432/euchre"
    line = one_line(serve("--port", str(free_port()), "--database-url", url, env=hidden))
    assert line == ("euchre serve: database postgresql+asyncpg://someone:***@127.0.0.1:5432/"
                    "euchre: its driver 'asyncpg' is not installed: install euchre's postgres "
                    "extra (pip install 'euchre[server,postgres]', or scripts/setup dev)")
