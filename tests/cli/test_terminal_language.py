"""The terminal's language (``fanfold play --lang``, else ``LC_ALL``, ``LC_MESSAGES``,
``LANG``): its own words and the refusals of the rules, the notation and the records worded
from the play server's catalogues."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fanfold.cli.app import app
from fanfold.cli.terminal import terminal_language
from fanfold.core.errors import FanfoldError
from fanfold.core.registry import get_game
from fanfold.games.morris import Adjacency
from fanfold.play.analysis import analyses_for
from fanfold.server import i18n
from fanfold.solvers.morris import MorrisTable

runner = CliRunner()
HOTSEAT = ["play", "morris", "--seat", "human", "--seat", "human", "--seed", "1"]
#: An environment that names no language.
PLAIN = {"LC_ALL": "", "LC_MESSAGES": "", "LANG": ""}


@pytest.mark.parametrize(
    ("chosen", "environ", "language"),
    [
        ("fr", {}, "fr"),
        ("FR", {"LANG": "en_GB.UTF-8"}, "fr"),
        ("en", {"LC_ALL": "fr_FR.UTF-8"}, "en"),
        (None, {"LANG": "fr_FR.UTF-8"}, "fr"),
        (None, {"LANG": "fr"}, "fr"),
        (None, {"LC_MESSAGES": "fr_CA.UTF-8", "LANG": "en_US.UTF-8"}, "fr"),
        (None, {"LC_ALL": "en_US.UTF-8", "LC_MESSAGES": "fr_FR", "LANG": "fr_FR"}, "en"),
        (None, {"LC_ALL": "", "LANG": "fr_BE@euro"}, "fr"),
        (None, {"LC_MESSAGES": "de_DE.UTF-8", "LANG": "fr_FR.UTF-8"}, "en"),  # no catalogue
        (None, {"LANG": "C.UTF-8"}, "en"),
        (None, {"LANG": "POSIX"}, "en"),
        (None, {}, "en"),
    ],
)
def test_the_language_is_lang_then_the_locale_variables_then_english(
    chosen: str | None, environ: dict[str, str], language: str
) -> None:
    assert terminal_language(chosen, environ) == language


def test_a_language_without_a_catalogue_is_refused_with_the_choices() -> None:
    with pytest.raises(FanfoldError, match=r"one of en \(English\), fr \(Français\), not 'de'"):
        terminal_language("de", {})
    result = runner.invoke(app, [*HOTSEAT, "--lang", "de"], input="quit\n", env=PLAIN)
    assert result.exit_code == 2
    assert "error: --lang is one of en (English), fr (Français), not 'de'" in result.output
    assert "White" not in result.output  # refused before any game
    # refused in the language of the locale, which the terminal speaks
    french = runner.invoke(
        app,
        ["legal", "morris", "-p", "-/-/-/-/-/-/- w", "--lang", "xx"],
        env={**PLAIN, "LANG": "fr_FR"},
    )
    assert french.exit_code == 2
    assert (
        "erreur : --lang vaut l\u2019une de ces langues : en (English), fr (Français), pas 'xx'"
        in french.output
    )


def test_the_terminal_speaks_french_its_words_and_the_refusals(tmp_path: Path) -> None:
    path = tmp_path / "partie.json"
    typed = "\n".join(["bogus", "3-5", "legal", "undo", "C1", "undo", f"save {path}", "quit"])
    result = runner.invoke(app, [*HOTSEAT, "--lang", "fr"], input=typed + "\n", env=PLAIN)
    assert result.exit_code == 0, result.output
    output = result.output
    assert "Morris (morris.v1), graine 1. Tapez «\u00a0help\u00a0» pour l\u2019aide." in output
    # a notation error and a rule's refusal, each worded from its code
    assert "Pas joué : «\u00a0bogus\u00a0» n\u2019est pas un coup de Morris" in output
    assert "Not played" not in output
    assert "Pas joué : " in output.split("bogus")[1]  # 3-5 is refused too
    assert "Coups légaux : C1  C2" in output
    # nothing to take back before a move; the move taken back after it
    assert output.index("Rien à reprendre.") < output.index("Dernier coup repris.")
    assert f"Enregistrement sauvé dans {path}" in output
    assert "Partie laissée inachevée." in output
    assert "Blanc (humain)> " in output  # the seat's name and who holds it
    assert path.exists()


def test_a_record_that_cannot_be_saved_is_said_and_the_game_goes_on(tmp_path: Path) -> None:
    """``save`` to a folder that is not there: the session says why, in its language, and
    plays on (the next move is played, a later save works); ``--record`` there at the end
    says so too instead of failing."""
    missing = tmp_path / "absent" / "partie.json"
    kept = tmp_path / "partie.json"
    typed = "\n".join([f"save {missing}", "C1", f"save {kept}", "quit"])
    args = [*HOTSEAT, "--record", str(missing), "--lang", "fr"]
    result = runner.invoke(app, args, input=typed + "\n", env=PLAIN)
    assert result.exit_code == 0, result.output
    refused = f"Impossible de sauver l\u2019enregistrement dans {missing} : "
    assert result.output.count(refused) == 2  # the command, then --record at the end
    assert f"Enregistrement sauv\u00e9 dans {kept}" in result.output
    assert json.loads(kept.read_text(encoding="utf-8"))["actions"] == ["C1"]
    assert not missing.parent.exists()
    english = runner.invoke(app, HOTSEAT, input=f"save {missing}\nquit\n", env=PLAIN)
    assert english.exit_code == 0, english.output
    assert f"Could not save the record to {missing}: " in english.output


def test_the_locale_chooses_french_and_english_stays_as_it_was() -> None:
    french = runner.invoke(
        app, HOTSEAT, input="help\nbogus\nquit\n", env={**PLAIN, "LANG": "fr_FR.UTF-8"}
    )
    assert french.exit_code == 0, french.output
    assert "Commandes : legal (les coups légaux)" in french.output
    assert "Pas joué : " in french.output
    english = runner.invoke(app, HOTSEAT, input="help\nbogus\nquit\n", env=PLAIN)
    assert english.exit_code == 0, english.output
    assert "Commands: legal (list legal moves)" in english.output
    assert "Not played: 'bogus' is not a Morris move" in english.output
    assert "Game left unfinished." in english.output
    assert "White (human)> " in english.output


def test_a_game_between_bots_ends_in_french() -> None:
    played = runner.invoke(
        app,
        ["play", "morris", "--seat", "random", "--seat", "random", "--seed", "3", "--lang", "fr"],
        env=PLAIN,
    )
    assert played.exit_code == 0, played.output
    assert "Partie terminée : " in played.output
    assert "Game over" not in played.output
    assert " joue " in played.output  # "Joueur … (random) joue C1"


def test_replay_says_in_french_why_a_record_does_not_load_and_how_a_game_went(
    tmp_path: Path,
) -> None:
    broken = tmp_path / "cassé.json"
    record = {
        "format": "fanfold.record/1",
        "game": "morris.v1",
        "config": {"adjacency": "geometric"},
        "seed": 0,
        "actions": ["C1", "C1", "C1"],
    }
    broken.write_text(json.dumps(record), encoding="utf-8")
    refused = runner.invoke(app, ["replay", str(broken), "--lang", "fr"], env=PLAIN)
    assert refused.exit_code == 2
    assert "le coup 3 («\u00a0C1\u00a0») ne se rejoue pas : " in refused.output
    forged = tmp_path / "faux.json"
    forged.write_text('{"format": "fanfold.record/2", "seed": 7}', encoding="utf-8")
    wrong = runner.invoke(app, ["replay", str(forged)], env={**PLAIN, "LC_ALL": "fr_FR.UTF-8"})
    assert wrong.exit_code == 2
    assert "la «\u00a0seed\u00a0» de l\u2019enregistrement doit être une chaîne" in wrong.output
    saved = tmp_path / "partie.json"
    record["actions"] = ["C1"]
    saved.write_text(json.dumps(record), encoding="utf-8")
    shown = runner.invoke(app, ["replay", str(saved), "--lang", "fr"], env=PLAIN)
    assert shown.exit_code == 0, shown.output
    assert "   1. Blanc : C1" in shown.output
    assert "résultat : la partie est inachevée" in shown.output
    assert "L\u2019enregistrement se rejoue selon les règles." in shown.output


def _codes(value: object) -> set[str]:
    """The codes of a phrase or a refusal and of every one inside it."""
    params = getattr(value, "params", None)
    if not isinstance(value, str) or not isinstance(params, dict):
        return set()
    found = {str(value.code)}  # type: ignore[attr-defined]
    for inner in params.values():
        found |= _codes(inner)
    return found


def _words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-zÀ-ÿ\u2019']{3,}", text))


#: A terminal game of each game, a human seated: the command line and what is typed.
GAMES = {
    "morris": [*HOTSEAT],
    "fan": ["play", "fan", "--seat", "human", "--seed", "4"],
    "fantan": [
        *("play", "fantan", "--players", "3", "--seat", "human"),
        *("--seat", "random", "--seat", "random", "--seed", "5", "--agent-seed", "1"),
    ],
    "fano": [
        *("play", "fano", "--players", "3", "--seat", "human"),
        *("--seat", "random", "--seat", "random", "--seed", "6", "--agent-seed", "1"),
    ],
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_french_game_draws_its_board_status_and_help_without_english(name: str) -> None:
    """The codes the game's drawing, status line and help use (its first position, as the
    seat sees it), each code's English words that its French does not also use (the notation
    and the typed commands stay as they are): none of them is in the French session, and some
    are in the English one, so that the check can fail."""
    game = get_game(name)
    args = GAMES[name]
    seed = int(args[args.index("--seed") + 1])
    players = int(args[args.index("--players") + 1]) if "--players" in args else None
    config = (
        game.default_config()
        if players is None
        else game.with_players(game.default_config(), players)
    )
    state = game.new_state(config, seed)
    shown: list[object] = [game.describe(state), game.notation_help()]
    for seat in range(game.num_players(config)):
        shown += [piece for line in game.drawing(game.observe(state, seat)) for piece in line]
    shown += [analysis.help for analysis in analyses_for(game).values()]
    shown += [help_text for help_text, _ in game.reference_texts().values()]
    codes = set().union(*(_codes(piece) for piece in shown))
    assert codes, name
    english, french = i18n.messages("en"), i18n.messages("fr")
    templates = [english.codes[code] for code in codes]
    translated = " ".join(french.gettext(template) for template in templates)
    assert all(french.texts.get(template) for template in templates), name
    # the words a player types (the analyses' and the reference texts' names) and the game's
    # id are not translated
    typed_words = {*analyses_for(game), *game.reference_texts(), game.name}
    foreign = set().union(*(_words(t) for t in templates)) - _words(translated) - typed_words
    assert len(foreign) >= 3, (name, foreign)
    typed = "help\nboard\nquit\n"
    said = runner.invoke(app, [*args, "--lang", "fr"], input=typed, env=PLAIN)
    assert said.exit_code == 0, said.output
    left = sorted(foreign & _words(said.output))
    assert not left, (name, left, said.output)
    # the same session in English says them: the check above is not empty
    plain = runner.invoke(app, args, input=typed, env=PLAIN)
    assert plain.exit_code == 0, plain.output
    assert len(foreign & _words(plain.output)) >= 3, (name, foreign)


@pytest.mark.parametrize(
    ("args", "french", "english"),
    [
        (
            ["play", "nogame"],
            "erreur : aucun jeu ne s\u2019appelle «\u00a0nogame\u00a0» ; jeux : fan, fano, "
            "fantan, morris",
            "error: no game called 'nogame'; games: fan, fano, fantan, morris",
        ),
        (
            ["legal", "nogame", "-p", "x"],
            "erreur : aucun jeu ne s\u2019appelle «\u00a0nogame\u00a0»",
            "error: no game called 'nogame'",
        ),
        (
            ["play", "morris", "-v", "nope"],
            "erreur : Fano330-R-Morris n\u2019a pas de variante «\u00a0nope\u00a0» ; variantes : "
            "geometric, complete",
            "error: Fano330-R-Morris has no variant 'nope'; variants: geometric, complete",
        ),
        (
            ["play", "morris", "-o", "bogus=1"],
            "erreur : option inconnue «\u00a0bogus\u00a0» ; connues : adjacency",
            "error: unknown option 'bogus'; known: adjacency",
        ),
        (
            ["play", "morris", "-o", "adjacency=zzz"],
            "erreur : l\u2019option adjacency prend l\u2019une des valeurs geometric, "
            "complete, pas 'zzz'",
            "error: option adjacency must be one of geometric, complete, not 'zzz'",
        ),
        (
            ["play", "fantan", "-o", "hands=x"],
            "erreur : l\u2019option hands est un nombre entier, pas 'x'",
            "error: option hands must be a whole number, not 'x'",
        ),
        (
            ["play", "fantan", "-o", "start_rank=0"],
            "erreur : start_rank va de 1 \u00e0 13, pas 0",
            "error: start_rank must be from 1 to 13, not 0",
        ),
        (
            ["play", "fantan", "-n", "12"],
            "erreur : Fan Tan se joue de 3 à 8 joueurs, pas 12",
            "error: Fan Tan is for 3 to 8 players, not 12",
        ),
        (
            ["play", "morris", "-n", "3"],
            "erreur : Fano330-R-Morris se joue à 2 joueurs",
            "error: Fano330-R-Morris is for 2 players",
        ),
        (
            ["play", "fan", "--seed", "-1"],
            "erreur : les graines et les num\u00e9ros de donne valent 0 ou plus, pas -1",
            "error: seeds and deal numbers are 0 or more, not -1",
        ),
        (
            ["play", "morris", "--seat", "human", "--seat", "human", "--seat", "human"],
            "erreur : 3 places donn\u00e9es mais Fano330-R-Morris en a 2 ici",
            "error: 3 seats given but Fano330-R-Morris has 2 here",
        ),
        (
            ["play", "morris", "-o", "x"],
            "erreur : --option s\u2019écrit nom=valeur, pas 'x'",
            "error: --option takes name=value, not 'x'",
        ),
        (
            ["play", "morris", "--seat", "mcts(nope=1)"],
            "erreur : agent mcts : option inconnue «\u00a0nope\u00a0» ; connues : deals,",
            "error: agent mcts: unknown option 'nope'; known: deals,",
        ),
        (
            ["play", "morris", "--seat", "mcts(iterations=abc)"],
            "erreur : agent mcts : l\u2019option iterations est un nombre entier, pas 'abc'",
            "error: agent mcts: option iterations must be a whole number, not 'abc'",
        ),
        (
            ["play", "morris", "--seat", "nobody"],
            "erreur : aucun agent ne s\u2019appelle «\u00a0nobody\u00a0» ; agents : random,",
            "error: no agent called 'nobody'; agents: random,",
        ),
        (
            ["play", "morris", "--seat", "mcts(", "--seat", "human"],
            "erreur : «\u00a0mcts(\u00a0» n\u2019est pas un agent",
            "error: 'mcts(' is not an agent",
        ),
    ],
)
def test_the_cli_refuses_an_unknown_game_option_variant_or_agent_in_french(
    args: list[str], french: str, english: str
) -> None:
    """Each refusal worded from its code (``game.unknown``, ``game.no_variant``,
    ``config.*``, ``agent.*``), the label "error" too; the names typed stay as typed."""
    said = runner.invoke(app, [*args, "--lang", "fr"], input="quit\n", env=PLAIN)
    assert said.exit_code == 2, said.output
    assert french in said.output
    assert "error" not in said.output
    plain = runner.invoke(app, args, input="quit\n", env=PLAIN)
    assert plain.exit_code == 2, plain.output
    assert english in plain.output


def test_the_analyses_answer_in_french() -> None:
    """Fan's hint and winnable at the terminal in French: the move in words, the notation as
    it is typed; a deal that cannot be won said so."""
    args = ["play", "fan", "--seat", "human", "--seed", "2"]
    typed = "hint\nwinnable\nquit\n"
    french = runner.invoke(app, [*args, "--lang", "fr"], input=typed, env=PLAIN)
    assert french.exit_code == 0, french.output
    assert "Essayez A♦ de l\u2019éventail 8 vers sa fondation (8-F)." in french.output
    assert "Oui : cette position peut encore être gagnée (encore " in french.output
    assert "Try" not in french.output
    assert "Yes" not in french.output
    english = runner.invoke(app, args, input=typed, env=PLAIN)
    assert "Try A♦ from fan 8 to its foundation (8-F)." in english.output
    assert "Yes: this position can still be won (" in english.output
    lost = ["play", "fan", "--seat", "human", "--seed", "1", "--lang", "fr"]
    refused = runner.invoke(app, lost, input=typed, env=PLAIN)
    assert refused.exit_code == 0, refused.output
    assert (
        "Cette donne ne peut pas être gagnée : aucune suite de coups ne la gagne. "
        "Essayez une autre donne." in refused.output
    )
    assert "Non : aucune suite de coups ne gagne d\u2019ici (" in refused.output
    assert " positions examinées)." in refused.output


def test_morris_values_answer_in_french(
    morris_cache: Path, monkeypatch: pytest.MonkeyPatch, tables: dict[Adjacency, MorrisTable]
) -> None:
    """``values`` at the terminal in French: the side to move and its value, each move as
    notation with its value in words, the same lines as in English."""
    assert tables
    monkeypatch.setenv("FANFOLD_CACHE_DIR", str(morris_cache))
    french = runner.invoke(app, [*HOTSEAT, "--lang", "fr"], input="values\nquit\n", env=PLAIN)
    assert french.exit_code == 0, french.output
    english = runner.invoke(app, HOTSEAT, input="values\nquit\n", env=PLAIN)
    assert english.exit_code == 0, english.output
    said = french.output.split("> ", 1)[1].split("Blanc (humain)> ")[0].splitlines()
    plain = english.output.split("> ", 1)[1].split("White (human)> ")[0].splitlines()
    assert plain[0].startswith("White to move: ")
    assert said[0].startswith("Blanc joue : ")
    assert said[0].endswith(" si chacun joue parfaitement")
    assert len(said) == len(plain) == 15  # the value, then each of the 14 first moves
    values = {"draw": "nulle", "win in": "gain en", "loss in": "perte en", "plies": "demi-coups"}
    for french_line, english_line in zip(said[1:], plain[1:], strict=True):
        move, value = english_line.split(": ")
        for english_words, french_words in values.items():
            value = value.replace(english_words, french_words)
        assert french_line == f"{move} : {value}"
    assert " gain en " in french.output or " perte en " in french.output or "nulle" in french.output


def test_the_analyses_answers_are_phrases_with_french_for_each() -> None:
    """Every answer an analysis gives is a phrase whose code the catalogues translate."""
    from fanfold.play.analysis import morris_move_text, morris_value_text
    from fanfold.solvers.morris import Result, Value

    french = i18n.messages("fr")
    assert french.text(morris_value_text("loss", 1, "Black")) == (
        "Noir joue : perd en 1 demi-coup si chacun joue parfaitement"
    )
    assert morris_value_text("loss", 3, "Black") == (
        "Black to move: loses in 3 plies with perfect play"
    )
    assert french.text(morris_value_text("win", 3, "White")) == (
        "Blanc joue : gagne en 3 demi-coups si chacun joue parfaitement"
    )
    for result, distance in [(Result.WIN, 1), (Result.LOSS, 7), (Result.DRAW, None)]:
        value = Value(result, distance)
        assert morris_move_text(value) == str(value)
        assert french.text(morris_move_text(value)) != str(value)


def test_legal_speaks_french_with_lang_or_the_locale() -> None:
    position = ["legal", "morris", "--position", "C/-/-/-/-/-/- b"]
    french = runner.invoke(app, [*position, "--lang", "fr"], env=PLAIN)
    assert french.exit_code == 0, french.output
    assert "Noir joue (phase de pose)" in french.output
    assert "14 légaux : C1  C2  C3" in french.output
    assert "legal:" not in french.output
    located = runner.invoke(app, position, env={**PLAIN, "LANG": "fr_FR.UTF-8"})
    assert located.output == french.output
    english = runner.invoke(app, position, env=PLAIN)
    assert "Black to move (placement phase)" in english.output
    assert "14 legal: C1  C2  C3" in english.output
    # a position that does not parse is refused in French, from its code
    broken = runner.invoke(app, ["legal", "morris", "--position", "zz", "--lang", "fr"], env=PLAIN)
    assert broken.exit_code != 0
    assert "«\u00a0zz\u00a0»" in broken.output
    assert "not a" not in broken.output
    wrong = runner.invoke(app, [*position, "--lang", "de"], env=PLAIN)
    assert wrong.exit_code != 0
    assert "one of en (English), fr (Français)" in wrong.output


def test_replay_draws_its_positions_in_french(tmp_path: Path) -> None:
    saved = tmp_path / "partie.json"
    record = {
        "format": "fanfold.record/1",
        "game": "morris.v1",
        "config": {"adjacency": "geometric"},
        "seed": 0,
        "actions": ["C1", "c2"],
    }
    saved.write_text(json.dumps(record), encoding="utf-8")
    shown = runner.invoke(app, ["replay", str(saved), "--show", "--lang", "fr"], env=PLAIN)
    assert shown.exit_code == 0, shown.output
    assert "en main : Blanc CTT | Noir ctt" in shown.output
    assert "cercle : 1-2-4" in shown.output
    assert "in hand" not in shown.output


def test_the_terminals_own_phrases_stay_out_of_the_pages_catalogue() -> None:
    """A board's labels, a status line and the notation's help are the terminal's alone: the
    scripts' catalogue leaves them out, the terminal words them; the phrases a page words (a
    seat's name) stay in it."""
    french = i18n.messages("fr")
    scripts = json.loads(french.script_json())
    terminal = i18n.terminal_codes()
    assert {"morris.board_key", "fano.board_turn", "fantan.board_player", "fan.status"} <= terminal
    assert {"morris.notation_help", "game.over_because", "analysis.fan_hint"} <= terminal
    assert not terminal & set(scripts)
    assert scripts["fano.seat"] == "Joueur {number} ({suits})"
    assert scripts["close.moved"].startswith("la table est passée")
    key = french.worded({"code": "morris.board_key", "params": {}})
    assert key == "cercle : 1-2-4   C/T blancs, c/t noirs (de bas en haut)"


def test_fanos_plane_is_drawn_in_french_its_numbers_kept() -> None:
    args = ["play", "fano", "--seat", "human", "--seat", "random", "--seed", "1"]
    french = runner.invoke(app, [*args, "--lang", "fr"], input="plane\nquit\n", env=PLAIN)
    assert french.exit_code == 0, french.output
    assert "Le plan de Fano : 7 au centre," in french.output
    assert "  1 attaque 2 (avec 4), 3 (avec 7), 5 (avec 6)" in french.output
    assert "Cycles : 1->2->4->1 2->3->5->2" in french.output
    assert "attacks" not in french.output
    english = runner.invoke(app, args, input="plane\nquit\n", env=PLAIN)
    assert "  1 attacks 2 (with 4), 3 (with 7), 5 (with 6)" in english.output


def test_the_plays_own_refusals_of_its_options_are_french() -> None:
    games = runner.invoke(app, ["play", "fan", "--games", "0", "--lang", "fr"], env=PLAIN)
    assert games.exit_code != 0
    assert "--games vaut au moins 1" in games.output
    colours = ["play", "fan", "--white", "human", "--lang", "fr"]
    refused = runner.invoke(app, colours, env=PLAIN)
    assert "--white et --black sont pour morris" in refused.output
