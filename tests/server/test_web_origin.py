"""Which ``Origin`` is this site's (``core.web_origin``), and what the middleware does with
a socket's session cookie when no ``Origin`` came."""

from __future__ import annotations

import pytest

from euchre.server.core.web_origin import is_site_origin, origin_of, without_session

PUBLIC = "https://euchre.example"


@pytest.mark.parametrize(("url", "origin"), [
    ("https://euchre.example", "https://euchre.example:443"),
    ("https://Euchre.Example:443/", "https://euchre.example:443"),
    ("http://127.0.0.1:8000", "http://127.0.0.1:8000"),
    ("http://[::1]:8000", "http://[::1]:8000"),
    ("null", None), ("file:///x.html", None), ("http://", None), ("http://a:99999", None),
])
def test_an_origin_is_its_scheme_host_and_port(url: str, origin: str | None) -> None:
    assert origin_of(url) == origin


@pytest.mark.parametrize(("origin", "host", "ok"), [
    ("https://euchre.example", "euchre.example", True),
    ("https://euchre.example:443", "10.0.0.5:8000", True),  # behind a proxy: any Host
    ("http://euchre.example", "euchre.example", False),  # another scheme
    ("https://www.euchre.example", "www.euchre.example", False),  # a sibling
    ("https://euchre.example:8443", "euchre.example:8443", False),  # another port
    ("https://evil.example", "evil.example", False),  # a rebound name
    ("null", "euchre.example", False),
    # development: a loopback page on the very host and port the request went to
    ("http://127.0.0.1:8123", "127.0.0.1:8123", True),
    ("http://localhost:8123", "localhost:8123", True),
    ("http://[::1]:8123", "[::1]:8123", True),
    ("http://127.0.0.1:9999", "127.0.0.1:8123", False),  # another port of the host
    ("http://localhost:8123", "127.0.0.1:8123", False),  # another origin, as browsers say
    ("http://127.0.0.1:80", "127.0.0.1", True),
    ("http://127.0.0.1:8123", None, False),
])
def test_the_sites_origin_is_the_public_urls_and_loopback_pages_of_their_own_host(
        origin: str, host: str | None, ok: bool) -> None:
    assert is_site_origin(origin, PUBLIC, host) is ok


def test_a_socket_without_origin_loses_only_the_session_cookie() -> None:
    headers = [(b"host", b"x"), (b"cookie", b"euchre_browser=abc; euchre_session=s3cret; y=1"),
               (b"cookie", b"euchre_session=again")]
    assert without_session(headers) == [(b"host", b"x"),
                                         (b"cookie", b"euchre_browser=abc; y=1")]
