"""The project's build backend: setuptools' own, plus mypyc when the compiled build is asked for.

``ZIGGURAT_COMPILE=1 pip install .`` builds the engine's rules into C with mypyc
(``setup.py`` lists the modules; docs/speed.md says why and what it gives). Only that build
needs mypy, so only that build asks for it: every other build, the editable install of the
tests included, needs setuptools alone and compiles nothing.
"""

from __future__ import annotations

import os
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403 (the backend's whole interface)

MYPYC = "mypy==2.4.1"
"""The mypy whose mypyc compiles the build: pinned, since the C it writes changes between
releases (the same pin as requirements/dev.lock)."""


def compiling() -> bool:
    """True when this build compiles the engine (``ZIGGURAT_COMPILE=1``)."""
    return os.environ.get("ZIGGURAT_COMPILE", "") == "1"


# setuptools works out its own needs by running setup.py, which imports mypyc when compiling:
# that build asks for mypyc alone (the setup.py declares no other build needs).


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    return [MYPYC] if compiling() else _setuptools.get_requires_for_build_wheel(config_settings)


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    return [MYPYC] if compiling() else _setuptools.get_requires_for_build_editable(config_settings)
