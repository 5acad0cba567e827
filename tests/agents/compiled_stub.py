"""A game's warm-up for the tests of :mod:`fanfold.agents.strategy.compiled`, run in its
compiling subprocess: it notes its process in the file ``$STUB_NOTES`` names, and fails when
``$STUB_FAIL`` is set."""

from __future__ import annotations

import os
from pathlib import Path


def warm_up() -> None:
    """Note this process's id (the subprocess's, or the caller's when it loads)."""
    if os.environ.get("STUB_FAIL"):
        raise RuntimeError("the warm-up failed on purpose")
    with Path(os.environ["STUB_NOTES"]).open("a") as notes:
        notes.write(f"{os.getpid()}\n")
