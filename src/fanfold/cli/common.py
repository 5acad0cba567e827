"""Helpers shared by the command-line modules."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NoReturn

import typer
from rich.console import Console

from fanfold.core.errors import FanfoldError
from fanfold.core.registry import AnyGame, set_up

if TYPE_CHECKING:
    from fanfold.server.i18n import Messages

console = Console(highlight=False, soft_wrap=True)
error_console = Console(stderr=True, highlight=False, soft_wrap=True)


def fail(message: str, code: int = 2, words: Messages | None = None) -> NoReturn:
    """Print ``message`` as an error and exit with ``code``; ``words``: the terminal's
    language (``fanfold play --lang``), which words the error's label ("erreur : ...")."""
    if words is None:
        said = f"error: {message}"
    else:
        said = words.gettext("error: %(message)s") % {"message": message}
    error_console.print(said, markup=False)
    raise typer.Exit(code)


def terminal_words() -> Messages:
    """The words of the command being run: its ``--lang``'s, else the locale's
    (:func:`fanfold.cli.help_words.chosen_words`)."""
    from fanfold.cli.help_words import chosen_words

    return chosen_words()


def refused(error: FanfoldError, code: int = 2) -> NoReturn:
    """Exit with ``error`` said as an error in the terminal's language (its refusal worded from
    its code where it has one: :meth:`fanfold.server.i18n.Messages.text`)."""
    words = terminal_words()
    fail(words.text(error), code, words=words)


def said(message: str, code: int = 2, **params: object) -> NoReturn:
    """Exit with the command's own refusal ``message`` (English, ``%(name)s`` for each of
    ``params``; marked for the catalogues where it is written: ``gettext("...")``), worded in
    the terminal's language."""
    words = terminal_words()
    fail(words.gettext(message) % params, code, words=words)


def parse_options(options: list[str] | None, words: Messages | None = None) -> dict[str, str]:
    """``["name=value", ...]`` into a dict, with a clear error for anything else (in the
    language of ``words`` where given)."""
    result: dict[str, str] = {}
    for item in options or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            if words is None:
                fail(f"--option takes name=value, not {item!r}")
            refused = words.gettext("--option takes name=value, not %(item)s")
            fail(refused % {"item": repr(item)}, words=words)
        result[name.strip()] = value.strip()
    return result


def game_and_config(
    game_name: str,
    variant: str | None = None,
    players: int | None = None,
    options: list[str] | None = None,
    words: Messages | None = None,
) -> tuple[AnyGame, Any]:
    """Resolve the game, its preset, a player count and ``name=value`` options, or exit
    (saying why in the language of ``words`` where given: an unknown game, variant or option,
    a value it does not take, each worded from its refusal's code)."""
    try:
        return set_up(game_name, variant, parse_options(options, words), players)
    except FanfoldError as error:
        fail(str(error) if words is None else words.text(error), words=words)
