"""click's own usage errors in the terminal's language: ``fanfold backup --lang fr`` says
"Option manquante '--dir'." where click says "Missing option '--dir'.", and so for an option
no command takes, a value of the wrong kind, an argument too many, a command that does not
exist (``docs/i18n.md``).

click (typer's own copy of it) makes each such message from a few English templates as the
error is raised; :data:`USAGE` holds them, marked for the catalogues. :func:`word_usage`
words a message made from one of them: it finds the template the message was made from and
puts its parts (an option's name as typed, a value, a message inside, itself worded the same
way) into the template's translation. A message no template made (a command's own
``typer.BadParameter``, worded where it is raised) stays as it is.
:class:`fanfold.cli.help_words.WordedGroup` words an error so as it is raised, and the
error's frame (the usage line, the hint to ask for help, the panel's title) with it.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fanfold.server.i18n import Messages


def N_(message: str) -> str:  # noqa: N802  (gettext's name for a marked message)
    """``message`` as it is: marks a usage error's English template for the catalogues."""
    return message


#: The templates click and typer make their usage errors from, as they write them: each part
#: ``%(name)s`` (a part named ``message`` is a message inside, worded too; ``kind`` is one
#: of :data:`KINDS`, a path's kind).
USAGE = (
    N_("No such option: %(option)s"),
    N_("%(message)s (Possible options: %(options)s)"),
    N_("Option %(option)s does not take a value."),
    N_("Option %(option)s requires an argument."),
    N_("Option %(option)s requires %(count)s arguments."),
    N_("Argument %(argument)s takes %(count)s values."),
    N_("Missing option %(name)s."),
    N_("Missing option %(name)s. %(message)s"),
    N_("Missing option."),
    N_("Missing argument %(name)s."),
    N_("Missing argument %(name)s. %(message)s"),
    N_("Missing argument."),
    N_("Missing parameter %(name)s."),
    N_("Missing parameter %(name)s. %(message)s"),
    N_("Missing parameter."),
    N_("Choose from:%(choices)s"),
    N_("Invalid value for %(name)s: %(message)s"),
    N_("Invalid value: %(message)s"),
    N_("Got unexpected extra argument(s) (%(arguments)s)"),
    N_("No such command %(name)s."),
    N_("No such command %(name)s. Did you mean %(names)s?"),
    N_("Missing command."),
    N_("Value %(value)s is not a valid %(type)s."),
    N_("Value error, %(value)s is not one of %(choices)s."),
    N_("%(value)s is not one of %(choices)s."),
    N_("%(kind)s %(path)s does not exist."),
    N_("%(kind)s %(path)s is a file."),
    N_("%(kind)s %(path)s is a directory."),
    N_("%(kind)s %(path)s is not readable."),
    N_("%(kind)s %(path)s is not writable."),
    N_("Value must be an iterable."),
    N_("Input should be a valid integer, unable to parse string as an integer"),
    N_("Input should be a valid number, unable to parse string as a number"),
    N_("Input should be a valid boolean, unable to interpret input"),
    N_("Input should be greater than or equal to %(limit)s"),
    N_("Input should be less than or equal to %(limit)s"),
    N_("Input should be greater than %(limit)s"),
    N_("Input should be less than %(limit)s"),
)

#: The words a ``kind`` part takes: what a path is (typer's path types).
KINDS = {
    "path": N_("path"),
    "file": N_("file"),
    "directory": N_("directory"),
}

#: The words of an error's frame, as typer draws it: the panel's title and the hint to ask
#: for help (``%(command)s``: the command's help, as typed).
FRAME = {
    "error": N_("Error"),
    "try": N_("Try %(command)s for help."),
    "aborted": N_("Aborted."),
}

_PART = re.compile(r"%\((\w+)\)s")


class Usage(str):
    """A usage error's message as click made it, carried on to be worded later
    (``fanfold check-config`` reports ``fanfold serve``'s): :func:`fanfold.cli.common.worded`
    words it with :func:`word_usage`."""


@cache
def _patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    """Each template of :data:`USAGE` as a pattern that finds its parts, the most specific
    first (the one with the most written characters)."""
    made = []
    for template in USAGE:
        pattern = ""
        start = 0
        for found in _PART.finditer(template):
            pattern += re.escape(template[start : found.start()])
            name = found.group(1)
            if name == "kind":
                kinds = "|".join(re.escape(kind) for kind in sorted(KINDS, key=len, reverse=True))
                pattern += f"(?P<kind>{kinds})"
            else:
                pattern += f"(?P<{name}>.+?)" if name != "choices" else f"(?P<{name}>.*?)"
            start = found.end()
        pattern += re.escape(template[start:])
        made.append((re.compile(pattern, re.DOTALL), template))
    written = {template: len(_PART.sub("", template)) for template in USAGE}
    return tuple(sorted(made, key=lambda pair: written[pair[1]], reverse=True))


def word_usage(message: str, words: Messages) -> str:
    """``message``, made by click or typer from one of :data:`USAGE`'s templates, in the
    language of ``words``: the template's translation with the message's parts put in (a
    message inside worded the same way, a ``kind`` as a word of the catalogues, the rest as
    typed); a message no template made, as it is."""
    for pattern, template in _patterns():
        found = pattern.fullmatch(message)
        if found is None:
            continue
        parts = found.groupdict()
        if "message" in parts:
            parts["message"] = word_usage(parts["message"], words)
        if "kind" in parts:
            parts["kind"] = words.gettext(KINDS[parts["kind"]])
        return words.gettext(template) % parts
    return message
