"""Messages: what the games say (log events, refusals, results) as a key and parameters.

A game never writes a sentence. It builds a :class:`Message` with :func:`message`: a key such
as ``"meso.log.move"`` and parameters (numbers, plain strings such as coordinates or action
texts, other messages such as a colour's name, or lists of those). The words live in message
catalogues, one JSON file per language: the engine's own (``engine/messages/<lang>.json``:
colours and what every game shares) and each game's (``games/<game>/messages/<lang>.json``).
The browser and the terminal render a message in the reader's language from the same files.

A :class:`Message` *is* its English text (a ``str``), so code that prints, compares or
searches sentences keeps working; ``msg.key`` and ``msg.params`` carry the structure, and
:meth:`Message.to_json` is what the server sends.

Patterns use a subset of ICU MessageFormat, implemented the same way here and in the
browser's ``static/messages.js`` (plain ES modules, no build step, so no library to share):

- ``{name}``: the parameter (a message parameter is rendered in the same language, a list is
  joined with ", ");
- ``{name, plural, one {...} other {...}}`` (also ``=0 {...}``), ``#`` inside is the number;
  plural categories come from CLDR (Babel here, ``Intl.PluralRules`` in the browser);
- ``{name, select, a {...} b {...} other {...}}`` on a plain string parameter;
- grammatical gender: for every parameter ``x`` that is a message, ``x_gender`` is the gender
  its catalogue gives under ``<key>@gender`` (``masc``, ``fem``; ``other`` when absent), so a
  French pattern can agree: ``{tile_gender, select, fem {une {tile}} other {un {tile}}}``.

There is no quoting: an apostrophe is a plain apostrophe ("l'offrande").

>>> str(message("colour.red"))
'Red'
>>> render(message("colour.red"), "fr")
'Rouge'
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any, TypeVar

from babel import Locale

T = TypeVar("T")

LANGS = ("en", "fr")
"""The languages every catalogue provides."""

DEFAULT_LANG = "en"

Param = Any  # int | float | str | Message | list[Param]


class Message(str):
    """A message: its English text, plus ``key`` and ``params`` to render it in any language."""

    key: str
    params: dict[str, Param]

    def __new__(cls, key: str, params: Mapping[str, Param] | None = None, text: str | None = None) -> Message:
        p = dict(params or {})
        self = super().__new__(
            cls, format_pattern(pattern(key, DEFAULT_LANG), p, DEFAULT_LANG) if text is None else text
        )
        self.key = key
        self.params = p
        return self

    def to_json(self) -> dict[str, Any]:
        """``{"key", "params"}`` with nested messages as the same kind of dict."""
        return {"key": self.key, "params": {k: _param_json(v) for k, v in self.params.items()}}

    def render(self, lang: str) -> str:
        """This message in ``lang``."""
        return format_pattern(pattern(self.key, lang), self.params, lang)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Message, (self.key, self.params, str(self)))


def message(key: str, /, **params: Param) -> Message:
    """The message ``key`` with ``params``; raises ``KeyError`` if no catalogue has the key."""
    return Message(key, params)


def noun(domain: str, value: str) -> Message:
    """The message naming ``value`` of a declared vocabulary (``noun("meso.card", "land")``).

    The domain must be declared with :func:`declare_domain`, so a test can check that every
    value it may take has a message in every language. A noun has no parameters, so each is
    made once and shared (a message is never changed once made).
    """
    key = f"{domain}.{value}"
    found = _NOUNS.get(key)
    if found is None:
        found = Message(key)
        if len(_NOUNS) < PARSED_KEPT:
            _NOUNS[key] = found
    return found


_NOUNS: dict[str, Message] = {}


_DOMAINS: dict[str, frozenset[str]] = {}


def declare_domain(domain: str, values: Iterable[str]) -> None:
    """Declare the values :func:`noun` may be given for ``domain`` (merged with earlier ones)."""
    _DOMAINS[domain] = _DOMAINS.get(domain, frozenset()) | frozenset(values)


def domains() -> dict[str, frozenset[str]]:
    """Every declared vocabulary: domain -> the values it may name."""
    return dict(_DOMAINS)


def _param_json(value: Param) -> Any:
    if isinstance(value, Message):
        return value.to_json()
    if isinstance(value, list | tuple):
        return [_param_json(v) for v in value]
    return value


def from_json(data: Mapping[str, Any]) -> Message:
    """The message a :meth:`Message.to_json` dict describes."""
    return Message(
        str(data["key"]), {k: _from_json_param(v) for k, v in dict(data.get("params") or {}).items()}
    )


def _from_json_param(value: Any) -> Param:
    if isinstance(value, dict) and "key" in value:
        return from_json(value)
    if isinstance(value, list):
        return [_from_json_param(v) for v in value]
    return value


def render(msg: str | Mapping[str, Any], lang: str = DEFAULT_LANG) -> str:
    """``msg`` (a :class:`Message`, its JSON form, or a plain string) in ``lang``."""
    if isinstance(msg, Message):
        return msg.render(lang)
    if isinstance(msg, Mapping):
        return from_json(msg).render(lang)
    return str(msg)


# --- catalogues ------------------------------------------------------------------------------


def _catalogue_files(lang: str) -> list[Any]:
    files = [resources.files("ziggurat.engine") / "messages" / f"{lang}.json"]
    games = resources.files("ziggurat.games")
    for entry in sorted(games.iterdir(), key=lambda e: e.name):
        candidate = entry / "messages" / f"{lang}.json"
        if entry.is_dir() and candidate.is_file():
            files.append(candidate)
    return files


@cache
def catalogue(lang: str) -> dict[str, str]:
    """Every message pattern of ``lang``: the engine's catalogue and each game's, merged.

    Raises ``ValueError`` for a language we do not have, or a key two catalogues both define.
    """
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; languages: {', '.join(LANGS)}")
    merged: dict[str, str] = {}
    for path in _catalogue_files(lang):
        data = json.loads(path.read_text(encoding="utf-8"))
        clash = sorted(set(data) & set(merged))
        if clash:
            raise ValueError(f"message {clash[0]!r} is defined twice ({path})")
        merged.update(data)
    return merged


def pattern(key: str, lang: str) -> str:
    """The pattern of ``key`` in ``lang``; raises ``KeyError`` naming the key if it is missing."""
    patterns = catalogue(lang)
    if key not in patterns:
        raise KeyError(f"no {lang} message {key!r}")
    return patterns[key]


@cache
def _locale(lang: str) -> Locale:
    return Locale.parse(lang)


def plural_category(n: float, lang: str) -> str:
    """CLDR plural category of ``n`` in ``lang`` (``one``, ``other`` ...)."""
    return str(_locale(lang).plural_form(abs(n)))


# --- formatting ------------------------------------------------------------------------------


def format_pattern(text: str, params: Mapping[str, Param], lang: str) -> str:
    """Fill ``text`` (an ICU MessageFormat subset, see the module docstring) with ``params``."""
    parts = _PARSED.get(text)
    if parts is None:
        try:
            parts = _parse(text, False)
        except ValueError:  # a malformed pattern: the reading below says where, as it goes
            return _format(text, 0, params, lang, None, top=True)[0]
        if len(_PARSED) < PARSED_KEPT:
            _PARSED[text] = parts
    return _render(parts, params, lang, None)


PARSED_KEPT = 8192
"""Patterns kept parsed (:func:`format_pattern`): the catalogues' patterns, read once each."""
_PARSED: dict[str, tuple[Any, ...]] = {}
_HASH = ("#",)
"""A parsed ``#``: the number of the plural the text is a case of."""


def _parse(text: str, in_plural: bool) -> tuple[Any, ...]:
    """``text`` as parts, read once: a literal string, :data:`_HASH` (inside a plural's case
    only, as :func:`_format` reads it), or an argument ``(name, kind, cases)`` with ``kind``
    ``None`` (the value shown), ``"plural"`` or ``"select"`` and its cases parsed the same way.
    Raises ``ValueError`` where the text is malformed anywhere, even in a case a value would
    not choose; :func:`format_pattern` then formats it by :func:`_format`, which reads only
    what it shows."""
    parts: list[Any] = []
    literal: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "}":
            raise ValueError(f"unbalanced '}}' in message {text!r}")
        if ch == "#" and in_plural:
            if literal:
                parts.append("".join(literal))
                literal = []
            parts.append(_HASH)
            i += 1
            continue
        if ch != "{":
            literal.append(ch)
            i += 1
            continue
        if literal:
            parts.append("".join(literal))
            literal = []
        close = _matching(text, i)
        parts.append(_parse_argument(text[i + 1 : close]))
        i = close + 1
    if literal:
        parts.append("".join(literal))
    return tuple(parts)


def _parse_argument(body: str) -> tuple[str, str | None, dict[str, tuple[Any, ...]] | None]:
    pieces = body.split(",", 2)
    name = pieces[0].strip()
    if len(pieces) == 1:
        return (name, None, None)
    kind = pieces[1].strip()
    if kind not in ("plural", "select"):
        raise ValueError(f"unknown argument type {kind!r} in {{{body}}}")
    options = _options(pieces[2] if len(pieces) > 2 else "")
    return (name, kind, {k: _parse(v, kind == "plural") for k, v in options.items()})


def _render(parts: tuple[Any, ...], params: Mapping[str, Param], lang: str, number: float | None) -> str:
    """Parsed ``parts`` filled with ``params``: what :func:`_format` gives for their text."""
    out: list[str] = []
    for part in parts:
        if type(part) is str:
            out.append(part)
        elif part is _HASH:
            out.append(_number(number))  # type: ignore[arg-type]  # a plural's case has its number
        else:
            name, kind, cases = part
            value = _lookup(name, params, lang)
            if kind is None:
                out.append(_display(value, lang))
            elif kind == "plural":
                out.append(_render(_plural_case(name, value, cases, lang), params, lang, value))
            else:
                out.append(_render(_select_case(name, value, cases), params, lang, None))
    return "".join(out)


def _format(
    text: str, i: int, params: Mapping[str, Param], lang: str, number: float | None, top: bool
) -> tuple[str, int]:
    """Format from ``i`` to the closing brace of the current block (or the end at top level)."""
    out: list[str] = []
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "}":
            if top:
                raise ValueError(f"unbalanced '}}' in message {text!r}")
            return "".join(out), i
        if ch == "#" and number is not None:
            out.append(_number(number))
            i += 1
            continue
        if ch != "{":
            out.append(ch)
            i += 1
            continue
        close = _matching(text, i)
        out.append(_argument(text[i + 1 : close], params, lang))
        i = close + 1
    if not top:
        raise ValueError(f"unclosed '{{' in message {text!r}")
    return "".join(out), i


def _matching(text: str, i: int) -> int:
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    raise ValueError(f"unclosed '{{' in message {text!r}")


def _argument(body: str, params: Mapping[str, Param], lang: str) -> str:
    parts = body.split(",", 2)
    name = parts[0].strip()
    value = _lookup(name, params, lang)
    if len(parts) == 1:
        return _display(value, lang)
    kind = parts[1].strip()
    options = _options(parts[2] if len(parts) > 2 else "")
    if kind == "plural":
        return _format(_plural_case(name, value, options, lang), 0, params, lang, value, top=True)[0]
    if kind == "select":
        return _format(_select_case(name, value, options), 0, params, lang, None, top=True)[0]
    raise ValueError(f"unknown argument type {kind!r} in {{{body}}}")


def _plural_case(name: str, value: Param, cases: Mapping[str, T], lang: str) -> T:
    """The case of a plural argument ``name`` that ``value`` chooses: ``=N``, else its CLDR
    category in ``lang``, else ``other``."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise ValueError(f"plural parameter {name!r} is not a number: {value!r}")
    choice = cases.get(f"={_number(value)}")
    if choice is None:
        choice = cases.get(plural_category(value, lang), cases.get("other"))
    if choice is None:
        raise ValueError(f"plural {name!r} has no 'other' case")
    return choice


def _select_case(name: str, value: Param, cases: Mapping[str, T]) -> T:
    """The case of a select argument ``name`` that ``value`` chooses, else ``other``."""
    choice = cases.get(str(value), cases.get("other"))
    if choice is None:
        raise ValueError(f"select {name!r} has no case for {value!r} and no 'other'")
    return choice


def _options(text: str) -> dict[str, str]:
    """``one {...} other {...}`` -> {"one": "...", "other": "..."}."""
    out: dict[str, str] = {}
    i, n = 0, len(text)
    while i < n:
        while i < n and text[i].isspace():
            i += 1
        if i >= n:
            break
        start = i
        while i < n and text[i] != "{" and not text[i].isspace():
            i += 1
        selector = text[start:i]
        while i < n and text[i].isspace():
            i += 1
        if i >= n or text[i] != "{" or not selector:
            raise ValueError(f"bad plural/select options: {text!r}")
        close = _matching(text, i)
        out[selector] = text[i + 1 : close]
        i = close + 1
    return out


def _lookup(name: str, params: Mapping[str, Param], lang: str) -> Param:
    if name in params:
        return params[name]
    if name.endswith("_gender"):
        base = params.get(name[: -len("_gender")])
        if isinstance(base, Message):
            return catalogue(lang).get(base.key + "@gender", "other")
    raise KeyError(f"message parameter {name!r} missing (have {', '.join(sorted(params)) or 'none'})")


def _display(value: Param, lang: str) -> str:
    if isinstance(value, Message):
        # a message is its text in the default language (``Message.__new__``)
        return str.__str__(value) if lang == DEFAULT_LANG else value.render(lang)
    if isinstance(value, list | tuple):
        return ", ".join(_display(v, lang) for v in value)
    if isinstance(value, float | int) and not isinstance(value, bool):
        return _number(value)
    return str(value)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


# --- checks used by the tests ----------------------------------------------------------------


def arguments(text: str) -> set[str]:
    """Names of the parameters ``text`` uses (``x_gender`` included as written)."""
    names: set[str] = set()
    i = 0
    while i < len(text):
        if text[i] == "{":
            close = _matching(text, i)
            parts = text[i + 1 : close].split(",", 2)
            names.add(parts[0].strip())
            if len(parts) > 2:
                for choice in _options(parts[2]).values():
                    names |= arguments(choice)
            i = close + 1
        else:
            i += 1
    return names


def missing_keys(keys: Sequence[str]) -> list[tuple[str, str]]:
    """``(lang, key)`` for each of ``keys`` that a language lacks."""
    return [(lang, key) for lang in LANGS for key in keys if key not in catalogue(lang)]
