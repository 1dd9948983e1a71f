"""Hosting (docs/server.md, "Hosting"): invite and spectator links start with the server's
public URL, else with the address the request came to; forwarded headers count only from a
trusted proxy. A real uvicorn behind a (simulated) TLS proxy: test_server_proxy.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from server_helpers import TestClient, new_table, token

from ziggurat.server import create_app
from ziggurat.server.limits import CreationLimit
from ziggurat.server.links import check_forwarded_allow_ips, check_public_url

SIGNUP = {"name": "Enheduanna", "password": "hymns of ur 9"}


def _app(db_url: str, tmp_path: Path, **kwargs: Any) -> Any:
    return create_app(db_url, bot_delay=0, static_dir=tmp_path / "no-static", **kwargs)


def _links(table: dict[str, Any]) -> list[str]:
    return [s["link"] for s in table["seats"] if s["link"]] + [table["spectator_link"]]


def test_links_start_with_the_public_url(db_url: str, tmp_path: Path) -> None:
    app = _app(db_url, tmp_path, public_url="https://games.example.org/")
    with TestClient(app, base_url="http://10.1.2.3:8000") as http:
        t = new_table(http, seats="hbh")
        assert t["seats"][0]["link"] == f"https://games.example.org/table/{t['table']}#token={token(t, 0)}"
        assert t["seats"][1]["link"] is None  # a bot seat has no invite
        assert (
            t["spectator_link"]
            == f"https://games.example.org/table/{t['table']}#token={t['spectator_token']}"
        )
        again = http.post(f"/api/tables/{t['table']}/rematch", headers={"X-Ziggurat-Token": token(t, 2)})
        assert again.status_code == 201, again.text
        mine = again.json()["seats"][2]
        assert (
            mine["link"] == f"https://games.example.org/table/{again.json()['table']}#token={mine['token']}"
        )
        # the public URL wins over any Host header the request carries
        other = http.post(
            "/api/tables", json={"game": "mesopotamia", "players": 2}, headers={"Host": "evil.test"}
        )
        assert all(link.startswith("https://games.example.org/table/") for link in _links(other.json()))


def test_without_a_public_url_links_carry_the_address_the_request_came_to(
    db_url: str, tmp_path: Path
) -> None:
    """A friend's browser on the LAN asked http://192.168.1.23:8000/: the links say so."""
    with TestClient(_app(db_url, tmp_path), base_url="http://192.168.1.23:8000") as http:
        t = new_table(http, seats="hh")
        assert t["seats"][1]["link"] == f"http://192.168.1.23:8000/table/{t['table']}#token={token(t, 1)}"
        other = http.post(
            "/api/tables", json={"game": "mesopotamia", "players": 2}, headers={"Host": "10.0.0.5:8080"}
        )
        assert all(link.startswith("http://10.0.0.5:8080/table/") for link in _links(other.json()))


@pytest.mark.parametrize(
    ("given", "words"),
    [
        ("ftp://games.example.org", "must start with http:// or https://"),
        ("games.example.org", "must start with http:// or https://"),
        ("https://", "has no host name"),
        ("https://games.example.org/?lang=fr", "must not have a query"),
        ("https://games.example.org/#lobby", "must not have a fragment"),
        ("https://games.example.org/ziggurat", "must not have a path (/ziggurat)"),
        ("https://me:secret@games.example.org", "must not hold a user name or password"),
        ("https://games.example.org:http", "public URL"),
    ],
)
def test_a_public_url_that_cannot_start_links_is_refused(
    given: str, words: str, db_url: str, tmp_path: Path
) -> None:
    with pytest.raises(ValueError, match="public URL") as refused:
        _app(db_url, tmp_path, public_url=given)
    assert words in str(refused.value)


def test_public_urls_are_kept_without_their_trailing_slash() -> None:
    assert check_public_url("https://games.example.org/") == "https://games.example.org"
    assert check_public_url(" HTTP://Games.Example.org:8443 ") == "http://games.example.org:8443"
    assert check_public_url("http://[2001:db8::1]:8000/") == "http://[2001:db8::1]:8000"


def test_trusted_proxies_are_addresses_networks_or_a_star() -> None:
    assert check_forwarded_allow_ips("127.0.0.1, 10.0.0.0/8,::1") == "127.0.0.1,10.0.0.0/8,::1"
    assert check_forwarded_allow_ips("*") == "*"
    with pytest.raises(ValueError, match="'proxy.lan' is not an IP address or network"):
        check_forwarded_allow_ips("127.0.0.1,proxy.lan")
    with pytest.raises(ValueError, match="no trusted proxy address"):
        check_forwarded_allow_ips(" ")


FORWARDED = {
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": "games.example.org",
    "X-Forwarded-For": "203.0.113.7",
}


def test_a_trusted_proxy_makes_https_links_and_a_secure_cookie(db_url: str, tmp_path: Path) -> None:
    app = _app(db_url, tmp_path, forwarded_allow_ips="127.0.0.1", creation_limit=None)
    with TestClient(app, client=("127.0.0.1", 40000), headers=FORWARDED) as http:
        t = new_table(http, seats="hh")
        assert all(link.startswith("https://games.example.org/table/") for link in _links(t))
        signed = http.post("/api/account/signup", json=SIGNUP)
        assert signed.status_code == 201, signed.text
        assert "Secure" in signed.headers["set-cookie"]


def test_forwarded_headers_from_an_untrusted_address_are_ignored(db_url: str, tmp_path: Path) -> None:
    app = _app(db_url, tmp_path, forwarded_allow_ips="127.0.0.1,10.0.0.0/8", creation_limit=None)
    with TestClient(
        app, base_url="http://192.168.1.23:8000", client=("192.168.1.50", 40000), headers=FORWARDED
    ) as http:
        t = new_table(http, seats="hh")
        assert all(link.startswith("http://192.168.1.23:8000/table/") for link in _links(t))
        signed = http.post("/api/account/signup", json=SIGNUP)
        assert signed.status_code == 201, signed.text
        assert "Secure" not in signed.headers["set-cookie"]


def test_an_app_without_trusted_proxies_reads_no_forwarded_header(db_url: str, tmp_path: Path) -> None:
    with TestClient(_app(db_url, tmp_path), client=("127.0.0.1", 40000), headers=FORWARDED) as http:
        assert all(
            link.startswith("http://testserver/table/") for link in _links(new_table(http, seats="hh"))
        )


def test_behind_a_trusted_proxy_the_creation_limit_counts_each_player_address(
    db_url: str, tmp_path: Path
) -> None:
    app = _app(db_url, tmp_path, forwarded_allow_ips="127.0.0.1", creation_limit=CreationLimit(1, 600.0))
    body = {"game": "mesopotamia", "players": 2}
    with TestClient(app, client=("127.0.0.1", 40000)) as proxy:
        assert (
            proxy.post("/api/tables", json=body, headers={"X-Forwarded-For": "203.0.113.7"}).status_code
            == 201
        )
        again = proxy.post("/api/tables", json=body, headers={"X-Forwarded-For": "203.0.113.7"})
        assert again.status_code == 429 and "from 203.0.113.7" in again.json()["detail"]
        other = proxy.post("/api/tables", json=body, headers={"X-Forwarded-For": "198.51.100.4"})
        assert other.status_code == 201  # another player behind the same proxy has a window of their own
