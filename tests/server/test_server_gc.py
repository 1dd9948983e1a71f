"""A server process tunes the garbage collector once its app is started (loopwatch.tune_gc)."""

from __future__ import annotations

import subprocess
import sys

from ziggurat.server.loopwatch import GC_THRESHOLDS


def test_tuning_sets_the_thresholds_and_freezes_what_is_alive() -> None:
    code = (
        "import gc\n"
        "from ziggurat.server.loopwatch import tune_gc\n"
        "before = gc.get_freeze_count()\n"
        "tune_gc()\n"
        "print(gc.get_threshold(), before, gc.get_freeze_count() > 1000)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split("\n")[0] == f"{GC_THRESHOLDS} 0 True"
