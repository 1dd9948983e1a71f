"""One package per game (rules, data, views, notation, rendering, bots).

Importing a subpackage such as ``ziggurat.games.mesopotamia`` makes Python bind the
attribute ``ziggurat.games`` to this package, hiding the public function
``ziggurat.games()`` (docs/architecture.md). Calling this package therefore does what the function
does, so ``ziggurat.games()`` keeps working whatever has been imported.
"""

from __future__ import annotations

import sys
import types


class _CallablePackage(types.ModuleType):
    def __call__(self) -> list[str]:
        from ziggurat.engine.registry import games

        return games()


sys.modules[__name__].__class__ = _CallablePackage
