"""The composition root: one typed site built once at start, in order, reached through typed
accessors; no part of the server finds another by its type."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import typing
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from euchre.server import Given, Settings, create_app
from euchre.server.accounts.accounts_api import AccountsOptions, accounts_extension
from euchre.server.accounts.bots_api import bots_extension
from euchre.server.accounts.ratings_api import ratings_extension
from euchre.server.core.site import MissingPart
from euchre.server.nights.nights_api import nights_extension
from euchre.server.online.my_games import my_games_extension
from euchre.server.online.online_api import online_extension
from euchre.server.online.stakes import stakes_extension
from euchre.server.root import Site, layer_views, root_of
from euchre.server.tables.practice_api import practice_extension
from euchre.server.tournaments.tournaments_api import tournaments_extension
from euchre.table.hosting.owners import LeasedStore
from redis_fixtures import REDIS_URL, fresh_prefix, needs_redis

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "euchre"
ACCESSOR = SRC / "server" / "core" / "site.py"

GROUPS = ("accounts", "bots", "online", "pots", "ratings", "claims", "nights", "tournaments")
"""The site's optional groups, one an extension."""


def test_nothing_but_the_one_accessor_reads_or_writes_the_apps_state() -> None:
    reaching = re.compile(r"\bapp\s*\.\s*state\b|[gs]etattr\(\s*[\w.]+\.state\b")
    found = [f"{path.relative_to(SRC)}:{n}: {line.strip()}"
             for path in sorted(SRC.rglob("*.py")) if path != ACCESSOR
             for n, line in enumerate(path.read_text().splitlines(), 1)
             if reaching.search(line)]
    assert found == []
    assert len(reaching.findall(ACCESSOR.read_text())) == 2  # keep_site and kept_site


def test_no_module_finds_a_part_of_the_site_by_its_type() -> None:
    # The locator's ways (site[X], site.get(X), site_of(conn)[X], needs/makes) are gone.
    old = re.compile(r"site\[|site\.get\(|site_of\(|\bneeds=|\bmakes=|parts_by_type")
    found = [f"{path.relative_to(SRC)}:{n}: {line.strip()}"
             for path in sorted(SRC.rglob("*.py"))
             for n, line in enumerate(path.read_text().splitlines(), 1) if old.search(line)]
    assert found == []


def _site_protocols() -> set[str]:
    """Every protocol under ``src/euchre/server`` that a layer reads the site through."""
    names = set()
    for path in (SRC / "server").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef) and node.name.endswith("Site") and any(
                    isinstance(b, ast.Name) and b.id == "Protocol" for b in node.bases):
                names.add(node.name)
    return names


def test_mypy_checks_the_site_is_every_layers_protocol() -> None:
    # layer_views returns the site as each of them: mypy (strict, over src in CI) fails
    # there if the Site lacks a field a layer reads, or holds it with another type.
    views = typing.get_type_hints(layer_views)["return"]
    listed = {v.__name__ for v in typing.get_args(views)}
    assert listed == _site_protocols() and len(listed) >= 9


def test_mypy_refuses_a_site_that_lacks_a_group_a_layer_reads(tmp_path: Path) -> None:
    # The check is real: the same root with one group's type changed fails mypy.
    root = (SRC / "server" / "root.py").read_text()
    broken = root.replace("    pots: PotService | None = None",
                          "    pots: int | None = None")
    assert broken != root
    module = tmp_path / "broken_root.py"
    module.write_text(broken.replace("from ..", "from euchre.").replace(
        "from .", "from euchre.server."))
    # A copy of the project's own mypy cache, if there is one (scripts/test type-checks
    # before pytest): only the broken module is checked from its source, the rest as cached
    # (mypy re-checks any cached module whose source changed). 0.4 s of CPU instead of 8.
    cache = tmp_path / "cache"
    if (ROOT / ".mypy_cache").is_dir():
        shutil.copytree(ROOT / ".mypy_cache", cache)
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(cache), str(module)],
        capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 1, result.stdout
    assert "layer_views" in result.stdout or "OnlineSite" in result.stdout, result.stdout


def test_the_accessor_refuses_an_app_that_has_not_started() -> None:
    app = create_app(Settings(), [practice_extension()])
    with pytest.raises(RuntimeError, match="has not started"):
        root_of(app)


def test_the_whole_site_is_one_typed_site_with_every_group() -> None:
    app = create_app(Settings(bot_delay=0.0, hand_pause=0.0),
                     accounts=AccountsOptions(password_profile="cheapest"))
    with TestClient(app) as client:
        site = root_of(client.app)
        assert site is root_of(app) and isinstance(site, Site)
        assert site.redis is None and site.owners is None and not site.site_wide
        assert site.engine is None  # games in memory: accounts have their own file
        assert all(getattr(site, group) is not None for group in GROUPS)
        assert site.accounts is not None and site.sessions is site.accounts.sessions
        assert site.gate.service is site.bots  # made after the bots' service
        assert site.relays is None and site.tables.edge is None  # nothing to relay
        assert set(site.manager.kinds) >= {"practice", "coin", "online"}
        with pytest.raises(AttributeError, match="not rewired"):
            site.manager = None  # type: ignore[assignment]  # sealed: never rewired
        assert client.post("/api/accounts", json={"username": "ann", "password":
                                                  "correct horse"}).status_code == 201


@pytest.mark.parametrize("extensions", [
    [practice_extension()],
    [practice_extension(), online_extension()],
    [accounts_extension(AccountsOptions(password_profile="cheapest"))],
    [accounts_extension(AccountsOptions(password_profile="cheapest")), bots_extension()],
    [accounts_extension(AccountsOptions(password_profile="cheapest")), ratings_extension()],
    [accounts_extension(AccountsOptions(password_profile="cheapest")), nights_extension()],
    [accounts_extension(AccountsOptions(password_profile="cheapest")), online_extension(),
     stakes_extension(), my_games_extension()],
    [accounts_extension(AccountsOptions(password_profile="cheapest")), online_extension(),
     tournaments_extension()],
], ids=["practice", "online", "accounts", "bots", "ratings", "nights", "stakes", "tournaments"])
def test_the_site_builds_with_and_without_each_group(extensions: list[typing.Any]) -> None:
    app = create_app(Settings(bot_delay=0.0, hand_pause=0.0), extensions)
    made = {ext.name for ext in extensions}
    maker = {"accounts": "accounts", "bots": "bots", "online": "online", "pots": "stakes",
             "ratings": "ratings", "claims": "my_games", "nights": "nights",
             "tournaments": "tournaments"}
    with TestClient(app) as client:
        site = root_of(app)
        for group in GROUPS:
            assert (getattr(site, group) is not None) == (maker[group] in made), group
        assert client.get("/readyz").status_code == 200
        # A route of a group the app has not is a 404, never a crash.
        if "nights" not in made:
            assert client.get("/api/nights").status_code == 404


def test_an_extension_before_the_group_it_stands_on_is_refused_at_start() -> None:
    cheap = AccountsOptions(password_profile="cheapest")
    for extensions in ([practice_extension(), bots_extension()],
                       [practice_extension(), bots_extension(), accounts_extension(cheap)]):
        app = create_app(Settings(), extensions)
        with pytest.raises(MissingPart, match="bots needs accounts"), TestClient(app):
            pass


@needs_redis
def test_leases_limits_and_the_broker_share_the_processs_one_redis_client(
        tmp_path: Path) -> None:
    from redis import Redis as SyncRedis
    from redis.asyncio import Redis

    from euchre.broker.redis import RedisBroker
    from euchre.leases.redis import RedisLeases
    from euchre.limits.redis import RedisLimits

    assert REDIS_URL
    # Other sites of this test process (earlier tests' apps) may still hold connections named
    # after the same process: only the connections opened from here on are this site's.
    before_admin = SyncRedis.from_url(REDIS_URL)
    try:
        before = {c["id"] for c in before_admin.client_list()}
    finally:
        before_admin.close()
    # A lease it never waits out: a renewal late on a busy machine loses no table.
    settings = Settings(database_url=f"sqlite+aiosqlite:///{tmp_path}/one.db",
                        redis_url=REDIS_URL, bot_delay=0.0, hand_pause=0.0, lease_ttl=30.0)
    app = create_app(settings, accounts=AccountsOptions(password_profile="cheapest"))
    with TestClient(app) as client:
        site = root_of(app)
        assert isinstance(site.redis, Redis)
        assert isinstance(site.limits, RedisLimits) and site.limits.client is site.redis
        assert isinstance(site.leases, RedisLeases) and site.leases.client is site.redis
        assert isinstance(site.broker, RedisBroker)
        assert site.broker._client is site.redis  # its pub/sub is one of the client's
        assert isinstance(site.store, LeasedStore) and site.owners is not None
        assert site.manager.store is site.store and site.manager.owners is site.owners
        assert site.manager.retirement.store is site.store
        assert site.relays is not None
        host = site.relays.host
        assert host.ready.is_set() and site.gate is host.gate
        assert site.tables.edge is site.relays.edge
        assert client.post("/api/tables", json={}).status_code == 201  # under a lease
        name = site.redis.connection_pool.connection_kwargs["client_name"]
        admin = Redis.from_url(REDIS_URL)

        async def mine() -> tuple[set[str], int]:
            try:
                listed = await admin.client_list()
            finally:
                await admin.aclose()
            ours = [c for c in listed if c["id"] not in before
                    and c["name"].startswith(name.rsplit("-", 1)[0])]
            return {c["name"] for c in ours}, len(ours)

        names, count = client.portal.call(mine)
        assert names == {name} and count >= 2  # the pub/sub and at least one more
    assert not site.broker.connected  # stopped with the app, the client closed once
    assert _names_left_at(REDIS_URL, name) == []  # and with it every connection it opened


def _names_left_at(url: str, name: str) -> list[str]:
    """The connections named ``name`` the Redis at ``url`` still lists, once it has handled
    the closes already sent (a closed socket is dropped by the server's next loop turn, so
    this asks until they are gone, for at most 10 s)."""
    import time

    from redis import Redis as SyncRedis

    admin = SyncRedis.from_url(url)
    try:
        for _ in range(100):
            left = [c["name"] for c in admin.client_list() if c["name"] == name]
            if not left:
                break
            time.sleep(0.1)
        return left
    finally:
        admin.close()


def test_given_parts_are_used_instead_of_made_ones() -> None:
    from euchre.limits import MemoryLimits

    limits = MemoryLimits()
    app = create_app(Settings(), [practice_extension()], given=Given(limits=limits))
    with TestClient(app):
        assert root_of(app).limits is limits


def test_a_redis_broker_made_by_the_root_has_its_own_prefix_free_channels() -> None:
    # The shared client's broker is the same class as one made from a URL.
    from euchre.broker.redis import RedisBroker
    from euchre.server.core.redis_client import open_redis

    client = open_redis("redis://127.0.0.1:1/0")
    assert client is not None
    broker = RedisBroker.on(client, prefix=fresh_prefix())
    assert broker.url == "redis://127.0.0.1:1/0" and not broker.connected
