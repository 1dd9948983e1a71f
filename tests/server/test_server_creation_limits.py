"""What a client may ask of the server when creating tables (docs/server.md): options outside
their declared range are refused with 422 before a game is built or anything stored, and each
client address creates at most so many tables in a sliding window (429 with ``Retry-After``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from server_helpers import TestClient, create_app
from test_server_options import _stored_tables

from ziggurat.server.limits import CreationLimit, creation_limit_from_env


class Clock:
    """A clock the test moves by hand (seconds)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _body(options: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"game": "mesopotamia", "players": 2, "options": options or {}, "seed": 1}


def _client(db_url: str, tmp_path: Path, limit: CreationLimit | None, address: str) -> TestClient:
    app = create_app(db_url, bot_delay=0, static_dir=tmp_path / "no-static", creation_limit=limit)
    return TestClient(app, client=(address, 40000))


@pytest.mark.parametrize(
    ("game", "options", "words"),
    [
        ("mesopotamia-epochs", {"die_sides": 100}, "option die_sides=100: must be"),
        (
            "mesopotamia",
            {"tilePileCount": 300000},
            "option tile_pile_count=300000: must be a whole number from 1 to 28",
        ),
    ],
)
def test_the_unbounded_option_examples_are_refused_with_422_and_nothing_is_stored(
    client: Any, db_url: str, game: str, options: dict[str, Any], words: str
) -> None:
    """``die_sides: 100`` made each Epochs battle enumerate 100^dice rolls and
    ``tilePileCount: 300000`` built a huge tile pile; both are outside the option's declared
    range, so the options check refuses them before the game is built."""
    r = client.post("/api/tables", json={"game": game, "players": 3, "options": options})
    assert r.status_code == 422, r.text
    assert words in r.json()["detail"]
    assert _stored_tables(db_url) == 0


def test_table_creation_is_limited_per_address_in_a_sliding_window(db_url: str, tmp_path: Path) -> None:
    clock = Clock()
    limit = CreationLimit(tables=3, window=60, clock=clock)
    with _client(db_url, tmp_path, limit, "198.51.100.7") as http:
        for _ in range(3):
            assert http.post("/api/tables", json=_body()).status_code == 201
            clock.now += 10
        r = http.post("/api/tables", json=_body())  # at 1030: 1000, 1010 and 1020 are in the window
        assert r.status_code == 429
        assert r.headers["Retry-After"] == "30"
        assert r.json()["detail"] == (
            "too many tables created from 198.51.100.7: at most 3 tables every 60 seconds; try again in 30 s"
        )
        clock.now = 1059.5
        assert http.post("/api/tables", json=_body()).status_code == 429
        assert http.post("/api/tables", json=_body()).headers["Retry-After"] == "1"
        clock.now = 1060.0  # the creation at 1000 leaves the window
        assert http.post("/api/tables", json=_body()).status_code == 201
        r = http.post("/api/tables", json=_body())
        assert (r.status_code, r.headers["Retry-After"]) == (429, "10")  # 1010 leaves at 1070
    assert _stored_tables(db_url) == 4


def test_the_limit_counts_the_address_the_server_sees_not_forwarded_headers(
    db_url: str, tmp_path: Path
) -> None:
    limit = CreationLimit(tables=2, window=60, clock=Clock())
    with _client(db_url, tmp_path, limit, "198.51.100.7") as http:
        for forwarded in ("203.0.113.1", "203.0.113.2"):
            assert (
                http.post("/api/tables", json=_body(), headers={"X-Forwarded-For": forwarded}).status_code
                == 201
            )
        r = http.post(
            "/api/tables", json=_body(), headers={"X-Forwarded-For": "203.0.113.3", "X-Real-IP": "1.2.3.4"}
        )
        assert r.status_code == 429
        assert "from 198.51.100.7" in r.json()["detail"]
    with _client(db_url, tmp_path, limit, "198.51.100.8") as other:  # another address has its own window
        assert other.post("/api/tables", json=_body()).status_code == 201
    with _client(db_url, tmp_path, limit, "198.51.100.7") as again:
        assert again.post("/api/tables", json=_body()).status_code == 429


def test_refused_creations_do_not_count(db_url: str, tmp_path: Path) -> None:
    limit = CreationLimit(tables=2, window=60, clock=Clock())
    with _client(db_url, tmp_path, limit, "198.51.100.9") as http:
        for _ in range(5):
            assert http.post("/api/tables", json=_body({"round_limit": 0})).status_code == 422
            assert http.post("/api/tables", json={**_body(), "players": 9}).status_code == 400
        assert [http.post("/api/tables", json=_body()).status_code for _ in range(3)] == [201, 201, 429]


def test_without_a_limit_nothing_is_refused(db_url: str, tmp_path: Path) -> None:
    with _client(db_url, tmp_path, None, "198.51.100.10") as http:
        assert all(http.post("/api/tables", json=_body()).status_code == 201 for _ in range(40))


def test_the_openapi_document_lists_the_429(client: Any) -> None:
    responses = client.get("/openapi.json").json()["paths"]["/api/tables"]["post"]["responses"]
    assert "429" in responses


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, (30, 60.0)),
        ("", (30, 60.0)),
        ("5/10", (5, 10.0)),
        (" 100/3600 ", (100, 3600.0)),
        ("off", None),
        ("OFF", None),
    ],
)
def test_the_limit_is_read_from_the_environment(
    value: str | None, expected: tuple[int, float] | None
) -> None:
    environ = {} if value is None else {"ZIGGURAT_TABLE_RATE": value}
    limit = creation_limit_from_env(environ)
    assert (None if limit is None else (limit.tables, limit.window)) == expected


@pytest.mark.parametrize("value", ["30", "a/60", "30/", "0/60", "5/0", "5/-1", "5/nan"])
def test_a_bad_limit_in_the_environment_is_refused(value: str) -> None:
    with pytest.raises(ValueError, match="ZIGGURAT_TABLE_RATE|at least 1 table"):
        creation_limit_from_env({"ZIGGURAT_TABLE_RATE": value})
