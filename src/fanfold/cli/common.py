"""Helpers shared by the command-line modules."""

from __future__ import annotations

from typing import Any, NoReturn

import typer
from rich.console import Console

from fanfold.core.errors import FanfoldError
from fanfold.core.registry import AnyGame, set_up

console = Console(highlight=False, soft_wrap=True)
error_console = Console(stderr=True, highlight=False, soft_wrap=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``message`` as an error and exit with ``code``."""
    error_console.print(f"error: {message}", markup=False)
    raise typer.Exit(code)


def parse_options(options: list[str] | None) -> dict[str, str]:
    """``["name=value", ...]`` into a dict, with a clear error for anything else."""
    result: dict[str, str] = {}
    for item in options or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            fail(f"--option takes name=value, not {item!r}")
        result[name.strip()] = value.strip()
    return result


def game_and_config(
    game_name: str,
    variant: str | None = None,
    players: int | None = None,
    options: list[str] | None = None,
) -> tuple[AnyGame, Any]:
    """Resolve the game, its preset, a player count and ``name=value`` options, or exit."""
    try:
        return set_up(game_name, variant, parse_options(options), players)
    except FanfoldError as error:
        fail(str(error))
