"""Notation helpers shared by the games: an action's kind is its first word."""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def group_by_kind(legal: Sequence[str], kinds: Mapping[str, str]) -> list[tuple[str, list[str]]]:
    """Legal actions grouped by kind (first word), kinds in order of first appearance, each
    titled ``"kind: description"`` from ``kinds`` (the kind alone repeated when unknown)."""
    groups: dict[str, list[str]] = {}
    for action in legal:
        groups.setdefault(action.split(" ", 1)[0], []).append(action)
    return [(f"{kind}: {kinds.get(kind, kind)}", acts) for kind, acts in groups.items()]
