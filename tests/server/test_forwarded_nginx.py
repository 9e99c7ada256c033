"""Addresses come from the network (issue 34, item 1): through real nginx with the shipped
``deploy/nginx.conf``, a client that writes its own ``X-Forwarded-For`` is still counted at
the address nginx saw, so limits per address hold. The app trusts forwarded addresses from
the proxy's address only (uvicorn's default, ``127.0.0.1``, is where nginx runs here, as
``172.28.0.10`` is in ``deploy/compose.yaml``)."""

from __future__ import annotations

from pathlib import Path

import httpx
from test_deploy_nginx import local_config, nginx_exe, running_nginx

from live_server import ServerProcess, free_port

__all__ = ["nginx_exe"]  # a fixture, used by name

COMPOSE = Path(__file__).parents[2] / "deploy" / "compose.yaml"


def test_the_shipped_compose_file_trusts_only_its_proxy() -> None:
    import yaml

    compose = yaml.safe_load(COMPOSE.read_text())
    proxy = compose["services"]["nginx"]["networks"]["default"]["ipv4_address"]
    for app in ("app1", "app2", "app3"):
        assert compose["services"][app]["environment"]["FORWARDED_ALLOW_IPS"] == proxy
    conf = (COMPOSE.parent / "nginx.conf").read_text()
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in conf
    assert "$proxy_add_x_forwarded_for" not in conf.replace(
        "($proxy_add_x_forwarded_for)", "")  # named in a comment only


def test_forged_forwarded_addresses_through_nginx_count_as_the_real_one(nginx_exe, tmp_path):
    server = ServerProcess(f"sqlite+aiosqlite:///{tmp_path}/site.db", free_port(),
                           env={"FORWARDED_ALLOW_IPS": "127.0.0.1"})
    server.start()
    try:
        port = free_port()
        with running_nginx(nginx_exe, local_config([server.port], port, tmp_path),
                           tmp_path, port):
            base = f"http://127.0.0.1:{port}"
            answers = []
            for i in range(21):  # the cap is 20 new accounts an hour per address
                forged = (f"203.0.113.{i}" if i % 2 else
                          f"198.51.100.{i}, 203.0.113.{i}")  # one entry, or a chain
                answer = httpx.post(f"{base}/api/accounts",
                                    json={"username": f"forger{i}", "password": "pw-12345678"},
                                    headers={"X-Forwarded-For": forged})
                answers.append(answer.status_code)
            assert answers == [201] * 20 + [429], answers
            refused = httpx.post(f"{base}/api/accounts",
                                 json={"username": "forger99", "password": "pw-12345678"},
                                 headers={"X-Forwarded-For": "192.0.2.77"})
            assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    finally:
        server.stop()
