"""``ziggurat serve`` behind a reverse proxy with TLS (docs/server.md, "Hosting"): a real
uvicorn on 127.0.0.1, started by the CLI in a process of its own, and this test playing the
proxy: from a trusted proxy address the links are https links to the forwarded host and the
session cookie is ``Secure``; from an untrusted one the forwarded headers change nothing,
and a public URL starts every link whatever the request says."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from live_server import free_port, kill, stop, wait_healthy

CLI = "import sys; from ziggurat.cli.main import app; sys.argv[0] = 'ziggurat'; app()"
PROXY = {
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": "games.example.org",
    "X-Forwarded-For": "203.0.113.7",
}


@contextmanager
def serving(tmp_path: Path, args: list[str], env: dict[str, str]) -> Iterator[tuple[str, Path]]:
    """``ziggurat serve ARGS`` on a free 127.0.0.1 port with a SQLite file in ``tmp_path``;
    yields its base URL and log, and stops it."""
    port = free_port()
    base_env = {k: v for k, v in os.environ.items() if not k.startswith("ZIGGURAT_")}
    db = f"sqlite:///{tmp_path / 'games.sqlite'}"
    command = [
        sys.executable,
        "-c",
        CLI,
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--db",
        db,
        *args,
    ]
    log_path = tmp_path / "serve.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            command, stdout=log, stderr=subprocess.STDOUT, env={**base_env, **env}, cwd=tmp_path
        )
        try:
            base = f"http://127.0.0.1:{port}"
            wait_healthy(proc, base, log_path)
            yield base, log_path
            stop(proc)
        finally:
            kill(proc)


def _post(url: str, body: dict[str, Any], headers: dict[str, str]) -> tuple[Any, str]:
    """The JSON answer to a POST and its ``Set-Cookie`` header ('' if none)."""
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST")
    req.add_header("Content-Type", "application/json")
    for name, value in headers.items():
        req.add_header(name, value)
    with urllib.request.urlopen(req, timeout=10) as res:
        return json.loads(res.read()), res.headers.get("set-cookie", "")


def _table_links(base: str, headers: dict[str, str]) -> list[str]:
    answer, _ = _post(base + "/api/tables", {"game": "mesopotamia", "players": 2}, headers)
    return [s["link"] for s in answer["seats"]] + [answer["spectator_link"]]


def _signup_cookie(base: str, name: str, headers: dict[str, str]) -> str:
    _, cookie = _post(base + "/api/account/signup", {"name": name, "password": "hymns of ur 9"}, headers)
    assert cookie, "signing up sets the session cookie"
    return cookie


def test_a_trusted_proxy_gets_https_links_to_its_host_and_a_secure_cookie(tmp_path: Path) -> None:
    with serving(tmp_path, [], {"ZIGGURAT_FORWARDED_ALLOW_IPS": "127.0.0.1"}) as (base, log):
        proxied = _table_links(base, PROXY)
        assert all(link.startswith("https://games.example.org/table/") for link in proxied), proxied
        assert "Secure" in _signup_cookie(base, "Enheduanna", PROXY)
        direct = _table_links(base, {})  # a request that did not come through the proxy
        assert all(link.startswith(f"{base}/table/") for link in direct), direct
        assert "Secure" not in _signup_cookie(base, "Sargon", {})
    assert "Public URL" not in log.read_text()


def test_an_untrusted_proxy_changes_nothing_and_a_public_url_starts_every_link(tmp_path: Path) -> None:
    args = ["--public-url", "https://games.example.org", "--forwarded-allow-ips", "192.0.2.10"]
    with serving(tmp_path, args, {}) as (base, log):
        evil = {**PROXY, "X-Forwarded-Host": "evil.test"}
        links = _table_links(base, evil) + _table_links(base, {})
        assert all(link.startswith("https://games.example.org/table/") for link in links), links
        assert "Secure" not in _signup_cookie(base, "Enheduanna", evil)  # 127.0.0.1 is not the trusted proxy
    assert (
        "Public URL: https://games.example.org/ (invite and spectator links start with it)" in log.read_text()
    )
