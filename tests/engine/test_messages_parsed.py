"""Patterns are read once and kept parsed (``messages.format_pattern``): a parsed pattern
fills in exactly what the character-by-character reading (``messages._format``) gives, for
every pattern of every catalogue and the values each argument may take, and a malformed
pattern still fails with the same error."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from ziggurat.engine import messages as M

NUMBERS = (0, 1, 2, 5, 1.5)


def _choices(text: str) -> dict[str, list[Any]]:
    """Values to try for each argument of ``text`` (nested cases included): numbers for a
    plural, each case and an unknown one for a select, a word or a message otherwise."""
    found: dict[str, list[Any]] = {}
    i = 0
    while i < len(text):
        if text[i] != "{":
            i += 1
            continue
        close = M._matching(text, i)
        pieces = text[i + 1 : close].split(",", 2)
        name = pieces[0].strip()
        kind = pieces[1].strip() if len(pieces) > 1 else None
        if kind == "plural":
            found.setdefault(name, list(NUMBERS))
        elif kind == "select":
            options = M._options(pieces[2] if len(pieces) > 2 else "")
            found.setdefault(name, [*options, "zzz"])
        elif not name.endswith("_gender"):
            found.setdefault(name, ["word", M.message("colour.red")])
        if len(pieces) > 2:
            for case in M._options(pieces[2]).values():
                for k, v in _choices(case).items():
                    found.setdefault(k, v)
        i = close + 1
    return found


def _outcome(fn: Any, *args: Any) -> tuple[str, Any]:
    try:
        return ("ok", fn(*args))
    except (KeyError, ValueError) as exc:
        return (type(exc).__name__, str(exc))


def _read(text: str, params: dict[str, Any], lang: str) -> str:
    return M._format(text, 0, params, lang, None, top=True)[0]


@pytest.mark.parametrize("lang", M.LANGS)
def test_every_catalogue_pattern_reads_the_same_parsed(lang: str) -> None:
    compared = 0
    for key, text in sorted(M.catalogue(lang).items()):
        parts = M._parse(text, False)  # every catalogue pattern is well formed
        choices = _choices(text)
        names = sorted(choices)
        combos = list(itertools.product(*(choices[n] for n in names)))[:64]
        for combo in combos:
            params = dict(zip(names, combo, strict=True))
            slow = _outcome(_read, text, params, lang)
            fast = _outcome(M._render, parts, params, lang, None)
            assert fast == slow, (key, params)
            compared += 1
    assert compared > 1000


@pytest.mark.parametrize(
    "text",
    [
        "a } b",
        "a {b",
        "{n, plural, one {#} }",
        "{n, plural, one {# thing} other {# things}} {x, bogus, a {b}}",
        "{s, select, a {x} other {y}} and {n, plural, one {# {z}} other {#}}",
        "# at the top is a hash",
        "{n, plural, one {{s, select, a {#} other {# #}}} other {#}}",
    ],
)
@pytest.mark.parametrize(
    "params", [{"n": 1, "s": "a", "b": "x", "z": "zed"}, {"n": 3, "s": "q"}, {"n": "one", "s": "a"}, {}]
)
def test_format_pattern_gives_what_the_reading_gives_or_its_error(text: str, params: dict[str, Any]) -> None:
    M._PARSED.pop(text, None)
    slow = _outcome(_read, text, params, "en")
    for _ in range(2):  # the first call parses (or finds it malformed), the second reads what was kept
        assert _outcome(M.format_pattern, text, params, "en") == slow


def test_a_message_is_its_text_in_the_default_language_and_nouns_are_shared() -> None:
    """What ``_display`` relies on to show a message inside another in the default language
    without rendering it again: the message's own text is that rendering."""
    compared = 0
    for key, text in sorted(M.catalogue(M.DEFAULT_LANG).items()):
        if "@" in key:
            continue
        choices = _choices(text)
        names = sorted(choices)
        for combo in list(itertools.product(*(choices[n] for n in names)))[:8]:
            params = dict(zip(names, combo, strict=True))
            try:
                made = M.Message(key, params)
            except (KeyError, ValueError):
                continue
            assert str.__str__(made) == made.render(M.DEFAULT_LANG)
            compared += 1
    assert compared > 500
    assert M.noun("colour", "red") is M.noun("colour", "red")
    assert M.noun("colour", "red") == M.message("colour.red") and M.noun("colour", "red").params == {}
