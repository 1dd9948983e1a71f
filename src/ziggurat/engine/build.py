"""Which build of the engine is running: plain Python, or the compiled build.

``ZIGGURAT_COMPILE=1 pip install .`` compiles the modules of :data:`COMPILED` into C extensions
with mypyc (``setup.py`` reads the list from here); the sources are the same, and every other
install runs them as plain Python. docs/speed.md says what each build gives.
"""

from __future__ import annotations

import importlib
from importlib.machinery import EXTENSION_SUFFIXES

COMPILED: dict[str, tuple[str, ...]] = {
    "ziggurat.engine": ("state",),
    "ziggurat.bots": ("search", "observe", "draws"),
    "ziggurat.games.mesopotamia": (
        "state", "flow", "movement", "actions", "cards", "vocabulary", "data", "notation",
        "bots_eval", "bots_model", "evaluate", "bots", "position", "view", "describe",
    ),
    "ziggurat.games.mesopotamia_epochs": (
        "state", "flow", "rounds", "placement", "allocation", "combat", "formula", "geography",
        "peoples", "data", "notation", "words", "bots_model", "bots_view", "bots_cards", "evaluate",
        "bots", "position", "view", "describe",
    ),
    "ziggurat.games.mare_nostrum": (
        "state", "flow", "payment", "buy_place", "board", "military", "trade", "production",
        "conquest", "battle", "claim", "victory", "nouns", "data", "setup", "position", "view",
        "describe",
    ),
}  # fmt: skip
"""The modules the compiled build compiles, by package: the engine's base state, the rules
every decision goes through (legal actions, apply, clone), the search and the heuristic bots
of Mesopotamia and Epochs with their evaluation (what a search's playouts spend their time in),
and each game's positions, views and log sentences (what a server works out for every action);
no renderer, server or adapter code."""


def compiled_modules() -> list[str]:
    """The modules of :data:`COMPILED` that were loaded from a C extension in this install."""
    found = []
    for package, modules in COMPILED.items():
        for name in modules:
            module = importlib.import_module(f"{package}.{name}")
            if (module.__file__ or "").endswith(tuple(EXTENSION_SUFFIXES)):
                found.append(module.__name__)
    return found


def build_name() -> str:
    """``compiled`` when every module of :data:`COMPILED` is compiled, ``plain Python`` when
    none is, ``partly compiled`` otherwise."""
    compiled = len(compiled_modules())
    if compiled == 0:
        return "plain Python"
    return "compiled" if compiled == sum(len(m) for m in COMPILED.values()) else "partly compiled"
