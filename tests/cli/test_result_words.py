"""The results of ``arena``, ``solve fan``, ``solve morris``, ``review``, ``balance`` and
``moderate`` in the terminal's language: their tables' headings and row labels and their
sentences in French with ``--lang fr``, in the pseudo-language with none of their templates'
English words left, the numbers as written, and the English as it was without ``--lang``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fanfold.cli.app import app
from fanfold.games.morris import GAME as MORRIS
from fanfold.games.morris import Adjacency
from fanfold.play.assistance import AssistanceStats, verdict
from fanfold.play.setup import play_game
from fanfold.server import i18n
from fanfold.server.i18n_catalogues import extract
from fanfold.server.store import Store
from fanfold.solvers import morris as solver
from tests.cli.test_moderate_accounts import _fill
from tests.server.support import sqlite_url

runner = CliRunner()
PLAIN = {"LC_ALL": "", "LC_MESSAGES": "", "LANG": "", "COLUMNS": "240"}
FRENCH = i18n.messages("fr")
PSEUDO = i18n.messages(i18n.PSEUDO)


def _module_words(*places: str) -> set[str]:
    """The English words (four letters or more) of the messages the catalogues place in
    ``places`` (``cli/arena.py``), their parameters left out."""
    found: set[str] = set()
    for message in extract():
        if not message.id or not isinstance(message.id, str):
            continue
        if any(place in places for place, _ in message.locations):
            written = re.sub(r"%\(\w+\)s|\{\w+\}", " ", message.id)
            found.update(re.findall(r"[A-Za-z]{4,}", written))
    return found


def _pseudo(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--lang fr`` words the terminal in the pseudo-language."""
    chosen = i18n.messages

    def pseudo_for_french(code: str) -> i18n.Messages:
        return PSEUDO if code == "fr" else chosen(code)

    monkeypatch.setattr(i18n, "messages", pseudo_for_french)


def _left(output: str, words: set[str], kept: tuple[str, ...] = ()) -> set[str]:
    """The words of ``words`` still in ``output``, the values as typed (``kept``) left out."""
    for value in kept:
        output = output.replace(value, " ")
    return {word for word in words if re.search(rf"\b{word}\b", output)}


ARENA = ["arena", "morris", "--agents", "random,easy,mcts(iterations=5)", "--games", "2"]
ARENA_KEPT = ("Fano330-R-Morris", "random", "easy", "mcts(iterations=5)")


def test_the_arenas_results_are_french_with_lang() -> None:
    french = runner.invoke(app, [*ARENA, "--lang", "fr"], env=PLAIN)
    assert french.exit_code == 0, french.output
    out = french.output
    assert "Fano330-R-Morris : 6 parties depuis la graine 1" in out
    assert "| agent " in out
    assert "| parties |" in out
    assert "intervalle à 95 %" in out
    assert "Face à face (dans les parties jouées par les deux" in out
    assert "random contre easy" in out
    assert "Longueur moyenne d\u2019une partie : " in out
    assert re.search(r"\d+\.\d% \|", out)  # the numbers as written
    for english in ("games from seed", "Head to head", "Mean game length", "| games |", " vs "):
        assert english not in out, english
    plain = runner.invoke(app, ARENA, env=PLAIN)
    assert "Fano330-R-Morris: 6 games from seed 1" in plain.output
    assert "| agent " in plain.output
    assert "| games |" in plain.output
    assert "Head to head (in the games both played, the higher return wins):" in plain.output
    assert "random vs easy" in plain.output


def test_the_arenas_results_leave_no_english_word_in_the_pseudo_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _pseudo(monkeypatch)
    said = runner.invoke(app, [*ARENA, "--lang", "fr"], env=PLAIN)
    assert said.exit_code == 0, said.output
    words = _module_words("cli/arena.py") - {"agents", "comma", "separated", "list"}
    assert {"seed", "Head", "Mean", "interval", "rating"} <= words
    assert not _left(said.output, words, ARENA_KEPT), said.output


def test_a_fan_deals_verdict_is_french_with_lang() -> None:
    french = runner.invoke(app, ["solve", "fan", "--deal", "1", "--lang", "fr"], env=PLAIN)
    assert french.exit_code == 0, french.output
    assert re.search(
        r"Fan \(classic\) donne 1 : insoluble : \d+ positions explorées en \d\.\d{3} s",
        french.output,
    )
    plain = runner.invoke(app, ["solve", "fan", "--deal", "1"], env=PLAIN)
    assert re.search(
        r"Fan \(classic\) deal 1: unsolvable: \d+ positions searched in \d\.\d{3} s", plain.output
    )


def test_a_fan_census_is_french_and_leaves_no_english_word_in_the_pseudo_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    results = tmp_path / "census.jsonl"
    args = ["solve", "fan", "--deals", "1-3", "--results", str(results), "--lang", "fr"]
    french = runner.invoke(app, args, env=PLAIN)
    assert french.exit_code == 0, french.output
    text = " ".join(french.output.split())
    assert "Fan (classic), 3 donnes : " in text
    assert "résolues" in text
    assert "deals:" not in text
    _pseudo(monkeypatch)
    pseudo = runner.invoke(app, args, env=PLAIN)
    assert pseudo.exit_code == 0, pseudo.output
    words = _module_words("cli/solve_fan.py") - {"deal", "deals", "board"}
    assert {"solved", "unsolvable", "unknown", "Wilson", "median"} <= words
    kept = ("classic", str(results), str(tmp_path))
    assert not _left(pseudo.output, words, kept), pseudo.output


@pytest.fixture
def morris_table(monkeypatch: pytest.MonkeyPatch, morris_cache: Path) -> None:
    """The geometric Morris table, solved once a session in the tests' cache."""
    solver.load_table(Adjacency.GEOMETRIC, cache_dir=morris_cache)
    monkeypatch.setenv(solver.CACHE_ENV, str(morris_cache))


def test_the_morris_solvers_report_is_french_with_lang(morris_table: None) -> None:
    french = runner.invoke(app, ["solve", "morris", "--lang", "fr"], env=PLAIN)
    assert french.exit_code == 0, french.output
    out = french.output
    assert "Fano330-R-Morris, adjacence geometric : 2,462,182 positions légales" in out
    assert "Départ (-/-/-/-/-/-/- w) : Blanc joue : " in out
    assert "Meilleurs premiers coups : " in out
    assert "atteignables depuis le départ" in out
    assert "déplacem" in out  # the phase (the table may cut it to its width)
    assert "chargée depuis " in out
    for english in ("legal positions", "Best first moves", "movement", "loaded from", "Time:"):
        assert english not in out, english
    plain = runner.invoke(app, ["solve", "morris"], env=PLAIN)
    assert "2,462,182 legal positions (1,639,939 reachable from the start)" in plain.output
    assert "Best first moves: " in plain.output


def test_a_morris_positions_moves_leave_no_english_word_in_the_pseudo_language(
    morris_table: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    position = ["solve", "morris", "--position", "C/-/tc/-/-/-/T b", "--lang", "fr"]
    french = runner.invoke(app, position, env=PLAIN)
    assert french.exit_code == 0, french.output
    assert "chaque coup, le meilleur d\u2019abord" in french.output
    assert "Meilleurs coups : " in french.output
    assert " in " not in french.output  # each move's value worded ("gagne en ...")
    _pseudo(monkeypatch)
    for args in (position, ["solve", "morris", "--lang", "fr"]):
        said = runner.invoke(app, args, env=PLAIN)
        assert said.exit_code == 0, said.output
        words = _module_words("cli/solve_morris.py")
        words |= {"plies", "perfect", "play"}
        assert {"Best", "moves", "positions", "reachable"} <= words
        kept = ("Fano330-R-Morris", "geometric", "C/-/tc/-/-/-/T b", "-/-/-/-/-/-/- w")
        cache = str(solver.cache_path(Adjacency.GEOMETRIC).parent)
        assert not _left(said.output, words, (*kept, cache)), said.output


def test_a_reviews_table_and_summary_are_french_and_pseudo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = play_game(MORRIS, None, ["medium", "easy"], agent_seed=1).finish()
    path = tmp_path / "morris.json"
    record.save(path)
    french = runner.invoke(app, ["review", str(path), "--lang", "fr"], env=PLAIN)
    assert french.exit_code == 0, french.output
    out = french.output
    assert f"graine {record.seed}, {len(record.actions)} coups ; revue des moteurs" in out
    assert "résultat moins bon" in out
    assert "Blanc" in out
    for english in ("worse result", "engine review", " moves;", "White"):
        assert english not in out, english
    _pseudo(monkeypatch)
    said = runner.invoke(app, ["review", str(path), "--lang", "fr"], env=PLAIN)
    assert said.exit_code == 0, said.output
    words = _module_words("cli/review.py")
    words |= {"White", "Black", "plies"}
    assert {"seed", "engine", "review", "worse", "result", "before", "after"} <= words
    kept = ("Fano330-R-Morris", str(tmp_path))
    assert not _left(said.output, words, kept), said.output


def test_the_assistance_verdicts_are_phrases_worded_in_french() -> None:
    few = verdict(AssistanceStats(games=1, critical=3, matched=2))
    assert str(few.sentence).startswith("Not enough evidence: 3 critical positions over 1 game;")
    assert FRENCH.text(few.sentence).startswith(
        "Pas assez d\u2019éléments : 3 positions critiques sur 1 partie ;"
    )
    assert "[" in PSEUDO.text(few.sentence)
    many = verdict(AssistanceStats(games=9, critical=60, matched=60))
    assert many.flagged
    assert FRENCH.text(many.sentence).startswith(
        "Signalé à un modérateur : 60 des 60 positions critiques sur 9 parties (100.0%)"
    )
    left = _left(PSEUDO.text(many.sentence), _module_words("terminal/assistance.flagged"))
    assert not left


def test_moderates_lists_and_lines_are_french_and_pseudo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(sqlite_url(tmp_path))
    _fill(store)
    store.close()
    url = sqlite_url(tmp_path)
    commands = [
        ["grant", "alice"],
        ["revoke", "alice"],
        ["close", "bob", "--note", "abuse"],
        ["reopen", "bob", "--note", "heard"],
        ["flags"],
        ["reports", "--all"],
        ["appeals"],
        ["log"],
    ]
    said = []
    for command in commands:
        done = runner.invoke(app, ["moderate", *command, "--db", url, "--lang", "fr"], env=PLAIN)
        assert done.exit_code == 0, (command, done.output)
        said.append(done.output)
    text = "\n".join(said)
    assert "alice est désormais modérateur." in text
    assert "bob est fermé : " in text
    assert "Signalements de jeu loyal, les plus récents d\u2019abord" in text
    assert "signalement 1, " in text
    assert "  note : rude" in text
    assert "recours 1, " in text
    assert "  fait : " in text
    # the log's "done" is what the store recorded, in the words it was recorded in
    worded = "\n".join(said[:-1])
    for english in ("is a moderator now", "session(s) ended", "newest first", "reported by"):
        assert english not in worded, english
    _pseudo(monkeypatch)
    done = runner.invoke(app, ["moderate", "reports", "--all", "--db", url, "--lang", "fr"])
    assert done.exit_code == 0, done.output
    assert not _left(done.output, {"report", "reported", "table", "seat", "moves", "filed"})
    empty = tmp_path / "empty"
    empty.mkdir()
    Store(sqlite_url(empty)).close()
    none = runner.invoke(app, ["moderate", "assistance", "--db", sqlite_url(empty), "--lang", "fr"])
    assert none.exit_code == 0, none.output
    assert not _left(none.output, {"account", "finished", "rated", "game"}, ("Fano330-R-Morris",))


def test_a_seats_agent_asked_out_of_turn_is_refused_with_a_code() -> None:
    """A front end asking the agent of a seat that does not decide now (a caller's mistake):
    the refusal is a code, worded in French and in the pseudo-language."""
    from fanfold.core.errors import TurnError
    from fanfold.play.setup import new_table

    table = new_table(MORRIS, None, ["easy", "easy"], seed=1)
    waiting = 1 - (table.decider or 0)
    with pytest.raises(TurnError) as caught:
        table.agent_choice(waiting)
    error = caught.value
    assert error.refusal is not None
    assert error.refusal.code == "table.agent_not_now"
    assert str(error) == "Black's agent does not decide now"
    assert FRENCH.text(error) == "l\u2019agent de Noir ne décide pas maintenant"
    pseudo = PSEUDO.text(error)
    assert not _left(pseudo, {"agent", "does", "decide", "now"}), pseudo
