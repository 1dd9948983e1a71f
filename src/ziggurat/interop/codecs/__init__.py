"""One action codec per game (see :mod:`ziggurat.interop.codec` and ``docs/interop.md``)."""
