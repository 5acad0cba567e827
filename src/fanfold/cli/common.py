"""Helpers shared by the command-line modules."""

from __future__ import annotations

import os
from collections.abc import Mapping
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

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


#: English, the language the sources are written in (:data:`fanfold.server.i18n.ENGLISH`):
#: named here so that choosing it reads no catalogue.
ENGLISH = "en"
#: The environment variables that name the terminal's language, the first set one deciding
#: (POSIX's order: ``LC_ALL`` overrides ``LC_MESSAGES``, which overrides ``LANG``).
LANGUAGE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


def terminal_language(chosen: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The terminal's language: ``chosen`` (``--lang``) where given, else that of the first of
    :data:`LANGUAGE_VARIABLES` set (``fr_FR.UTF-8`` is French) if a catalogue speaks it,
    else English (``C`` and ``POSIX`` among others).

    Raises:
        FanfoldError: ``chosen`` is not a language of the catalogues (the list of them said).
    """
    if chosen is not None:
        from fanfold.server.i18n import LANGUAGES

        code = chosen.strip().lower()
        if code not in LANGUAGES:
            listed = ", ".join(f"{code} ({name})" for code, name in sorted(LANGUAGES.items()))
            raise FanfoldError(f"--lang is one of {listed}, not {chosen!r}")
        return code
    found = os.environ if environ is None else environ
    for name in LANGUAGE_VARIABLES:
        value = found.get(name, "")
        if value:
            primary = value.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
            if primary == ENGLISH:
                return ENGLISH
            from fanfold.server.i18n import LANGUAGES

            return primary if primary in LANGUAGES else ENGLISH
    return ENGLISH


#: The words of the command being run (:func:`choose_words`), for :func:`chosen_words`.
_WORDS: ContextVar[Messages | None] = ContextVar("fanfold_terminal_words", default=None)


def choose_words(words: Messages | None) -> None:
    """Sets the words of the command being run (those of its ``--lang``:
    :func:`fanfold.cli.help_words.lang_option`); ``None``: the locale's, worked out when
    asked for."""
    _WORDS.set(words)


def chosen_words(lang: str | None = None) -> Messages:
    """The terminal's words for ``lang`` (``--lang``'s value), else for the language ``--lang``
    chose on the command being run (:func:`choose_words`), else the locale's
    (:func:`terminal_language`); a ``--lang`` no catalogue speaks ends the command with a
    refusal that names the languages there are, in the locale's language."""
    from fanfold.server.i18n import LANGUAGES, messages

    chosen = _WORDS.get()
    if lang is None and chosen is not None:
        return chosen
    try:
        return messages(terminal_language(lang))
    except FanfoldError:
        words = messages(terminal_language(None))
        listed = ", ".join(f"{code} ({name})" for code, name in sorted(LANGUAGES.items()))
        refused = words.gettext("--lang is one of %(languages)s, not %(lang)s")
        fail(refused % {"languages": listed, "lang": repr(lang)}, words=words)


def terminal_words() -> Messages:
    """The words of the command being run: its ``--lang``'s, else the locale's
    (:func:`chosen_words`)."""
    return chosen_words()


class Said(str):
    """A command's own sentence carried as its English template (``%(name)s`` for each
    parameter; the catalogues read it where it is written, ``Said("...")``) and its
    parameters; the string itself is the English sentence, so that whatever prints or
    compares it keeps doing so. :func:`worded` says it in the terminal's language."""

    template: str
    params: dict[str, object]

    def __new__(cls, template: str, /, **params: object) -> Said:
        made = super().__new__(
            cls, template % {name: _english(value) for name, value in params.items()}
        )
        made.template = template
        made.params = params
        return made


def _english(value: object) -> object:
    """A parameter of a :class:`Said` as its English sentence says it: a list's items joined
    by "; " (a list of reasons), anything else as it is."""
    return "; ".join(str(item) for item in value) if isinstance(value, list) else value


def worded(value: object, words: Messages | None = None) -> str:
    """``value`` in the language of ``words`` (the terminal's where not given): a
    :class:`Said` from its template, each parameter worded the same way; an error carrying
    one (``ValueError(Said(...))``) by it; a list of them joined by "; "; a refusal or a
    phrase from its code; anything else as its English text."""
    words = terminal_words() if words is None else words
    if (
        isinstance(value, BaseException)
        and len(value.args) == 1
        and isinstance(value.args[0], Said)
    ):
        value = value.args[0]
    if isinstance(value, list):  # reasons, joined as the English sentence joins them
        return "; ".join(worded(item, words) for item in value)
    from fanfold.cli.usage_words import Usage, word_usage

    if isinstance(value, Usage):  # click's own message, from its templates
        return word_usage(value, words)
    if isinstance(value, Said):
        params = {name: worded(param, words) for name, param in value.params.items()}
        return words.gettext(value.template) % params
    return words.text(value)


def refused(error: object, code: int = 2) -> NoReturn:
    """Exit with ``error`` said as an error in the terminal's language (its refusal worded from
    its code where it has one: :meth:`fanfold.server.i18n.Messages.text`; a command's own
    sentence from its template: :class:`Said`)."""
    words = terminal_words()
    fail(worded(error, words), code, words=words)


def said(message: str, code: int = 2, **params: object) -> NoReturn:
    """Exit with the command's own refusal ``message`` (English, ``%(name)s`` for each of
    ``params``; marked for the catalogues where it is written: ``N_("...")``), worded in
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


#: ``--db`` of the commands that work on the server's store (``backup``, ``keys rotate``,
#: ``moderate``): the URL ``fanfold serve --db`` takes (:func:`store_url`).
StoreDb = Annotated[
    str | None, typer.Option("--db", help="The store's URL, as fanfold serve --db takes it.")
]
#: ``--db-file`` of those commands: a file holding the URL, as ``fanfold serve --db-file``'s
#: (so that a password is never on a command line, which every user sees with ``ps``).
StoreDbFile = Annotated[
    Path | None,
    typer.Option(
        "--db-file",
        metavar="PATH",
        help="A file holding the store's URL (fanfold serve's).",
    ),
]


def store_words(db: str | None, db_file: Path | None) -> str:
    """How the store was named to a command, for the command it suggests running (``fanfold
    keys rotate ...``): ``--db-file PATH``, ``--db URL`` (a password masked, never shown), or
    ``""`` (``FANFOLD_DB_URL`` or the default store, which the suggested command reads too)."""
    import shlex

    from fanfold.server.store import shown_url

    if db_file is not None:
        return f"--db-file {shlex.quote(str(db_file))}"
    if db is not None and db.strip():
        return f"--db {shlex.quote(shown_url(db.strip()))}"
    return ""


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
