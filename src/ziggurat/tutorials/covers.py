"""What each game's tutorial must cover: the phases of a turn (or round) and the ways to win,
as its rules spec states them. ``tutorial.json`` lists the same ids under ``covers``, and every
id is covered by some lesson (:func:`ziggurat.tutorials.validate`).

Each id maps to the rules that define it, so the docs and a reader of a tutorial file can find
the spec's text.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

Covers = Mapping[str, Mapping[str, tuple[str, ...]]]

COVERS: Final[Mapping[str, Covers]] = MappingProxyType(
    {
        # docs/rules/mesopotamia.md: M1.2 (three phases), M16.1 (the only end)
        "mesopotamia": MappingProxyType(
            {
                "phases": MappingProxyType(
                    {
                        "movement": ("M1.2", "M2", "M3", "M4", "M5", "M6", "M7"),
                        "action": ("M1.2", "M8", "M9", "M10", "M11", "M12"),
                        "mana": ("M1.2", "M13"),
                    }
                ),
                "victory": MappingProxyType({"four_offerings": ("M16.1",)}),
            }
        ),
        # docs/rules/mesopotamia-epochs.md: E2.1 (allocation, then the Peoples' rounds), E4.4
        # (the steps of a People round), E15.2 (the winner)
        "mesopotamia-epochs": MappingProxyType(
            {
                "phases": MappingProxyType(
                    {
                        "allocation": ("E3",),
                        "pool": ("E4.4", "E5", "E6"),
                        "start_placement": ("E4.4", "E7"),
                        "placement": ("E4.4", "E8", "E12"),
                        "scoring": ("E4.4", "E14"),
                    }
                ),
                "victory": MappingProxyType({"most_vp": ("E15.2",)}),
            }
        ),
        # docs/rules/mare-nostrum.md: N0.1 (five phases), N6.1-N6.4 (four ways to win)
        "mare-nostrum": MappingProxyType(
            {
                "phases": MappingProxyType(
                    {
                        "production": ("N0.1", "N1"),
                        "trade": ("N0.1", "N2"),
                        "buy_place": ("N0.1", "N3"),
                        "military": ("N0.1", "N4"),
                        "claim": ("N0.1", "N5"),
                    }
                ),
                "victory": MappingProxyType(
                    {
                        "pyramids": ("N6.1",),
                        "five_tiles": ("N6.2",),
                        "capitals": ("N6.3",),
                        "titles": ("N6.4",),
                    }
                ),
            }
        ),
    }
)
"""Per game id: ``{"phases": {id: rules}, "victory": {id: rules}}``, in the order of play."""


def covers_of(game_id: str) -> dict[str, list[str]]:
    """The ids a tutorial of ``game_id`` must list under ``covers``, in order."""
    declared = COVERS[game_id]
    return {kind: list(ids) for kind, ids in declared.items()}
