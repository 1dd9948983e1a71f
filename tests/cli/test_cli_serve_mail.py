"""``ziggurat serve``'s mail options (docs/server.md, "Mail"): ``--smtp-host`` and the other
``--smtp-*`` options (or their ``ZIGGURAT_SMTP_*`` variables) are checked before anything
starts, and ``--help`` explains them. The mail itself: tests/server/test_server_mail.py."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from ziggurat.cli.main import app


def _serve(args: list[str], env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["serve", *args], env=env)
    return result.exit_code, " ".join(re.sub("[│╭╮╰╯─]", " ", result.output).split())


@pytest.mark.parametrize(
    ("args", "env", "words"),
    [
        (["--smtp-host", "mail.example.org", "--smtp-tls", "tls13"], {}, "one of starttls, ssl, none"),
        (
            [],
            {"ZIGGURAT_SMTP_HOST": "mail.example.org", "ZIGGURAT_MAIL_FROM": "nobody"},
            "is not an e-mail address",
        ),
        (["--smtp-host", "mail.example.org", "--smtp-port", "70000"], {}, "less than or equal to 65535"),
    ],
)
def test_mail_options_are_checked_before_the_server_starts(
    args: list[str], env: dict[str, str], words: str
) -> None:
    code, out = _serve(["--db", "sqlite://", *args], env)
    assert code == 2, out
    assert "Invalid value" in out and words in out
    assert "Ziggurat server" not in out  # nothing was started


def test_help_explains_the_mail_options() -> None:
    code, out = _serve(["--help"])
    assert code == 0
    for option in (
        "--smtp-host",
        "--smtp-port",
        "--smtp-user",
        "--smtp-password",
        "--smtp-tls",
        "--mail-from",
    ):
        assert option in out
    assert "ZIGGURAT_SMTP_HOST" in out and "starttls, ssl, or none" in out
