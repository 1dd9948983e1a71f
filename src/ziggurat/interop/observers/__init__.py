"""One view encoder per game (see :mod:`ziggurat.interop.observe` and ``docs/interop.md``)."""
