"""``ziggurat serve``'s hosting options and start-up message (docs/server.md, "Hosting"):
``--public-url`` / ``ZIGGURAT_PUBLIC_URL`` and ``--forwarded-allow-ips`` /
``ZIGGURAT_FORWARDED_ALLOW_IPS`` are checked before anything starts; bound to every interface,
the message names the LAN address to share. The server itself: test_cli_serve_process.py and
tests/server/test_server_proxy.py."""

from __future__ import annotations

import ipaddress
import re

import pytest
from typer.testing import CliRunner

from ziggurat.cli.main import app
from ziggurat.cli.serve import lan_addresses, startup_lines


def _serve(args: list[str], env: dict[str, str] | None = None) -> tuple[int, str]:
    """The exit code and output of ``ziggurat serve ARGS``, the error box's frame taken out."""
    result = CliRunner().invoke(app, ["serve", *args], env=env)
    return result.exit_code, " ".join(re.sub("[│╭╮╰╯─]", " ", result.output).split())


@pytest.mark.parametrize(
    ("args", "env", "words"),
    [
        (["--public-url", "ftp://games.example.org"], {}, "must start with http:// or https://"),
        (["--public-url", "https://games.example.org/?x=1"], {}, "must not have a query"),
        ([], {"ZIGGURAT_PUBLIC_URL": "https://games.example.org/play"}, "must not have a path (/play)"),
        (["--forwarded-allow-ips", "proxy.lan"], {}, "'proxy.lan' is not an IP address or network"),
        (
            [],
            {"ZIGGURAT_FORWARDED_ALLOW_IPS": "10.0.0.0/33"},
            "'10.0.0.0/33' is not an IP address or network",
        ),
    ],
)
def test_hosting_options_are_checked_before_the_server_starts(
    args: list[str], env: dict[str, str], words: str
) -> None:
    code, out = _serve(["--db", "sqlite://", *args], env)
    assert code == 2, out
    assert "Invalid value" in out and words in out
    assert "Ziggurat server" not in out  # nothing was started


def test_on_127_0_0_1_the_message_is_the_one_address_to_open() -> None:
    assert startup_lines("127.0.0.1", 8000, None, lan=["192.168.1.23"]) == [
        "Ziggurat server: open http://127.0.0.1:8000/"
    ]


def test_bound_to_every_interface_the_message_names_the_lan_address_to_share() -> None:
    lines = startup_lines("0.0.0.0", 8000, None, lan=["192.168.1.23"])
    assert lines == [
        "Ziggurat server: open http://127.0.0.1:8000/",
        "On your network: http://192.168.1.23:8000/ (share this address with your friends)",
        "Invite links carry the address you open: create tables from the one to share.",
    ]
    both = startup_lines("::", 8080, "https://games.example.org", lan=["10.0.0.4", "192.168.1.23"])
    assert both == [
        "Ziggurat server: open http://127.0.0.1:8080/",
        "On your network: http://10.0.0.4:8080/ (share this address with your friends)",
        "On your network: http://192.168.1.23:8080/ (share this address with your friends)",
        "Public URL: https://games.example.org/ (invite and spectator links start with it)",
    ]


def test_without_a_network_address_the_message_says_so() -> None:
    assert startup_lines("0.0.0.0", 8000, None, lan=[])[1:] == [
        "On your network: no address found; friends use this machine's address, port 8000"
    ]


def test_a_public_url_is_printed_on_any_host() -> None:
    assert startup_lines("127.0.0.1", 8000, "https://games.example.org", lan=[]) == [
        "Ziggurat server: open http://127.0.0.1:8000/",
        "Public URL: https://games.example.org/ (invite and spectator links start with it)",
    ]


def test_lan_addresses_are_ipv4_addresses_other_machines_can_reach() -> None:
    for address in lan_addresses():
        ip = ipaddress.ip_address(address)
        assert ip.version == 4 and not ip.is_loopback and not ip.is_unspecified and not ip.is_link_local
