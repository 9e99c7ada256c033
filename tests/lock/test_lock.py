"""The venv the tests run in is exactly what uv.lock pins (scripts/setup installs the lock)."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _locked() -> dict[str, set[str]]:
    """Each package's locked versions: a few have one per Python version (numpy, scipy)."""
    lock = tomllib.loads((ROOT / "uv.lock").read_text())
    versions: dict[str, set[str]] = {}
    for package in lock["package"]:
        versions.setdefault(_canonical(package["name"]), set()).add(package.get("version", ""))
    return versions


def _installed() -> dict[str, str]:
    return {
        _canonical(d.metadata["Name"]): d.version
        for d in metadata.distributions()
        if d.metadata["Name"]
    }


def test_every_installed_package_is_the_locked_version() -> None:
    locked, installed = _locked(), _installed()
    unlocked = sorted(name for name in installed if name not in locked)
    assert unlocked == [], f"installed but not in uv.lock: {unlocked}"
    wrong = {n: (v, locked[n]) for n, v in installed.items() if v not in locked[n]}
    assert wrong == {}, f"installed version differs from uv.lock (installed, locked): {wrong}"


def test_the_dev_extra_is_installed_whole() -> None:
    """Each package the dev extra pins (the tests' tools included) is in the venv."""
    installed = _installed()
    for name in ("pytest", "mypy", "ruff", "redis", "asyncpg", "playwright", "msgspec"):
        assert name in installed, f"{name} is locked for the dev extra but not installed"


def test_every_lock_entry_has_hashes() -> None:
    lock = tomllib.loads((ROOT / "uv.lock").read_text())
    for package in lock["package"]:
        if package["name"] == "euchre":
            continue
        files = [package.get("sdist"), *package.get("wheels", [])]
        hashed = [f for f in files if f and f.get("hash", "").startswith("sha256:")]
        assert hashed, f"{package['name']} has no hashed file in uv.lock"


def test_the_lock_matches_pyproject() -> None:
    """uv.lock was made from this pyproject.toml (scripts/lock refreshes it)."""
    lock = tomllib.loads((ROOT / "uv.lock").read_text())
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    (euchre,) = (p for p in lock["package"] if p["name"] == "euchre")
    locked_extras = set(euchre["metadata"].get("provides-extras", []))
    assert locked_extras == set(project["optional-dependencies"])
    wanted = {
        (_canonical(re.split(r"[\[<>=!~; ]", spec, maxsplit=1)[0]), extra)
        for extra, specs in project["optional-dependencies"].items()
        for spec in specs
    }
    got = {
        (_canonical(r["name"]), r["marker"].split("'")[1])
        for r in euchre["metadata"]["requires-dist"]
        if "marker" in r and "extra ==" in r["marker"]
    }
    assert wanted == got
