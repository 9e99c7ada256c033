"""The composition root: one site built once at start, in order, reached through one accessor."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from euchre.server import Given, Settings, create_app
from euchre.server.accounts.accounts_api import AccountsOptions, AccountsState
from euchre.server.accounts.bots_api import bots_extension
from euchre.server.accounts.ratings_state import RatingsState
from euchre.server.app import site_extensions
from euchre.server.core.registry import Extension, Registry
from euchre.server.core.site import MissingPart, Site, site_of
from euchre.server.online.lobby_state import Online
from euchre.server.tables.bot_gate import BotGate
from euchre.server.tables.door import Tables
from euchre.server.tables.practice_api import practice_extension
from euchre.server.tables.relay import RelayEdge, RelayHost
from euchre.table.hosting.owners import LeasedStore
from redis_fixtures import REDIS_URL, fresh_prefix, needs_redis

SRC = Path(__file__).resolve().parents[2] / "src" / "euchre"
ACCESSOR = SRC / "server" / "core" / "site.py"


def test_nothing_but_the_one_accessor_reads_or_writes_the_apps_state() -> None:
    reaching = re.compile(r"\bapp\s*\.\s*state\b|[gs]etattr\(\s*[\w.]+\.state\b")
    found = [f"{path.relative_to(SRC)}:{n}: {line.strip()}"
             for path in sorted(SRC.rglob("*.py")) if path != ACCESSOR
             for n, line in enumerate(path.read_text().splitlines(), 1)
             if reaching.search(line)]
    assert found == []
    assert len(reaching.findall(ACCESSOR.read_text())) == 2  # keep_site and site_of


def test_the_accessor_refuses_an_app_that_has_not_started() -> None:
    app = create_app(Settings(), [practice_extension()])
    with pytest.raises(RuntimeError, match="has not started"):
        site_of(app)


def test_the_whole_site_is_one_site_with_every_part_by_type() -> None:
    app = create_app(Settings(bot_delay=0.0, hand_pause=0.0),
                     accounts=AccountsOptions(password_profile="cheapest"))
    with TestClient(app) as client:
        site = site_of(client.app)
        assert site is site_of(app) and isinstance(site, Site)
        assert site.redis is None and site.owners is None and not site.site_wide
        assert site.engine is None  # games in memory: accounts have their own file
        accounts = site[AccountsState]
        assert site[RatingsState].ratings is not None and site[Online].lobby is not None
        assert site[BotGate].service is not None  # made after the bots' service
        assert site.get(RelayHost) is None and site[Tables].edge is None  # nothing to relay
        assert set(site.manager.kinds) >= {"practice", "coin", "online"}
        with pytest.raises(AttributeError):
            site.manager = None  # type: ignore[misc]  # frozen: never rewired
        assert client.post("/api/accounts", json={"username": "ann", "password":
                                                  "correct horse"}).status_code == 201
        assert accounts.engine is not None
    practice = create_app(Settings(), [practice_extension()])
    with TestClient(practice):
        with pytest.raises(MissingPart, match="AccountsState"):
            site_of(practice)[AccountsState]
        assert site_of(practice).get(AccountsState) is None


def test_an_extension_before_the_parts_it_needs_is_refused_at_once() -> None:
    with pytest.raises(ValueError, match=r"bots needs \['AccountsState'\]"):
        Registry([practice_extension(), bots_extension()])
    with pytest.raises(ValueError, match="needs"):
        create_app(Settings(), [bots_extension(), *site_extensions()])


def test_an_extension_that_makes_an_undeclared_part_is_refused_at_start() -> None:
    async def parts(site: Site) -> list[object]:
        return [object()]

    app = create_app(Settings(), [Extension("odd", parts=parts)])
    with pytest.raises(TypeError, match="odd made"), TestClient(app):
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
    settings = Settings(database_url=f"sqlite+aiosqlite:///{tmp_path}/one.db",
                        redis_url=REDIS_URL, bot_delay=0.0, hand_pause=0.0, lease_ttl=2.0)
    app = create_app(settings, accounts=AccountsOptions(password_profile="cheapest"))
    with TestClient(app) as client:
        site = site_of(app)
        assert isinstance(site.redis, Redis)
        assert isinstance(site.limits, RedisLimits) and site.limits.client is site.redis
        assert isinstance(site.leases, RedisLeases) and site.leases.client is site.redis
        assert isinstance(site.broker, RedisBroker)
        assert site.broker._client is site.redis  # its pub/sub is one of the client's
        assert isinstance(site.store, LeasedStore) and site.owners is not None
        assert site.manager.store is site.store and site.manager.owners is site.owners
        assert site.manager.retirement.store is site.store
        host = site[RelayHost]
        assert host.ready.is_set() and site[BotGate] is host.gate
        assert site[Tables].edge is site[RelayEdge]
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
        assert site_of(app).limits is limits


def test_a_redis_broker_made_by_the_root_has_its_own_prefix_free_channels() -> None:
    # The shared client's broker is the same class as one made from a URL.
    from euchre.broker.redis import RedisBroker
    from euchre.server.core.redis_client import open_redis

    client = open_redis("redis://127.0.0.1:1/0")
    assert client is not None
    broker = RedisBroker.on(client, prefix=fresh_prefix())
    assert broker.url == "redis://127.0.0.1:1/0" and not broker.connected
