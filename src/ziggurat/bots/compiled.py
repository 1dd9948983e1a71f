"""``mypyc_attr``, the decorator by which a class of the compiled build allows subclasses in
plain Python (docs/speed.md, "What the compiled build asks of the code").

mypyc reads the decorator as it compiles; at run time it does nothing. It comes from
``mypy_extensions``, which is there wherever mypy is (and so wherever the compiled build is
made) but is no dependency of a plain install: there, a stand-in that leaves the class as
it is takes its place.
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


def _same(cls: T) -> T:
    return cls


def _no_attributes(*args: object, **kwargs: object) -> Any:
    """The stand-in for ``mypyc_attr(...)``: a decorator that returns the class unchanged."""
    return _same


try:
    from mypy_extensions import mypyc_attr
except ImportError:
    mypyc_attr = _no_attributes  # type: ignore[assignment]


__all__ = ["mypyc_attr"]
