"""The refusals and lines of ``deploy``, ``keys`` and ``check-config`` in the terminal's
language (each a :class:`fanfold.cli.common.Said`: a template and its parameters, the English
sentence as it was), and a source check that the commands whose results and refusals are worded
write no finished English sentence where they print or refuse."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fanfold.cli.app import app
from fanfold.cli.common import Said, worded
from fanfold.server import i18n

runner = CliRunner()
PLAIN = {"LC_ALL": "", "LC_MESSAGES": "", "LANG": "", "COLUMNS": "400"}
FRENCH = i18n.messages("fr")
PSEUDO = i18n.messages(i18n.PSEUDO)
SOURCE = Path(__file__).resolve().parents[2] / "src" / "fanfold" / "cli"

#: The command modules whose output and refusals speak the terminal's language.
WORDED = [
    "arena.py",
    "balance.py",
    "check_config.py",
    "deploy.py",
    "deploy_backup.py",
    "deploy_group.py",
    "deploy_logs.py",
    "deploy_monitoring.py",
    "deploy_systemd.py",
    "keys.py",
    "moderate.py",
    "review.py",
    "serve.py",
    "solve_fan.py",
    "solve_morris.py",
]
#: The modules whose functions return their findings as sentences.
RETURNED = {"check_config.py"}
#: Where a sentence is printed, refused or titled.
SAID = {"print", "echo", "fail", "add_column", "Table", "progress_bar", "ValueError"}
SAID |= {"CheckError", "FanfoldError", "BadParameter", "Exit", "say"}


def _written_out(node: ast.expr | None) -> bool:
    """Whether ``node`` is a sentence written out: a string or an f-string (or strings joined)
    whose own text holds a word and a space (a URL's scheme is no sentence)."""
    if isinstance(node, ast.BinOp):
        return _written_out(node.left) or _written_out(node.right)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return bool(re.search(r"[A-Za-z]{3,}", node.value)) and " " in node.value
    if isinstance(node, ast.JoinedStr):
        return any(_written_out(part) for part in node.values if isinstance(part, ast.Constant))
    return False


def _english_sentences(path: Path) -> list[str]:
    """Where ``path`` prints, refuses or titles with a sentence written out, or returns one
    (``check_config``'s findings), instead of a template the catalogues hold."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            if name not in SAID:
                continue
            first = node.args[2:3] if name == "say" else node.args[:1]  # say(log, level, line)
            given = [*first, *(k.value for k in node.keywords if k.arg == "title")]
            if any(_written_out(arg) for arg in given):
                found.append(f"{path.name}:{node.lineno}")
        elif isinstance(node, ast.Return) and _written_out(node.value) and path.name in RETURNED:
            found.append(f"{path.name}:{node.lineno}")
    return found


def test_the_worded_commands_print_and_refuse_no_sentence_written_out() -> None:
    """A new ``console.print(f"...")``, ``fail("...")``, ``ValueError(f"...")`` or table
    title in these modules fails here: write it as ``Said("...")``, ``gettext("...")`` or
    ``N_("...")``."""
    found = [where for name in WORDED for where in _english_sentences(SOURCE / name)]
    assert found == []


def test_the_source_check_finds_a_sentence_written_out(tmp_path: Path) -> None:
    written = tmp_path / "check_config.py"
    written.write_text(
        "console.print(f'wrote {out}', markup=False)\n"
        "raise ValueError(f'--user {user!r} is no user name')\n"
        "table = Table(title='Points given back')\n"
        "fail('cannot ' + why)\n"
        "console.print(worded(Said('wrote %(out)s', out=out)))\n"
        "console.print(f'{said % params}\\n  {note}')\n"
        "say(log, logging.INFO, f'{name} is not ready; going on')\n"
        "def found() -> str:\n"
        "    return f'the store at {shown} answers'\n"
    )
    assert _english_sentences(written) == [
        "check_config.py:1",
        "check_config.py:2",
        "check_config.py:3",
        "check_config.py:4",
        "check_config.py:7",
        "check_config.py:9",
    ]


def test_a_said_is_its_english_sentence_and_is_worded_in_french() -> None:
    said = Said("--user %(user)s is no user name", user="'x y'")
    assert said == "--user 'x y' is no user name"
    assert isinstance(said, str)
    assert (
        worded(ValueError(said), FRENCH) == "--user 'x y' n\u2019est pas un nom d\u2019utilisateur"
    )
    inner = Said("its check is not on the health port %(health)s", health=9001)
    outer = Said("%(said)s, and haproxy -c accepts it", said=[inner, inner])
    assert str(outer).startswith("its check is not on the health port 9001; its check")
    assert worded(outer, FRENCH).startswith(
        "sa vérification n\u2019est pas sur le port de santé 9001; sa vérification"
    )
    assert Said("--dir %(folder)s: letters and _@%%+=", folder="x") == "--dir x: letters and _@%+="


#: Each refusal or line: its command line, words of its French, its English.
LINES = {
    "deploy processes": (
        ["deploy", "haproxy", "--processes", "99"],
        "--processes doit être de 1 à 64",
        "--processes must be 1 to 64 (fanfold serve's), not 99",
    ),
    "deploy peers": (
        ["deploy", "haproxy", "--processes", "2", "--peers", "nope"],
        "--peers s\u2019écrit NOM=HÔTE:PORT, pas 'nope'",
        "--peers takes NAME=HOST:PORT, not 'nope'",
    ),
    "systemd user": (
        ["deploy", "systemd", "--processes", "1", "--user", "root", "--out", "/tmp/x"],
        "--user 'root' : un nom d\u2019utilisateur, pas root",
        "--user 'root': a user name, not root",
    ),
    "check-config processes": (
        ["check-config", "--processes", "3", "--no-store"],
        "erreur : les options de fanfold serve : --processes 3 demande un stockage PostgreSQL",
        "error: fanfold serve's options: --processes 3 needs a PostgreSQL store",
    ),
    "check-config ok": (
        ["check-config", "--no-store", "--port", "8100"],
        "ok : les options de fanfold serve : 1 processus sur 127.0.0.1, port 8100",
        "ok: fanfold serve's options: 1 process on 127.0.0.1, ports 8100",
    ),
}


@pytest.mark.parametrize("name", sorted(LINES))
def test_deploy_and_check_config_say_their_lines_in_french(name: str) -> None:
    args, french, english = LINES[name]
    said = runner.invoke(app, [*args, "--lang", "fr"], env=PLAIN)
    assert french in " ".join(said.output.split()), said.output
    assert english not in said.output
    plain = runner.invoke(app, args, env=PLAIN)
    assert plain.exit_code == said.exit_code
    assert english in " ".join(plain.output.split()), plain.output


@pytest.mark.parametrize("name", sorted(LINES))
def test_deploy_and_check_config_leave_no_english_word_in_the_pseudo_language(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    chosen = i18n.messages
    monkeypatch.setattr(i18n, "messages", lambda code: PSEUDO if code == "fr" else chosen(code))
    args, _french, english = LINES[name]
    said = runner.invoke(app, [*args, "--lang", "fr"], env=PLAIN)
    # the parts as typed (options, values, addresses) are no template's words
    text = re.sub(r"--[\w-]+|'[^']*'|\d+(\.\d+)*|fanfold serve|PostgreSQL", " ", said.output)
    words = set(re.findall(r"[A-Za-z]{4,}", re.sub(r"--[\w-]+|'[^']*'", " ", english)))
    words -= {"fanfold", "serve", "PostgreSQL"}
    assert words, name
    assert not {word for word in words if re.search(rf"\b{word}\b", text)}, said.output


def test_keys_rotate_says_its_line_in_french(tmp_path: Path) -> None:
    from fanfold.server.store import Store
    from tests.server.support import sqlite_url

    Store(sqlite_url(tmp_path)).close()
    key_file = tmp_path / "keys"
    key_file.write_text("a" * 64 + "\n", encoding="utf-8")
    args = ["keys", "rotate", "--key-file", str(key_file), "--db", sqlite_url(tmp_path)]
    french = runner.invoke(app, [*args, "--lang", "fr"], env=PLAIN)
    assert french.exit_code == 0, french.output
    text = " ".join(french.output.split())
    assert "prend la clé de signature d\u2019empreinte " in text
    assert "(aucune avant) : relancez fanfold serve --key-file" in text
    plain = runner.invoke(app, args, env=PLAIN)
    assert plain.exit_code == 0, plain.output
    assert "takes the signing key with fingerprint " in plain.output


def _pseudo_left(error: BaseException, kept: tuple[str, ...]) -> set[str]:
    """The English words of ``error``'s template still in its pseudo-language wording."""
    english = i18n.messages(i18n.ENGLISH)
    refusal = getattr(error, "refusal", None)
    assert refusal is not None, str(error)
    template = re.sub(r"\{\w+\}", " ", english.codes[refusal.code])
    words = set(re.findall(r"[A-Za-z]{4,}", template)) - {"fanfold", "keys", "rotate"}
    text = PSEUDO.text(error)
    for value in kept:
        text = text.replace(value, " ")
    return {word for word in words if re.search(rf"\b{word}\b", text)}


def test_a_key_files_and_a_stores_refusals_are_codes_worded_in_french(tmp_path: Path) -> None:
    from fanfold.server.signing_keys import KeyFileError, mismatch, read_key_file
    from fanfold.server.store.engine import open_error

    short = tmp_path / "short"
    short.write_text("abc\n", encoding="utf-8")
    empty = tmp_path / "empty"
    empty.write_text("# none\n", encoding="utf-8")
    for path, french in [
        (tmp_path / "missing", "le fichier de clés {path} ne peut pas être lu : "),
        (short, "le fichier de clés {path} a une clé de 3 caractères à la ligne 1 : "),
        (empty, "le fichier de clés {path} ne contient aucune clé"),
    ]:
        with pytest.raises(KeyFileError) as caught:
            read_key_file(path)
        assert FRENCH.text(caught.value).startswith(french.format(path=path))
        assert str(caught.value).startswith(f"the key file {path} ")
        # the system's reason inside stays as the system says it
        assert not _pseudo_left(caught.value, (str(path), "No such file or directory"))
    other = mismatch(short, "aaaa", "bbbb")
    assert str(other).startswith(f"the signing key (the first line of {short}, fingerprint aaaa)")
    assert FRENCH.text(other).startswith("la clé de signature (la première ligne de ")
    assert not _pseudo_left(other, (str(short),))
    store = open_error("sqlite:////no/such/fanfold.db", OSError("file is not a database"))
    assert str(store) == (
        "the store at sqlite:////no/such/fanfold.db cannot be opened: file is not a database"
    )
    assert FRENCH.text(store) == (
        "le stockage sqlite:////no/such/fanfold.db ne peut pas être ouvert : file is not a "
        "database"  # the database's own reason, as it says it
    )
    assert not _pseudo_left(store, ("file is not a database",))


def test_keys_and_check_config_refuse_a_key_file_in_french(tmp_path: Path) -> None:
    from fanfold.server.store import Store
    from tests.server.support import sqlite_url

    Store(sqlite_url(tmp_path)).close()
    key_file = tmp_path / "keys"
    key_file.write_text("short\n", encoding="utf-8")
    args = ["keys", "rotate", "--key-file", str(key_file), "--db", sqlite_url(tmp_path)]
    french = runner.invoke(app, [*args, "--lang", "fr"], env=PLAIN)
    assert french.exit_code == 2, french.output
    assert f"erreur : le fichier de clés {key_file} a une clé de 5 caractères" in french.output
    checked = runner.invoke(
        app,
        ["check-config", "--key-file", str(key_file), "--db", sqlite_url(tmp_path), "--lang", "fr"],
        env=PLAIN,
    )
    text = " ".join(checked.output.split())
    assert f"erreur : la clé de signature : le fichier de clés {key_file} a une clé" in text
    plain = runner.invoke(app, args, env=PLAIN)
    assert f"error: the key file {key_file} has a key of 5 characters" in plain.output


def test_check_config_words_serve_options_usage_errors() -> None:
    """``fanfold serve``'s own usage errors, as check-config reports them, from click's
    templates too."""
    french = runner.invoke(app, ["check-config", "--port", "x", "--lang", "fr"], env=PLAIN)
    text = " ".join(french.output.split())
    assert "erreur : les options de fanfold serve : Valeur non valable pour '--port' : " in text
    assert "Invalid value" not in text
    plain = runner.invoke(app, ["check-config", "--port", "x"], env=PLAIN)
    assert "error: fanfold serve's options: Invalid value for '--port': " in plain.output
