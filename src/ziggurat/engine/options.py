"""Declared game options: every option's default, type and range, checked in one place.

A game declares its options as data, next to their defaults (Mesopotamia's ``data.json``,
Epochs' ``rules.json``, Mare Nostrum's ``options.json``), with a small type vocabulary:

``{"type": "int", "min": 1, "max": 12}``
    a whole number (``true``/``false`` and ``1.0`` are not), both bounds included;
``{"type": "bool"}``
    ``true`` or ``false``;
``{"type": "str", "values": ["random", "chosen"]}``
    one of the listed texts (``"max_length"`` instead of ``"values"`` for free text);
``{"type": "formula", "min": 0, "max": 60, "max_length": 80}``
    a whole number in range, or a text the game reads as a formula (its syntax is the game's);
``{"type": "list", "items": {...}, "min_items": 0, "max_items": 12, "unique": true}``
    a list whose items all match ``items``;
``{"type": "dict", "fields": {"a": {...}, "b": {...}}}``
    an object with exactly these keys;
``{"type": "dict", "keys": {...}, "values": {...}, "max_items": 8}``
    an object whose keys (texts) and values match ``keys`` and ``values``;
``{"type": "object", "max_depth": 8, "max_items": 500}``
    any JSON object, bounded in depth and size, that the game validates itself (a map);
``{"one_of": [{...}, {...}]}``
    the first alternative that matches.

Any of them may add ``"nullable": true`` (``null`` is allowed). :func:`resolve` fills in the
defaults, renames a game's old option names (its aliases) and raises :class:`OptionError`
naming the option, the value and what is allowed. :func:`markdown_table` writes the options
table of a game's docs page from the same declarations.
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Mapping
from typing import Any

from ziggurat.engine.errors import OptionError

Spec = Mapping[str, Any]

_TYPES = ("int", "bool", "str", "formula", "list", "dict", "object")
_SHOWN = 60  # characters of a refused value quoted in a message


_SPEC_KIND = {
    "int": "number",
    "bool": "bool",
    "str": "text",
    "list": "list",
    "dict": "object",
    "object": "object",
}


def _json_kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "text"
    return "list" if isinstance(value, list) else "object" if isinstance(value, dict) else "other"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


def describe(spec: Spec) -> str:
    """What ``spec`` allows, in words: ``a whole number from 1 to 12 or null``."""
    if "one_of" in spec:
        text = " or ".join(describe(s) for s in spec["one_of"])
    else:
        text = _describe_type(spec)
    return f"null or {text}" if spec.get("nullable") else text


def _describe_type(spec: Spec) -> str:
    kind = spec["type"]
    if kind == "int":
        return f"a whole number from {spec['min']} to {spec['max']}"
    if kind == "bool":
        return "true or false"
    if kind == "str":
        if "values" in spec:
            shown = ", ".join(repr(v) for v in spec["values"])
            return f"one of {shown}" if len(spec["values"]) > 1 else f"only {shown}"
        return f"a text of at most {spec['max_length']} characters"
    if kind == "formula":
        return (
            f"a whole number from {spec['min']} to {spec['max']} or a formula in n "
            f"(at most {spec['max_length']} characters)"
        )
    if kind == "list":
        least, most = spec.get("min_items", 0), spec["max_items"]
        size = f"exactly {most}" if least == most else f"{least} to {most}"
        unique = " distinct" if spec.get("unique") else ""
        return f"a list of {size}{unique} items, each {describe(spec['items'])}"
    if kind == "dict":
        if "fields" in spec:
            fields = "; ".join(f"{k}: {describe(s)}" for k, s in spec["fields"].items())
            return f"an object with exactly {{{fields}}}"
        return (
            f"an object of at most {spec['max_items']} entries, each key {describe(spec['keys'])} "
            f"and each value {describe(spec['values'])}"
        )
    return f"an object (at most {spec['max_depth']} levels deep and {spec['max_items']} values)"


def check_spec(name: str, spec: Spec) -> None:
    """Raise ``ValueError`` if a declaration is malformed (games check theirs at import)."""
    if "one_of" in spec:
        for alternative in spec["one_of"]:
            check_spec(name, alternative)
        return
    kind = spec.get("type")
    if kind not in _TYPES:
        raise ValueError(f"option {name}: type {kind!r} is not one of {', '.join(_TYPES)}")
    need = {
        "int": ("min", "max"),
        "formula": ("min", "max", "max_length"),
        "list": ("items", "max_items"),
        "object": ("max_depth", "max_items"),
    }.get(kind, ())
    missing = [k for k in need if k not in spec]
    if kind == "str" and "values" not in spec and "max_length" not in spec:
        missing.append("values or max_length")
    if kind == "dict" and "fields" not in spec and not {"keys", "values", "max_items"} <= set(spec):
        missing.append("fields, or keys, values and max_items")
    if missing:
        raise ValueError(f"option {name}: a {kind} option needs {', '.join(missing)}")
    if kind == "list":
        check_spec(f"{name}[]", spec["items"])
    elif kind == "dict" and "fields" in spec:
        for key, sub in spec["fields"].items():
            check_spec(f"{name}.{key}", sub)
    elif kind == "dict":
        check_spec(f"{name} key", spec["keys"])
        check_spec(f"{name} value", spec["values"])


def check_value(name: str, value: Any, spec: Spec) -> None:
    """Raise :class:`OptionError` unless ``value`` is allowed by ``spec``; ``name`` says where
    (``holy_stone_effect.limit_gain``)."""
    if value is None and spec.get("nullable"):
        return
    if "one_of" in spec:
        alike = [alt for alt in spec["one_of"] if _json_kind(value) == _SPEC_KIND.get(alt.get("type", ""))]
        if len(alike) == 1:  # the one alternative of the value's kind says what is wrong
            check_value(name, value, alike[0])
            return
        for alternative in spec["one_of"]:
            try:
                check_value(name, value, alternative)
            except OptionError:
                continue
            return
        raise OptionError(f"option {name}={_shown(value)}: must be {describe(spec)}")
    why = _refusal(name, value, spec)
    if why is not None:
        raise OptionError(why)


def _refusal(name: str, value: Any, spec: Spec) -> str | None:
    """The reason ``value`` is refused, or ``None``; nested values are checked recursively."""
    kind = spec["type"]
    bad = f"option {name}={_shown(value)}: must be {describe(spec)}"
    if kind == "bool":
        return None if isinstance(value, bool) else bad
    if kind == "int":
        return None if _is_int(value) and spec["min"] <= value <= spec["max"] else bad
    if kind == "str":
        if not isinstance(value, str):
            return bad
        if "values" in spec:
            return None if value in spec["values"] else bad
        return None if len(value) <= spec["max_length"] else bad
    if kind == "formula":
        if isinstance(value, str):
            return None if 0 < len(value) <= spec["max_length"] else bad
        return None if _is_int(value) and spec["min"] <= value <= spec["max"] else bad
    if kind == "list":
        return _list_refusal(name, value, spec, bad)
    if kind == "dict":
        return _dict_refusal(name, value, spec, bad)
    if not isinstance(value, dict):
        return bad
    depth, size = _depth_and_size(value, spec["max_depth"] + 1, spec["max_items"] + 1)
    return None if depth <= spec["max_depth"] and size <= spec["max_items"] else bad


def _list_refusal(name: str, value: Any, spec: Spec, bad: str) -> str | None:
    if not isinstance(value, list) or not spec.get("min_items", 0) <= len(value) <= spec["max_items"]:
        return bad
    for i, item in enumerate(value):
        check_value(f"{name}[{i}]", item, spec["items"])
    if spec.get("unique"):
        seen = [repr(v) for v in value]
        if len(set(seen)) != len(seen):
            return f"option {name}={_shown(value)}: the items must be distinct"
    return None


def _dict_refusal(name: str, value: Any, spec: Spec, bad: str) -> str | None:
    if not isinstance(value, dict):
        return bad
    if "fields" in spec:
        fields: Mapping[str, Spec] = spec["fields"]
        if set(value) != set(fields):
            return bad
        for key, sub in fields.items():
            check_value(f"{name}.{key}", value[key], sub)
        return None
    if len(value) > spec["max_items"]:
        return bad
    for key, item in value.items():
        if _refusal(f"{name} key", key, spec["keys"]) is not None:
            return f"option {name}: unknown key {_shown(key)} (keys: {describe(spec['keys'])})"
        check_value(f"{name}.{key}", item, spec["values"])
    return None


def _depth_and_size(value: Any, depth_cap: int, size_cap: int) -> tuple[int, int]:
    """Nesting depth and number of values of a JSON value, walked without recursion and
    stopping once either cap is passed (so a huge or deeply nested value costs little)."""
    deepest, count = 0, 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        count += 1
        deepest = max(deepest, depth)
        if deepest > depth_cap or count > size_cap:
            break
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
        elif isinstance(item, float) and not math.isfinite(item):
            return depth_cap + 1, count  # NaN and infinity are not JSON
    return deepest, count


def resolve(
    game_id: str,
    specs: Mapping[str, Spec],
    defaults: Mapping[str, Any],
    options: Mapping[str, Any],
    aliases: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Every option of ``specs`` with its default filled in and every given value checked.

    ``aliases`` maps old option names to current ones: a value given under an old name is
    stored under the new one, and giving both is refused.

    :raises OptionError: for an unknown option or a value its declaration does not allow.
    """
    given: dict[str, Any] = {}
    for key, value in options.items():
        name = aliases.get(key, key) if aliases else key
        if name in given:
            raise OptionError(f"option {name} is given twice (once as {key})")
        given[name] = value
    unknown = sorted(set(given) - set(specs))
    if unknown:
        raise OptionError(
            f"unknown option {unknown[0]!r} for {game_id}; known options: {', '.join(sorted(specs))}"
        )
    for key, value in given.items():
        check_value(key, value, specs[key])
    resolved = {key: copy.deepcopy(defaults[key]) for key in specs}
    resolved.update(copy.deepcopy(given))
    return resolved


def markdown_table(
    specs: Mapping[str, Spec], defaults: Mapping[str, Any], rules: Mapping[str, str] | None = None
) -> str:
    """The options table of a game's docs page: name, default, what is allowed (and the rules
    each option changes, when ``rules`` is given), one row per option in name order."""
    head = "| option | default | allowed |" + (" rules |" if rules is not None else "")
    lines = [head, "|---|---|---|" + ("---|" if rules is not None else "")]
    for name in sorted(specs):
        default = json.dumps(defaults[name], separators=(", ", ": "))
        allowed = describe(specs[name]).replace("|", "\\|")
        row = f"| `{name}` | `{default}` | {allowed} |"
        lines.append(row + (f" {rules.get(name, '')} |" if rules is not None else ""))
    return "\n".join(lines) + "\n"
