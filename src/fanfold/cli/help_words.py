"""The help of every ``fanfold`` command in the terminal's language: ``fanfold --help --lang
fr``, ``fanfold deploy haproxy --help --lang fr``, or with ``LANG=fr_FR.UTF-8``, shows the
command's help, its options' and the help's own labels (usage, arguments, options, commands,
required, default) in French (``docs/i18n.md``).

A help text is written in English; the catalogues hold every command's and every option's
(``fanfold.server.i18n_catalogues`` reads them from the command modules' sources;
:func:`help_texts` lists them from the commands themselves), and ``N_("...")`` marks one
written apart from a command. :class:`WordedCommand` (each command) and
:class:`WordedGroup` (``fanfold`` and its groups: ``solve``, ``deploy``...) word them as the
help is drawn; :func:`worded` gives every command of an application these classes. The language
is that of ``--lang`` on the same command line where it names one, else that of the locale's
variables. Every command takes ``--lang`` (:func:`lang_option` adds it where a command has none
of its own): :func:`fanfold.cli.common.chosen_words` is then the language a command words
its refusals in.
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Annotated, Any

import typer
import typer.rich_utils as rich_help
from typer import _click as click  # typer's own click, whose commands these are
from typer.core import TyperCommand, TyperGroup

from fanfold.cli import usage_words
from fanfold.cli.common import ENGLISH, choose_words, chosen_words, terminal_language

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
    "commands": N_("Commands"),
    "required": N_("[required]"),
    "default": N_("[default: %(value)s]"),
    "help": N_("Show this message and exit."),
}


#: ``--lang``'s help, the same for every command.
LANG_HELP = N_(
    "The language the terminal speaks: en or fr (default: that of LC_ALL, "
    "LC_MESSAGES or LANG where it is one of them, else English)."
)
#: ``--lang`` as a parameter of a command's function.
LangOpt = Annotated[str | None, typer.Option("--lang", help=LANG_HELP)]


def given_language(args: list[str]) -> str | None:
    """The value of ``--lang`` among ``args`` (``--lang fr`` or ``--lang=fr``), if any."""
    for number, arg in enumerate(args):
        if arg == "--lang" and number + 1 < len(args):
            return args[number + 1]
        if arg.startswith("--lang="):
            return arg.removeprefix("--lang=")
    return None


def help_language(args: list[str]) -> Messages | None:
    """The words a command's help is drawn in: ``--lang``'s where it names a language of the
    catalogues, else the locale's (:func:`terminal_language`); a ``--lang`` no catalogue
    speaks leaves the help in the locale's language (the command itself refuses it when run).
    ``None`` for English: the help as written, no catalogue read (``fanfold --help`` stays
    quick)."""
    from fanfold.core.errors import FanfoldError

    try:
        code = terminal_language(given_language(args))
    except FanfoldError:
        code = terminal_language(None)
    if code == ENGLISH:
        return None
    from fanfold.server.i18n import messages

    return messages(code)


@contextmanager
def _frame_worded(words: Messages) -> Iterator[None]:
    """typer's labels of the help's panels in the language of ``words`` while it is drawn."""
    kept = (
        rich_help.ARGUMENTS_PANEL_TITLE,
        rich_help.OPTIONS_PANEL_TITLE,
        rich_help.COMMANDS_PANEL_TITLE,
        rich_help.REQUIRED_LONG_STRING,
        rich_help.DEFAULT_STRING,
    )
    rich_help.ARGUMENTS_PANEL_TITLE = words.gettext(FRAME["arguments"])
    rich_help.OPTIONS_PANEL_TITLE = words.gettext(FRAME["options"])
    rich_help.COMMANDS_PANEL_TITLE = words.gettext(FRAME["commands"])
    rich_help.REQUIRED_LONG_STRING = words.gettext(FRAME["required"])
    default = words.gettext(FRAME["default"]).replace("{", "{{").replace("}", "}}")
    rich_help.DEFAULT_STRING = default % {"value": "{}"}
    try:
        yield
    finally:
        (
            rich_help.ARGUMENTS_PANEL_TITLE,
            rich_help.OPTIONS_PANEL_TITLE,
            rich_help.COMMANDS_PANEL_TITLE,
            rich_help.REQUIRED_LONG_STRING,
            rich_help.DEFAULT_STRING,
        ) = kept


@contextmanager
def _helps_worded(
    words: Messages, command: click.Command, params: list[click.Parameter]
) -> Iterator[None]:
    """``command``'s help and those of ``params`` in the language of ``words`` while the help
    is drawn (a text no catalogue holds stays as it is), then as they were."""
    kept: list[Any] = [command.help, [param_help(p) for p in params]]
    command.help = words.gettext(command.help) if command.help else command.help
    for param in params:
        text = param_help(param)
        if text:
            param.help = words.gettext(text)  # type: ignore[attr-defined]
    try:
        yield
    finally:
        command.help = kept[0]
        for param, text in zip(params, kept[1], strict=True):
            if text is not None:
                param.help = text  # type: ignore[attr-defined]


class _UsageErrors:
    """A command line's usage errors worded (:func:`_usage_worded`): its arguments, for the
    language, and what the wording changed, to put back once the command is done."""

    def __init__(self, args: list[str]) -> None:
        self.args = args
        self.commands: list[_Worded] = []
        self.frame = (rich_help.ERRORS_PANEL_TITLE, rich_help.RICH_HELP, rich_help.ABORTED_TEXT)

    def word(self, error: click.ClickException) -> None:
        """``error``'s message in the command line's language (:func:`word_usage`), and its
        frame: the usage line, the hint to ask for help, the panel's title. English: as
        click says it."""
        if getattr(error, _WORDED, False):
            return
        setattr(error, _WORDED, True)
        words = help_language(self.args)
        if words is None:
            return
        text = usage_words.word_usage(error.format_message(), words)
        setattr(error, "format_message", lambda: text)  # noqa: B010  (the error's own method)
        context = getattr(error, "ctx", None)
        if isinstance(context, click.Context) and isinstance(context.command, _Worded):
            context.command.words = words
            self.commands.append(context.command)
        rich_help.ERRORS_PANEL_TITLE = words.gettext(usage_words.FRAME["error"])
        hint = words.gettext(usage_words.FRAME["try"]).replace("{", "{{").replace("}", "}}")
        rich_help.RICH_HELP = hint % {"command": "[blue]'{command_path} {help_option}'[/]"}

    def done(self) -> None:
        """Everything the wording changed as it was."""
        for command in self.commands:
            command.words = None
        rich_help.ERRORS_PANEL_TITLE, rich_help.RICH_HELP, rich_help.ABORTED_TEXT = self.frame

    def aborted(self) -> None:
        """typer's "Aborted." (end of input at a prompt) in the command line's language."""
        words = help_language(self.args)
        if words is not None:
            rich_help.ABORTED_TEXT = words.gettext(usage_words.FRAME["aborted"])


#: The usage errors of the command line being run (:meth:`WordedGroup.main`).
_USAGE: ContextVar[_UsageErrors | None] = ContextVar("fanfold_usage_errors", default=None)
#: Marks an error already worded (a group and the command under it both see it).
_WORDED = "fanfold_worded"


@contextmanager
def _usage_worded() -> Iterator[None]:
    """A usage error raised inside worded in the command line's language as it goes by."""
    try:
        yield
    except click.ClickException as error:
        errors = _USAGE.get()
        if errors is not None:
            errors.word(error)
        raise
    except (typer.Abort, EOFError):  # typer says "Aborted." for both
        errors = _USAGE.get()
        if errors is not None:
            errors.aborted()
        raise


class _Worded(click.Command):
    """What a worded command and a worded group share: ``--lang`` given where the command has
    none, the arguments kept for the help's language, the usage line's word, and click's
    usage errors worded as they are raised (:mod:`fanfold.cli.usage_words`)."""

    #: The words the help is being drawn in (set while :meth:`get_help` runs).
    words: Messages | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not any(param.name == "lang" for param in self.params):
            self.params.append(lang_option())

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta[_ARGS] = list(args)
        return super().parse_args(ctx, args)

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        with _usage_worded():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: click.Context) -> Any:
        with _usage_worded():
            return super().invoke(ctx)

    def main(self, args: Sequence[str] | None = None, *rest: Any, **extra: Any) -> Any:
        """The command line run, its usage errors worded in its language (``--lang`` among
        its arguments, else the locale's: :func:`help_language`)."""
        errors = _UsageErrors(list(sys.argv[1:] if args is None else args))
        token = _USAGE.set(errors)
        try:
            return super().main(args, *rest, **extra)  # type: ignore[safe-super]  # typer's
        finally:
            _USAGE.reset(token)
            errors.done()

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        words = self.words
        prefix = None if words is None else f"{words.gettext(FRAME['usage'])} "
        formatter.write_usage(ctx.command_path, " ".join(self.collect_usage_pieces(ctx)), prefix)


class WordedCommand(_Worded, TyperCommand):
    """A command whose help speaks the terminal's language: its own help, each parameter's
    help and the frame's words (an epilog made as the help is drawn reads :attr:`words`).
    A command with no ``--lang`` of its own is given one (:func:`lang_option`)."""

    def get_help(self, ctx: click.Context) -> str:
        words = help_language(list(ctx.meta.get(_ARGS, [])))
        if words is None:
            return super().get_help(ctx)
        self.words = words
        try:
            with _helps_worded(words, self, self.get_params(ctx)), _frame_worded(words):
                return super().get_help(ctx)
        finally:
            self.words = None


class WordedGroup(_Worded, TyperGroup):
    """``fanfold`` or a group of its commands (``solve``, ``deploy``...), whose help speaks the
    terminal's language like a :class:`WordedCommand`'s: its own help, its options', the frame
    and the line of each command it lists. It takes ``--lang`` too (for its help)."""

    def get_help(self, ctx: click.Context) -> str:
        words = help_language(list(ctx.meta.get(_ARGS, [])))
        if words is None:
            return super().get_help(ctx)
        self.words = words
        listed = [self.commands[name] for name in self.list_commands(ctx)]
        kept = [(command, command.help, command.short_help) for command in listed]
        for command in listed:
            command.help = words.gettext(command.help) if command.help else command.help
            if command.short_help:
                command.short_help = words.gettext(command.short_help)
        try:
            with _helps_worded(words, self, self.get_params(ctx)), _frame_worded(words):
                return super().get_help(ctx)
        finally:
            self.words = None
            for command, text, short in kept:
                command.help, command.short_help = text, short


def _lang_given(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    """``--lang``'s check where a command has none of its own: a language no catalogue
    speaks is refused (in the locale's language, naming the languages there are); the words
    chosen are :func:`chosen_words`'s for the rest of the command line (a group's
    ``fanfold --lang fr ...`` holds for the command under it unless that one names its own)."""
    del param
    if value is not None:
        ctx.meta[_CHOSEN] = chosen_words(value)  # refuses a language no catalogue speaks
    choose_words(ctx.meta.get(_CHOSEN))  # none chosen: the locale's, worked out when needed


#: Where a command line keeps the words ``--lang`` chose (:func:`_lang_given`); ctx.meta is
#: shared by a group's context and its command's.
_CHOSEN = "fanfold.help_words.chosen"


def lang_option() -> click.Parameter:
    """A ``--lang`` option like ``fanfold play``'s, for a command with none of its own: it
    words the command's refusals (:func:`chosen_words`) and its help."""
    made = copy.copy(_LANG_TEMPLATE)
    made.expose_value = False
    made.callback = _lang_given
    return made


def _lang_template() -> click.Parameter:
    """The option typer makes of :data:`LangOpt`, to copy."""
    holder = typer.Typer()

    @holder.command()
    def command(lang: LangOpt = None) -> None:
        del lang

    made = typer.main.get_command(holder)
    return next(param for param in made.params if param.name == "lang")


_LANG_TEMPLATE = _lang_template()


def worded(app: typer.Typer) -> None:
    """Gives every command of ``app`` and of its groups, at any depth, a worded help: the
    commands :class:`WordedCommand` (where they name no class of their own: typer's default
    is :class:`~typer.core.TyperCommand`) and the groups
    :class:`WordedGroup`."""
    app.info.cls = WordedGroup
    for command in app.registered_commands:
        if command.cls in (None, TyperCommand):  # typer's own, not a class of the command's
            command.cls = WordedCommand
    for group in app.registered_groups:
        group.cls = WordedGroup
        if group.typer_instance is not None:
            worded(group.typer_instance)


def help_texts(command: click.Command, path: str = "fanfold") -> Iterator[tuple[str, str]]:
    """Every help text of ``command`` and of the commands under it, each with its place
    (``help/fanfold/deploy/haproxy``): what the catalogues hold for the help to be worded."""
    if command.help:
        yield command.help, f"help/{path}"
    if command.short_help:
        yield command.short_help, f"help/{path}"
    for param in command.params:
        text = param_help(param)
        if text:
            yield text, f"help/{path}"
    if isinstance(command, TyperGroup):
        for name, sub in command.commands.items():
            yield from help_texts(sub, f"{path}/{name}")


def param_help(param: click.Parameter) -> str | None:
    """A parameter's help text (click's arguments have none of their own; typer's do)."""
    text = getattr(param, "help", None)
    return text if isinstance(text, str) else None
