"""click's own usage errors in the terminal's language (:mod:`fanfold.cli.usage_words`): an
option no command takes, an option or an argument missing, a value of the wrong kind, an
argument too many, a command that does not exist; each with its frame (the usage line, the
hint to ask for help, the panel's title) in French with ``--lang fr`` or the locale, in the
pseudo-language with none of its template's English words left, and as click says it in
English."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from fanfold.cli import help_words, usage_words
from fanfold.cli.app import app
from fanfold.server import i18n

runner = CliRunner()
PLAIN = {"LC_ALL": "", "LC_MESSAGES": "", "LANG": "", "COLUMNS": "200"}
FRENCH = i18n.messages("fr")
PSEUDO = i18n.messages(i18n.PSEUDO)

#: Each usage error: its command line, the French message and click's English one.
ERRORS = {
    "no such option": (
        ["arena", "morris", "--nope"],
        "Option inconnue : --nope",
        "No such option: --nope",
    ),
    "missing option": (["backup"], "Il manque l\u2019option '--dir'.", "Missing option '--dir'."),
    "not an integer": (
        ["arena", "morris", "--games", "x"],
        "Valeur non valable pour '--games' : un nombre entier est attendu",
        "Invalid value for '--games': Input should be a valid integer",
    ),
    "requires a value": (
        ["arena", "morris", "--games"],
        "L\u2019option '--games' demande une valeur.",
        "Option '--games' requires an argument.",
    ),
    "extra arguments": (
        ["play", "morris", "extra1", "extra2"],
        "Argument(s) en trop, inattendu(s) (extra1 extra2)",
        "Got unexpected extra argument(s) (extra1 extra2)",
    ),
    "no such command": (["nope"], "Commande inconnue : 'nope'.", "No such command 'nope'."),
    "no such subcommand": (
        ["deploy", "nope"],
        "Commande inconnue : 'nope'.",
        "No such command 'nope'.",
    ),
}


def _text(output: str) -> str:
    """The output as one line: rich's panel borders and line breaks out."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", output).split())


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_each_usage_error_is_french_with_lang_or_the_locale(name: str) -> None:
    args, french, english = ERRORS[name]
    given = [args[0], "--lang", "fr", *args[1:]]  # before an option that lacks its value
    for line, env in [(given, PLAIN), (args, {**PLAIN, "LANG": "fr_FR.UTF-8"})]:
        said = runner.invoke(app, line, env=env)
        assert said.exit_code == 2, said.output
        text = _text(said.output)
        assert french in text, (line, text)
        assert english not in text
        assert " Erreur " in f" {text} "
        assert "Error" not in text
        if "Usage" in text:  # typer draws no usage line where an option lacks its value
            assert "Usage :" in text
            assert "pour l\u2019aide." in text
            assert "for help" not in text
    plain = runner.invoke(app, args, env=PLAIN)
    assert plain.exit_code == 2
    text = _text(plain.output)
    assert english in text
    assert " Error " in f" {text} "
    # an English error after a French one is English: nothing is left switched
    assert "Erreur" not in text
    assert "Essayez" not in text


def _template_words(english: str) -> set[str]:
    """The English words of the templates ``english`` was made from (its parts left out)."""
    found: set[str] = set()
    for template in usage_words.USAGE:
        pattern = re.escape(template)
        pattern = re.sub(r"%\\\(\w+\\\)s", "(.*?)", pattern)
        if re.search(pattern.replace("(.*?)", ".*?"), english, re.DOTALL):
            written = re.sub(r"%\(\w+\)s", " ", template)
            if re.sub(r"\W", "", written):
                found.update(re.findall(r"[A-Za-z]{4,}", written))
    return found


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_each_usage_error_leaves_no_english_word_in_the_pseudo_language(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the pseudo-language (every letter of the catalogues accented) none of the
    error's English words is left, its frame's included: each came from the catalogues."""
    args, _french, english = ERRORS[name]
    monkeypatch.setattr(help_words, "help_language", lambda args: PSEUDO)
    said = runner.invoke(app, args, env=PLAIN)
    assert said.exit_code == 2, said.output
    text = _text(said.output)
    words = _template_words(english) | {"Error"}
    if "Usage" in english or "sage" in text:
        words |= {"Usage", "help"}
    assert words - {"Error"}, name
    # the parts as typed (an option's name, a value, a path) are no template's words
    worded = re.sub(r"'[^']*'|--\w+|extra\d|\S*/\S*", " ", text)
    assert not {word for word in words if re.search(rf"\b{word}\b", worded)}, text
    assert "[" in text


@pytest.mark.parametrize("template", usage_words.USAGE)
def test_every_template_is_found_and_worded(template: str) -> None:
    """Each template, filled in, is found again and worded in French with its parts put in
    (a message inside worded too, a path's kind as a French word)."""
    parts = {"kind": "file", "message": "Missing command.", "choices": " a, b"}
    names = re.findall(r"%\((\w+)\)s", template)
    filled = {name: parts.get(name, f"'{name}X'") for name in names}
    english = template % filled
    french = usage_words.word_usage(english, FRENCH)
    assert french != english, template
    for name in names:
        if name == "message":
            assert "Il manque la commande." in french
        elif name == "kind":
            assert "fichier" in french
        else:
            assert filled[name] in french, (template, french)


def test_a_message_no_template_made_stays_as_it_is() -> None:
    said = "the server's own refusal, worded where it is raised"
    assert usage_words.word_usage(said, FRENCH) == said
    # the most specific template wins: a suggestion is not a bare "No such command"
    assert usage_words.word_usage("No such command 'depoly'. Did you mean 'deploy'?", FRENCH) == (
        "Commande inconnue : 'depoly'. Vouliez-vous dire 'deploy' ?"
    )


def test_the_catalogues_word_every_template_in_french() -> None:
    for template in (*usage_words.USAGE, *usage_words.KINDS.values(), *usage_words.FRAME.values()):
        assert FRENCH.gettext(template) != template, template
        parts = sorted(re.findall(r"%\(\w+\)s", template))
        assert sorted(re.findall(r"%\(\w+\)s", FRENCH.gettext(template))) == parts


def test_an_english_usage_error_reads_no_catalogue(monkeypatch: pytest.MonkeyPatch) -> None:
    """In English the error is click's own: no catalogue is read to say it."""

    def refuse(code: str) -> None:
        raise AssertionError(f"a catalogue was read: {code}")

    monkeypatch.setattr(i18n, "messages", refuse)
    said = runner.invoke(app, ["backup"], env=PLAIN)
    assert said.exit_code == 2
    assert "Missing option '--dir'." in _text(said.output)


def test_aborted_is_said_in_french_and_english_after() -> None:
    """typer's "Aborted." (the end of input at a prompt) in the command line's language."""
    import typer

    aborting = typer.Typer()

    @aborting.command()
    def ask() -> None:
        raise EOFError

    @aborting.command()
    def other() -> None:
        raise typer.Abort

    help_words.worded(aborting)
    french = runner.invoke(aborting, ["ask", "--lang", "fr"], env=PLAIN)
    assert french.exit_code == 1
    assert "Abandon." in french.output
    assert "Aborted" not in french.output
    again = runner.invoke(aborting, ["other", "--lang", "fr"], env=PLAIN)
    assert "Abandon." in again.output
    plain = runner.invoke(aborting, ["ask"], env=PLAIN)
    assert "Aborted." in plain.output
