"""The balance lab: experiments over many seeded games, answered with intervals and pictures.

* :mod:`fanfold.balance.experiment`: what to play (a game, variants to compare, the players
  with their per-player action restrictions, games, seed), from a TOML file or the command
  line;
* :mod:`fanfold.balance.report`: the counts, intervals, tests, comparisons between variants,
  and the Markdown/HTML report with its pictures.

The games are played by the play layer's arena worker on the batch runner
(:mod:`fanfold.play.batch`): processes on this machine or a Ray cluster, with the same results
for the same seed whatever the backend and the worker count.
"""

from __future__ import annotations

from pathlib import Path

from fanfold.balance.experiment import Experiment, build_experiment, load_experiment
from fanfold.balance.report import Summary, summarize, write_report
from fanfold.core.config import JSONObject
from fanfold.play.arena import GAME_ROW_FIELDS, play_arena_game
from fanfold.play.batch import ProgressCallback, run_batch


def run_experiment(
    experiment: Experiment,
    *,
    workers: int = 1,
    ray: str | None = None,
    results: Path | None = None,
    progress: ProgressCallback | None = None,
) -> list[JSONObject]:
    """Play every game of ``experiment``; one row per game, in job order. ``results`` makes
    the run resumable (rows found there are reused)."""
    return run_batch(
        play_arena_game,
        experiment.jobs(),
        workers=workers,
        ray=ray,
        results=results,
        progress=progress,
        fields=GAME_ROW_FIELDS,
    )


__all__ = [
    "Experiment",
    "Summary",
    "build_experiment",
    "load_experiment",
    "run_experiment",
    "summarize",
    "write_report",
]
