"""The help of the commands that speak the terminal's language (``fanfold play``, ``legal``,
``replay``, ``games``): ``fanfold play --help --lang fr``, or with ``LANG=fr_FR.UTF-8``, shows
the command's help, its options' and the help's own labels (usage, arguments, options,
required, default) in French (``docs/i18n.md``).

A help text is written in English as ``N_("...")``, which marks it for the catalogues
(``fanfold.server.i18n_catalogues`` reads the modules of its ``TERMINAL``) and returns it as it
is; :class:`WordedCommand` words it as the help is drawn. The language is that of ``--lang``
on the same command line where it names one, else that of the locale's variables.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import typer.rich_utils as rich_help
from typer import _click as click  # typer's own click, whose commands these are
from typer.core import TyperCommand

if TYPE_CHECKING:
    from fanfold.server.i18n import Messages

#: Where a command keeps the arguments it was given (:meth:`WordedCommand.parse_args`): the
#: help, drawn while they are read, finds ``--lang`` among them.
_ARGS = "fanfold.help_words.args"


def N_(message: str) -> str:  # noqa: N802  (gettext's name for a marked message)
    """``message`` as it is: marks an English help text for the catalogues."""
    return message


#: The words of the help's frame (typer's and click's own), worded like the rest.
FRAME = {
    "usage": N_("Usage:"),
    "arguments": N_("Arguments"),
    "options": N_("Options"),
    "required": N_("[required]"),
    "default": N_("[default: %(value)s]"),
    "help": N_("Show this message and exit."),
}


def given_language(args: list[str]) -> str | None:
    """The value of ``--lang`` among ``args`` (``--lang fr`` or ``--lang=fr``), if any."""
    for number, arg in enumerate(args):
        if arg == "--lang" and number + 1 < len(args):
            return args[number + 1]
        if arg.startswith("--lang="):
            return arg.removeprefix("--lang=")
    return None


def help_language(args: list[str]) -> Messages:
    """The words a command's help is drawn in: ``--lang``'s where it names a language of the
    catalogues, else the locale's (:func:`fanfold.cli.terminal.terminal_language`); a
    ``--lang`` no catalogue speaks leaves the help in the locale's language (the command
    itself refuses it when run)."""
    from fanfold.cli.terminal import terminal_language
    from fanfold.core.errors import FanfoldError
    from fanfold.server.i18n import messages

    try:
        return messages(terminal_language(given_language(args)))
    except FanfoldError:
        return messages(terminal_language(None))


@contextmanager
def _frame_worded(words: Messages) -> Iterator[None]:
    """typer's labels of the help's panels in the language of ``words`` while it is drawn."""
    kept = (
        rich_help.ARGUMENTS_PANEL_TITLE,
        rich_help.OPTIONS_PANEL_TITLE,
        rich_help.REQUIRED_LONG_STRING,
        rich_help.DEFAULT_STRING,
    )
    rich_help.ARGUMENTS_PANEL_TITLE = words.gettext(FRAME["arguments"])
    rich_help.OPTIONS_PANEL_TITLE = words.gettext(FRAME["options"])
    rich_help.REQUIRED_LONG_STRING = words.gettext(FRAME["required"])
    default = words.gettext(FRAME["default"]).replace("{", "{{").replace("}", "}}")
    rich_help.DEFAULT_STRING = default % {"value": "{}"}
    try:
        yield
    finally:
        (
            rich_help.ARGUMENTS_PANEL_TITLE,
            rich_help.OPTIONS_PANEL_TITLE,
            rich_help.REQUIRED_LONG_STRING,
            rich_help.DEFAULT_STRING,
        ) = kept


class WordedCommand(TyperCommand):
    """A command whose help speaks the terminal's language: its own help, each parameter's
    help and the frame's words (an epilog made as the help is drawn reads :attr:`words`)."""

    #: The words the help is being drawn in (set while :meth:`get_help` runs).
    words: Messages | None = None

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta[_ARGS] = list(args)
        return super().parse_args(ctx, args)

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        words = self.words
        prefix = None if words is None else f"{words.gettext(FRAME['usage'])} "
        formatter.write_usage(ctx.command_path, " ".join(self.collect_usage_pieces(ctx)), prefix)

    def get_help(self, ctx: click.Context) -> str:
        words = help_language(list(ctx.meta.get(_ARGS, [])))
        params = self.get_params(ctx)
        kept: list[Any] = [self.help, [param_help(p) for p in params]]
        self.words = words
        self.help = words.gettext(self.help) if self.help else self.help
        for param in params:
            text = param_help(param)
            if text:
                param.help = words.gettext(text)  # type: ignore[attr-defined]
        try:
            with _frame_worded(words):
                return super().get_help(ctx)
        finally:
            self.words = None
            self.help = kept[0]
            for param, text in zip(params, kept[1], strict=True):
                if text is not None:
                    param.help = text  # type: ignore[attr-defined]


def param_help(param: click.Parameter) -> str | None:
    """A parameter's help text (click's arguments have none of their own; typer's do)."""
    text = getattr(param, "help", None)
    return text if isinstance(text, str) else None
