"""Every ``fanfold`` command's help in the terminal's language (``fanfold --help --lang fr``,
``fanfold deploy haproxy --help`` under ``LANG=fr_FR.UTF-8``): the catalogues hold each
command's and each option's help, read from the command modules' sources; the pseudo-language
leaves none of their English words; every command takes ``--lang``, and the commands that
refuse (``arena``, ``balance``, ``solve``...) refuse in its language."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from typer.core import TyperGroup
from typer.testing import CliRunner

from fanfold.cli import help_words
from fanfold.cli.app import app
from fanfold.cli.help_words import help_texts, param_help
from fanfold.server import i18n
from fanfold.server.i18n_catalogues import extract

runner = CliRunner()
PLAIN = {"LC_ALL": "", "LC_MESSAGES": "", "LANG": "", "COLUMNS": "100"}
FRENCH_LOCALE = {**PLAIN, "LANG": "fr_FR.UTF-8"}
FRENCH = i18n.messages("fr")
PSEUDO = i18n.messages(i18n.PSEUDO)
ROOT = typer.main.get_command(app)


def _commands(
    command: typer.core.TyperCommand | TyperGroup, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], typer.core.TyperCommand | TyperGroup]]:
    yield path, command
    if isinstance(command, TyperGroup):
        for name, sub in command.commands.items():
            yield from _commands(sub, (*path, name))  # type: ignore[arg-type]


COMMANDS = dict(_commands(ROOT))  # type: ignore[arg-type]


def test_the_catalogues_hold_every_commands_help_and_french_words_each() -> None:
    texts = list(help_texts(ROOT))
    assert len(texts) > 200
    held = {message.id for message in extract() if message.id}
    assert [place for text, place in texts if text not in held] == []
    assert [place for text, place in texts if FRENCH.gettext(text) == text] == []


def test_every_command_is_worded_and_takes_lang() -> None:
    assert len(COMMANDS) > 30
    for path, command in COMMANDS.items():
        kind = (
            help_words.WordedGroup if isinstance(command, TyperGroup) else help_words.WordedCommand
        )
        assert isinstance(command, kind), path
        assert [p for p in command.params if p.name == "lang"], path


def _english_words(command: typer.core.TyperCommand | TyperGroup) -> set[str]:
    """The English words (five letters or more) of ``command``'s help and its options', and
    of the lines of the commands it lists, less what the help shows as typed: the names of
    its options and commands, their defaults, words in capitals (metavars such as DIR)."""
    texts = [command.help or "", *(param_help(p) or "" for p in command.params)]
    if isinstance(command, TyperGroup):
        texts += [sub.help or "" for sub in command.commands.values()]
    words = {
        w for text in texts for w in re.findall(r"(?<![-./_=\w])[A-Za-z]{5,}(?![\w/=_.-])", text)
    }
    typed: set[str] = set()
    if isinstance(command, TyperGroup):
        typed.update(re.findall(r"[A-Za-z]+", " ".join(command.commands)))
    for param in command.params:
        typed.update(re.findall(r"[A-Za-z]+", " ".join(getattr(param, "opts", []))))
        typed.update(re.findall(r"[A-Za-z]+", str(getattr(param, "default", ""))))
    return {w for w in words if w not in typed | TYPED and not w.isupper()}


#: Names a help writes as they are typed: an agent's (``fanfold play``'s list of them), an
#: allocator's (``fanfold serve --allocator``).
TYPED = {"random", "jemalloc"}


@pytest.mark.parametrize("path", sorted(COMMANDS), ids=lambda path: " ".join(path) or "fanfold")
def test_every_commands_help_leaves_no_english_word_in_the_pseudo_language(
    path: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The help drawn in the pseudo-language (every letter of the catalogue accented): none of
    the English words of the command's help, its options' or its commands' lines is left, so
    each came from the catalogues."""
    monkeypatch.setattr(help_words, "help_language", lambda args: PSEUDO)
    said = runner.invoke(app, [*path, "--help"], env=PLAIN)
    assert said.exit_code == 0, said.output
    shown = "\n".join(said.output.splitlines()[2:])  # the usage line: the command as typed
    words = _english_words(COMMANDS[path])
    assert words, path
    assert not {w for w in words if re.search(rf"\b{w}\b", shown)}, shown
    for frame in ("Usage:", "Options", "Show this message and exit."):
        assert frame not in said.output


#: Some commands' French help: words of it, and of its English help.
HELPS = {
    (): ("Jouer, résoudre et étudier la famille de jeux Fan", "Play, solve and study"),
    ("serve",): ("Sert fanfold dans le navigateur", "Serve fanfold in the browser"),
    ("arena",): ("Fait jouer des agents les uns contre les autres", "Play agents against"),
    ("solve",): ("Solveurs exacts", "Exact solvers"),
    ("solve", "fan"): ("Tranche une donne de Fan", "Decide a Fan deal"),
    ("deploy", "haproxy"): ("La configuration de HAProxy devant N", "HAProxy's configuration"),
    ("moderate", "close"): ("Ferme un compte", "Close an account"),
    ("keys", "rotate"): ("Accepte la première clé", "Accept the key file's first key"),
}


@pytest.mark.parametrize("path", sorted(HELPS), ids=lambda path: " ".join(path) or "fanfold")
def test_the_help_is_french_with_lang_or_the_locale_and_english_without(
    path: tuple[str, ...],
) -> None:
    french, english = HELPS[path]
    for args, env in [
        ([*path, "--help", "--lang", "fr"], PLAIN),
        ([*path, "--lang=fr", "--help"], PLAIN),
        ([*path, "--help"], FRENCH_LOCALE),
    ]:
        said = runner.invoke(app, args, env=env)
        assert said.exit_code == 0, said.output
        text = " ".join(said.output.split())
        assert french in text, (args, text)
        assert "Usage :" in text
        assert "Affiche ce message et quitte." in text
        assert english not in text
        if path in ((), ("solve",)):
            assert "Commandes" in text
    plain = " ".join(runner.invoke(app, [*path, "--help"], env=PLAIN).output.split())
    assert english in plain
    assert "Usage:" in plain
    assert "Show this message and exit." in plain


def test_a_lang_no_catalogue_speaks_is_refused_by_every_command() -> None:
    for path in [("serve",), ("deploy", "haproxy"), ("solve", "morris"), ("backup", "x")]:
        said = runner.invoke(app, [*path, "--lang", "de"], env=PLAIN)
        assert said.exit_code == 2, (path, said.output)
        assert "error: --lang is one of en (English), fr (Français), not 'de'" in said.output
    french = runner.invoke(app, ["serve", "--lang", "de"], env=FRENCH_LOCALE)
    assert (
        "erreur : --lang vaut l\u2019une de ces langues : en (English), fr (Français), pas 'de'"
        in (french.output)
    ), french.output


@pytest.mark.parametrize(
    ("args", "french", "english"),
    [
        (
            ["arena", "morris", "--agents", "random,random"],
            "erreur : random est nommé deux fois ; nommez chaque agent une fois",
            "error: random is named twice; name each agent once",
        ),
        (
            ["arena", "morris", "--agents", "random", "--games", "3"],
            "erreur : --games doit être un multiple de 2 pour que chaque agent joue",
            "error: --games must be a multiple of 2 so that every agent plays",
        ),
        (
            ["balance", "--game", "fano", "--player", "random; nope"],
            "erreur : la ligne de commande, variante 1 : joueur 'random; nope' : après « ; » "
            "écrivez forbid=KIND,KIND",
            "error: the command line, variant 1: player 'random; nope': after ';' write "
            "forbid=KIND,KIND",
        ),
        (
            ["balance", "--game", "fano", "--player", "random", "--variant", "a b"],
            "erreur : variante 'a b' : un seul préréglage par variante ('a' et 'b')",
            "error: variant 'a b': one preset a variant ('a' and 'b')",
        ),
        (
            ["solve", "fan", "--deal", "1", "--max-states", "0"],
            "erreur : --max-states vaut au moins 1",
            "error: --max-states must be at least 1",
        ),
        (
            ["solve", "fan", "--deals", "5-1"],
            "erreur : '5-1' n\u2019est pas une plage de numéros de donne (bas-haut, à partir de 0)",
            "error: '5-1' is not a range of deal numbers (low-high, from 0)",
        ),
        (
            ["restart", "--db", "sqlite:///fanfold.db"],
            "erreur : fanfold restart demande le stockage PostgreSQL du groupe",
            "error: fanfold restart needs the group's PostgreSQL store",
        ),
        (
            ["moderate", "assistance", "--db", "sqlite:///none.db", "--min-critical", "1"],
            "erreur : un verdict demande au moins 40 positions critiques sur au moins 5 parties",
            "error: a verdict needs at least 40 critical positions over at least 5 games",
        ),
        (
            ["backup", "--dir", "/dev/null/copies", "--db", "sqlite:///none.db"],
            "erreur : le dossier /dev/null/copies ne peut pas être créé : ",
            "error: the folder /dev/null/copies cannot be made: ",
        ),
        (
            ["solve", "fan"],
            "erreur : donnez exactement un de --deal N, --board FICHIER ou --deals PLAGE",
            "error: give exactly one of --deal N, --board FILE or --deals RANGE",
        ),
    ],
)
def test_the_tools_refuse_in_the_terminals_language(
    args: list[str], french: str, english: str
) -> None:
    said = runner.invoke(app, [*args, "--lang", "fr"], env=PLAIN)
    assert said.exit_code == 2, said.output
    assert french in " ".join(said.output.split()), said.output
    located = runner.invoke(app, args, env=FRENCH_LOCALE)
    assert french in " ".join(located.output.split()), located.output
    plain = runner.invoke(app, args, env=PLAIN)
    assert plain.exit_code == 2, plain.output
    assert english in " ".join(plain.output.split()), plain.output


def test_serve_says_its_own_lines_in_the_terminals_language(tmp_path: Path) -> None:
    """``fanfold serve``'s refusals of its options in French (its pages follow the browser);
    the English ones as they were."""
    url_file = tmp_path / "url"
    url_file.write_text("sqlite:///other.db\n", encoding="utf-8")
    cases = [
        (
            ["serve", "--processes", "2"],
            "erreur : --processes 2 demande un stockage PostgreSQL",
            "error: --processes 2 needs a PostgreSQL store",
        ),
        (
            ["serve", "--db", "sqlite:///one.db", "--db-file", str(url_file)],
            f"erreur : --db (sqlite:///one.db) et --db-file {url_file} (sqlite:///other.db) "
            "nomment des bases de données différentes",
            f"error: --db (sqlite:///one.db) and --db-file {url_file} (sqlite:///other.db) "
            "name different databases",
        ),
        (
            ["serve", "--port", "65535", "--health-port", "65535"],
            "erreur : --health-port 65535 et --port 65535 se chevauchent",
            "error: --health-port 65535 and --port 65535 overlap",
        ),
    ]
    for args, french, english in cases:
        said = runner.invoke(app, [*args, "--lang", "fr"], env=PLAIN)
        assert said.exit_code == 2, said.output
        assert french in " ".join(said.output.split()), said.output
        plain = runner.invoke(app, args, env=PLAIN)
        assert english in " ".join(plain.output.split()), plain.output


def test_english_help_reads_no_catalogue() -> None:
    """``fanfold --help`` in English draws the help as written: the catalogues (and babel)
    are not even imported, so the help stays as quick as before; French reads them."""
    from fanfold.cli import common

    assert common.ENGLISH == i18n.ENGLISH
    code = (
        "import sys\n"
        "from fanfold.cli.app import app\n"
        "try:\n"
        "    app(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith(('fanfold.server', 'babel'))))\n"
    )
    source = str(Path(__file__).resolve().parents[2] / "src")
    for env in (PLAIN, {**PLAIN, "LANG": "en_GB.UTF-8"}):
        ran = subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, **env, "PYTHONPATH": source},
            capture_output=True,
            text=True,
            check=True,
        )
        assert ran.stdout.strip().splitlines()[-1] == "[]", ran.stdout
    french = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, **FRENCH_LOCALE, "PYTHONPATH": source},
        capture_output=True,
        text=True,
        check=True,
    )
    assert "Commandes" in french.stdout
    assert "fanfold.server.i18n" in french.stdout.strip().splitlines()[-1]
