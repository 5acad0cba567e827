"""The play layer: the one way to run a game, below every front end.

* :class:`Table` (:mod:`fanfold.play.table`): one game in progress with its seats, version,
  views, announcements, undo and record;
* :mod:`fanfold.play.setup`: seat planning, seed choice, new tables, whole games between
  agents, matches with seats rotated;
* :mod:`fanfold.play.analysis`: the position analyses each game offers (Fan's hint and
  winnable, Morris's table values);
* :mod:`fanfold.play.batch`: the batch runner (seeded, resumable, parallel, same results
  whatever the worker count) and :mod:`fanfold.play.census` on it;
* :mod:`fanfold.play.stats`: proportions with Wilson intervals, quantiles.
"""

from fanfold.play.analysis import Analysis, analyses_for
from fanfold.play.batch import Job, run_batch
from fanfold.play.setup import (
    choose_seed,
    default_agent,
    fresh_agent_seed,
    fresh_seed,
    make_seats,
    new_table,
    plan_seats,
    play_game,
    rotate_seats,
)
from fanfold.play.stats import Proportion, wilson_interval
from fanfold.play.table import HUMAN, Played, Seat, Table

__all__ = [
    "HUMAN",
    "Analysis",
    "Job",
    "Played",
    "Proportion",
    "Seat",
    "Table",
    "analyses_for",
    "choose_seed",
    "default_agent",
    "fresh_agent_seed",
    "fresh_seed",
    "make_seats",
    "new_table",
    "plan_seats",
    "play_game",
    "rotate_seats",
    "run_batch",
    "wilson_interval",
]
