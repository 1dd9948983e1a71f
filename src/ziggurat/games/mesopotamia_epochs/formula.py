"""Growth formulas of the rules configuration (E6.3-E6.5, R1-R3), read safely.

The options ``growth_standard``, ``growth_fast`` and ``growth_slow`` are data: either a
non-negative integer or a small formula in ``n`` (the number of areas held when the round
begins, E6.2), such as ``floor((n+1)/3)`` or ``ceil(n/2)``. The grammar is integer
arithmetic (``+ - * /`` on exact fractions, parentheses) with ``floor``, ``ceil``, ``min`` and
``max``; nothing is ever passed to ``eval``. A formula is turned into a table of values for
``n = 0 .. max_n`` once, so the hot path is a list lookup.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache

_TOKEN = re.compile(r"\s*(?:(\d+)|([a-z_]+)|(.))")
_FUNCS: dict[str, tuple[int, Callable[..., Fraction]]] = {
    "floor": (1, lambda x: Fraction(math.floor(x))),
    "ceil": (1, lambda x: Fraction(math.ceil(x))),
    "min": (2, min),
    "max": (2, max),
}

Expr = Callable[[Fraction], Fraction]


class _Parser:
    """Recursive descent over the tokens of one formula."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens: list[str] = []
        pos = 0
        stripped = text.strip()
        while pos < len(stripped):
            m = _TOKEN.match(stripped, pos)
            if m is None or m.end() == pos:
                raise ValueError(f"cannot read formula {text!r}")
            self.tokens.append(m.group(0).strip())
            pos = m.end()
        self.tokens = [t for t in self.tokens if t]
        self.i = 0

    def peek(self) -> str | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self, want: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (want is not None and tok != want):
            raise ValueError(f"formula {self.text!r}: expected {want or 'more'} at token {self.i + 1}")
        self.i += 1
        return tok

    def parse(self) -> Expr:
        expr = self.sum()
        if self.peek() is not None:
            raise ValueError(f"formula {self.text!r}: unexpected {self.peek()!r}")
        return expr

    def sum(self) -> Expr:
        left = self.product()
        while self.peek() in ("+", "-"):
            op = self.take()
            right = self.product()
            left = _bin(op, left, right)
        return left

    def product(self) -> Expr:
        left = self.unary()
        while self.peek() in ("*", "/"):
            op = self.take()
            right = self.unary()
            left = _bin(op, left, right)
        return left

    def unary(self) -> Expr:
        if self.peek() == "-":
            self.take()
            inner = self.unary()
            return lambda n: -inner(n)
        return self.atom()

    def atom(self) -> Expr:
        tok = self.take()
        if tok.isdigit():
            value = Fraction(int(tok))
            return lambda n: value
        if tok == "n":
            return lambda n: n
        if tok == "(":
            inner = self.sum()
            self.take(")")
            return inner
        if tok in _FUNCS:
            arity, func = _FUNCS[tok]
            self.take("(")
            args = [self.sum()]
            while len(args) < arity:
                self.take(",")
                args.append(self.sum())
            self.take(")")
            return lambda n: func(*(a(n) for a in args))
        raise ValueError(f"formula {self.text!r}: unknown name {tok!r} (use n, floor, ceil, min, max)")


def _bin(op: str, left: Expr, right: Expr) -> Expr:
    if op == "+":
        return lambda n: left(n) + right(n)
    if op == "-":
        return lambda n: left(n) - right(n)
    if op == "*":
        return lambda n: left(n) * right(n)

    def divide(n: Fraction) -> Fraction:
        d = right(n)
        if d == 0:
            raise ValueError("division by zero")
        return left(n) / d

    return divide


def growth_table(value: object, max_n: int, name: str) -> list[int]:
    """Values of a growth option for ``n = 0 .. max_n`` (parsed once per distinct value).

    :raises ValueError: naming the option if the value is not a non-negative integer or a
        formula giving a non-negative whole number for every ``n``.
    """
    if isinstance(value, bool):
        raise ValueError(f"option {name}={value!r}: must be an integer or a formula in n")
    if isinstance(value, str):
        return list(_formula_table(value, max_n, name))
    if isinstance(value, int):
        if value < 0:
            raise ValueError(f"option {name}={value!r}: must not be negative")
        return [value] * (max_n + 1)
    raise ValueError(f"option {name}={value!r}: must be an integer or a formula in n")


@lru_cache(maxsize=64)
def _formula_table(value: str, max_n: int, name: str) -> tuple[int, ...]:
    try:
        expr = _Parser(value).parse()
        table = [expr(Fraction(n)) for n in range(max_n + 1)]
    except ValueError as exc:
        raise ValueError(f"option {name}={value!r}: {exc}") from exc
    out = []
    for n, v in enumerate(table):
        if v.denominator != 1 or v < 0:
            raise ValueError(
                f"option {name}={value!r}: gives {v} for n={n}; growth must be a whole number >= 0"
            )
        out.append(int(v))
    return tuple(out)
