"""``fanfold solve GAME``: the exact solvers, one sub-command per game."""

from __future__ import annotations

import typer

app = typer.Typer(
    help="Exact solvers: Fano330-R-Morris strongly solved, Fan deals decided.",
    no_args_is_help=True,
)
