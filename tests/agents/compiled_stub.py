"""A game's warm-up for the tests of :mod:`fanfold.agents.strategy.compiled`, run in its
compiling subprocess: it notes its process in the file ``$STUB_NOTES`` names, fails when
``$STUB_FAIL`` is set, and first sleeps ``$STUB_SLEEP`` seconds when that is set (a long
compile)."""

from __future__ import annotations

import os
import time
from pathlib import Path


def warm_up() -> None:
    """Note this process's id (the subprocess's, or the caller's when it loads)."""
    time.sleep(float(os.environ.get("STUB_SLEEP", "0")))
    if os.environ.get("STUB_FAIL"):
        raise RuntimeError("the warm-up failed on purpose")
    with Path(os.environ["STUB_NOTES"]).open("a") as notes:
        notes.write(f"{os.getpid()}\n")
