"""Helpers of the CLI tests (a plain module, so test files can import it)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from ziggurat.cli.main import app


def invoke(args: list[str], stdin: str | None = None) -> Any:
    """Run ``ziggurat ARGS`` in-process; the result has exit_code, stdout and stderr."""
    return CliRunner().invoke(app, args, input=stdin)


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def secret_lines(text: str) -> list[str]:
    """Sentences of a told game that name a secret (an offering value placed, a card, a peek)."""
    markers = ("puts the offering worth", "draws a card:", "is dealt a card:", "looks at a tile of the pile:",
               "puts the peeked tiles back as", "picks up the offering (worth")  # fmt: skip
    return [line for line in text.splitlines() if any(m in line for m in markers)]
