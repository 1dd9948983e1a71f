"""Extension modules for the compiled build; everything else is in pyproject.toml.

With ``ZIGGURAT_COMPILE=1`` (``ZIGGURAT_COMPILE=1 pip install .``), mypyc compiles the modules
below into C extensions: the engine's base state and the rules every decision goes through
(legal actions, apply, clone). The same sources run as plain Python otherwise, which is the
default and what the tests run; docs/speed.md describes both builds.

``ZIGGURAT_COMPILE_OPT`` (0-3, default 3) is the C compiler's optimisation level: it changes how
fast the compiled code runs and how long the C compiler takes (about twice as long at 3 as
at 1), never what the code does. The test of the compiled build builds at 1. GCC's check of
misleading indentation is turned off: on mypyc's one large C file it took most of the C
compiler's time (docs/speed.md).

mypyc compiles a copy of the package (under ``build/``) in which the compiled modules' classes
have no ``__slots__``: a compiled class has fixed fields of its own and refuses them, while
plain Python is faster and smaller with them.
"""

from __future__ import annotations

import os
import re
import runpy
import shutil
from pathlib import Path

from setuptools import setup

COMPILED: dict[str, tuple[str, ...]] = runpy.run_path("src/ziggurat/engine/build.py")["COMPILED"]
"""The compiled modules, by package (``ziggurat.engine.build.COMPILED``, read without importing
the package)."""


SLOTS = re.compile(r"^    __slots__ = (?:\((?:[^()]|\n)*?\)|[A-Z_]+)(?:  # fmt: skip)?\n", re.MULTILINE)
"""A class's ``__slots__`` statement: a tuple (on one line or several) or a module constant."""


def compiled_sources(root: Path) -> list[str]:
    """Copy the package to ``root`` with the compiled modules' ``__slots__`` left out; the
    compiled modules' paths there."""
    if root.exists():
        shutil.rmtree(root)
    shutil.copytree("src/ziggurat", root / "ziggurat", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    paths = []
    for package, modules in COMPILED.items():
        for module in modules:
            path = root.joinpath(*package.split("."), f"{module}.py")
            path.write_text(SLOTS.sub("", path.read_text(encoding="utf-8")), encoding="utf-8")
            paths.append(str(path))
    return paths


def opt_level() -> str:
    """The C optimisation level asked for by ``ZIGGURAT_COMPILE_OPT`` (default 3)."""
    level = os.environ.get("ZIGGURAT_COMPILE_OPT", "3")
    if level not in ("0", "1", "2", "3"):
        raise SystemExit(f"ZIGGURAT_COMPILE_OPT must be 0, 1, 2 or 3, not {level!r}")
    return level


ext_modules = []
if os.environ.get("ZIGGURAT_COMPILE", "") == "1":
    level = opt_level()  # a wrong level stops the build before anything is compiled
    from mypyc.build import mypycify

    ext_modules = mypycify(compiled_sources(Path("build/mypyc_src")), opt_level=level)
    if os.name != "nt":  # GCC and Clang (mypyc's own flags are theirs there too)
        for ext in ext_modules:
            # mypyc writes one C file of some 580,000 lines; GCC's -Wall check of misleading
            # indentation took three quarters of its time on it at -O0 and -O1 (117 s of 145),
            # and a warning changes nothing in the code
            ext.extra_compile_args.append("-Wno-misleading-indentation")

setup(ext_modules=ext_modules)
