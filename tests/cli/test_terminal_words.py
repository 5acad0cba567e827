"""The terminal's last English sentences, now codes and catalogue entries: an agent's own
settings refused (``agent.more_than_zero``, ``agent.one_of``...), a game's options that do
not go together (``fano.config_*``, ``fantan.config_*``), an arena request, a balance
experiment and the research environments refused (``arena.*``, ``balance.*``, ``envs.*``),
the Morris solver's progress lines (``morris.stage_*``, ``morris.table_*``), ``fanfold
games`` and the help of the commands that take ``--lang``: each worded in French and in the
pseudo-language."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fanfold.agents.base import parse_agent, with_time_cap
from fanfold.agents.perfect import PerfectAgent
from fanfold.balance.experiment import (
    build_experiment,
    load_experiment,
    parse_player,
    parse_variant_text,
)
from fanfold.cli.app import app
from fanfold.core.errors import FanfoldError, Refusal
from fanfold.core.kinds import check_names
from fanfold.core.phrases import Phrase
from fanfold.core.registry import get_game, set_up
from fanfold.envs.encodings import make_encoding
from fanfold.envs.episode import as_index
from fanfold.envs.openspiel_game import _deal_form, _options
from fanfold.games.morris import GAME, Adjacency, MorrisConfig
from fanfold.play.arena import plan_arena
from fanfold.play.batch import run_batch
from fanfold.play.census import parse_deal_ranges
from fanfold.server import i18n
from fanfold.solvers import morris as solver

runner = CliRunner()
SOURCE = Path(__file__).resolve().parents[2] / "src" / "fanfold"
PLAIN = {"LC_ALL": "", "LC_MESSAGES": "", "LANG": "", "COLUMNS": "100"}
FRENCH = i18n.messages("fr")
PSEUDO = i18n.messages(i18n.PSEUDO)

#: Where an agent checks its settings and a game its options: every ``ConfigError`` raised
#: there carries a refusal made on the spot.
CHECKED = [
    "agents/base.py",
    "agents/builtin.py",
    "agents/fan_solver.py",
    "agents/ladder/agent.py",
    "agents/ladder/exploit.py",
    "agents/mcts.py",
    "agents/perfect.py",
    "agents/pimc.py",
    "agents/planner.py",
    "games/fano/config.py",
    "games/fano/game.py",
    "games/fantan/config.py",
    "games/fan/rules.py",
]


def _english_raises(path: Path) -> list[str]:
    """Where ``path`` raises a ``ConfigError`` with anything but a ``Refusal(...)``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
            continue
        if getattr(node.exc.func, "id", "") != "ConfigError":
            continue
        first = node.exc.args[0] if node.exc.args else None
        if not (isinstance(first, ast.Call) and getattr(first.func, "id", "") == "Refusal"):
            found.append(f"{path.name}:{node.lineno}")
    return found


def test_agents_and_game_options_raise_config_errors_only_with_a_code() -> None:
    for name in CHECKED:
        assert not _english_raises(SOURCE / name), name


#: Where the tools built on the tables (the arena, the balance lab, the research
#: environments) and the action kinds refuse: no error of fanfold's is made there with a
#: finished English sentence.
TOOLS = ["balance", "envs", "core/kinds.py", "cli/solve_fan.py"]
TOOLS += ["play/arena.py", "play/batch.py", "play/census.py", "play/backends.py"]
#: fanfold's errors a caller of the library meets (:mod:`fanfold.core.errors`).
ERRORS = {
    "FanfoldError",
    "ConfigError",
    "NotationError",
    "IllegalActionError",
    "UnknownGameError",
    "UnknownAgentError",
    "TurnError",
    "StaleVersionError",
    "RecordError",
}


def _english_errors(path: Path) -> list[str]:
    """Where ``path`` makes one of fanfold's errors (raised or returned) with a sentence
    written out (a string, an f-string, strings joined) instead of a code."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") in ERRORS):
            continue
        first = node.args[0] if node.args else None
        if isinstance(first, ast.JoinedStr | ast.BinOp) or (
            isinstance(first, ast.Constant) and isinstance(first.value, str)
        ):
            found.append(f"{path.name}:{node.lineno}")
    return found


def test_the_tools_make_fanfolds_errors_only_with_a_code() -> None:
    """A new ``ConfigError(f"...")`` (or any of fanfold's errors) in the arena, the balance
    lab, the environments or the action kinds fails here."""
    paths = [
        path
        for name in TOOLS
        for path in ([SOURCE / name] if name.endswith(".py") else (SOURCE / name).rglob("*.py"))
    ]
    assert len(paths) > 10
    assert not [where for path in paths for where in _english_errors(path)]


def test_the_source_check_finds_a_sentence_written_out(tmp_path: Path) -> None:
    written = tmp_path / "example.py"
    written.write_text(
        "raise ConfigError(f'{where}: rotate is true or false')\n"
        "error = IllegalActionError('no such action')\n"
        "raise ConfigError(Refusal('balance.rotate', where='x', value='1'))\n"
    )
    assert _english_errors(written) == ["example.py:1", "example.py:2"]


def _refused(make: object) -> FanfoldError:
    with pytest.raises(FanfoldError) as caught:
        make()  # type: ignore[operator]
    return caught.value


#: Each refusal's making: bad agent settings, options that do not go together.
REFUSED = {
    "mcts(seconds=-1)": lambda: parse_agent("mcts(seconds=-1)"),
    "mcts(turn_seconds=0)": lambda: parse_agent("mcts(turn_seconds=0)"),
    "mcts(iterations=0)": lambda: parse_agent("mcts(iterations=0)"),
    "mcts(exploration=-1)": lambda: parse_agent("mcts(exploration=-1)"),
    "mcts(playout=nope)": lambda: parse_agent("mcts(playout=nope)"),
    "mcts(tree=fast)": lambda: parse_agent("mcts(tree=fast)"),
    "pimc(deals=0)": lambda: parse_agent("pimc(deals=0)"),
    "planner(nodes=-1)": lambda: parse_agent("planner(nodes=-1)"),
    "ladder(seconds=0)": lambda: parse_agent("ladder(seconds=0)"),
    "exploit(target=nope)": lambda: parse_agent("exploit(target=nope)"),
    "perfect(mistakes=2)": lambda: parse_agent("perfect(mistakes=2)"),
    "solver(mistakes=-1)": lambda: parse_agent("solver(mistakes=-1)"),
    "hard(seconds=0)": lambda: parse_agent("hard(seconds=0)"),
    "time cap": lambda: with_time_cap(parse_agent("mcts"), 0),
    "fano two_suit 3": lambda: set_up("fano", options={"two_suit": "true", "players": "3"}),
    "fano suits": lambda: set_up("fano", options={"suits": "CX"}),
    "fano trionfey 5": lambda: set_up("fano", "trionfey", {"players": "5"}),
    "fano tribute": lambda: set_up("fano", options={"tribute": "true"}),
    "fano joker_prestige": lambda: set_up("fano", options={"joker_prestige": "true"}),
    "fano two_suit with_players": lambda: get_game("fano").with_players(
        set_up("fano", options={"two_suit": "true"})[1], 3
    ),
    "fantan ante": lambda: set_up("fantan", options={"ante": "2"}),
    "fantan opening_card": lambda: set_up("fantan", options={"opening_card": "zz"}),
    "fantan opening written": lambda: set_up("fantan", options={"opening_card": "7h"}),
    "fantan opening rank": lambda: set_up("fantan", options={"opening_card": "8H"}),
    "fantan hands=0": lambda: set_up("fantan", options={"hands": "0"}),
    "fantan target one hand": lambda: set_up("fantan", options={"target": "10"}),
    "fan deal": lambda: get_game("fan").new_state(get_game("fan").default_config(), -1),
}


def _experiment(variants: list[dict[str, object]], **changed: object) -> object:
    settings: dict[str, object] = {"games": 4, "seed": 1, "rotate": True, **changed}
    return build_experiment("fano", variants, ["random"], **settings)  # type: ignore[arg-type]


#: The arena's, the balance lab's, the action kinds' and the environments' refusals; those
#: that read a file get a folder of their own (``tmp_path``).
MORRIS = get_game("morris")
FANO = get_game("fano")
REFUSED |= {
    "arena no agents": lambda: plan_arena(MORRIS, MORRIS.default_config(), [], 2),
    "arena twice": lambda: plan_arena(MORRIS, MORRIS.default_config(), ["random", "random"], 2),
    "arena games": lambda: plan_arena(MORRIS, MORRIS.default_config(), ["random"], 0),
    "arena multiple": lambda: plan_arena(MORRIS, MORRIS.default_config(), ["random"], 3),
    "arena seed": lambda: plan_arena(MORRIS, MORRIS.default_config(), ["random"], 2, -1),
    "balance keys": lambda: _experiment([{"bogus": 1}]),
    "balance games": lambda: _experiment([{}], games=0),
    "balance seed": lambda: _experiment([{}], seed=-1),
    "balance twice": lambda: _experiment([{"name": "a"}, {"name": "a"}]),
    "balance no players": lambda: build_experiment("fano", [{"players": []}], [], games=4),
    "balance too many": lambda: _experiment([{"players": ["random"] * 5}]),
    "balance rotate": lambda: _experiment([{}], games=3),
    "balance distinguishing list": lambda: _experiment([{"distinguishing": 3}]),
    "balance distinguishing kind": lambda: _experiment([{"distinguishing": ["nope"]}]),
    "balance distinguishing name": lambda: _experiment([{"distinguishing": ["1 x"]}]),
    "balance options": lambda: _experiment([{"options": 3}]),
    "balance option": lambda: _experiment([{"options": {"nope": 1}}]),
    "balance unknown game": lambda: build_experiment("nope", [], ["random"], games=4),
    "balance forbid form": lambda: parse_player("random; nope", FANO),
    "balance forbid kind": lambda: parse_player("random; forbid=nope", FANO),
    "balance player": lambda: parse_player("nope", FANO),
    "balance in variant": lambda: _experiment([{"name": "v", "players": ["nope"]}]),
    "balance idle": lambda: build_experiment(
        "fantan", [{}], ["heuristic; forbid=oversum"], games=4
    ),
    "balance one preset": lambda: parse_variant_text("trionfey classic"),
    "kinds name": lambda: check_names(["1 x"]),
    "census not a range": lambda: parse_deal_ranges("x"),
    "census bad range": lambda: parse_deal_ranges("5-1"),
    "census no deals": lambda: parse_deal_ranges(" , "),
    "batch workers": lambda: run_batch(lambda payload: payload, [], workers=0),
    "envs out of range": lambda: make_encoding("morris").action(0, 10**6),
    "envs index": lambda: as_index(1.5),
    "envs joker prestige": lambda: make_encoding("fano", joker_prestige="true"),
    "envs options": lambda: _options("nope"),
    "envs deal form": lambda: _deal_form(MORRIS, {}, "nope"),
    "envs card deal": lambda: _deal_form(MORRIS, {}, "cards"),
}
#: The refusals that read an experiment file, each from the file's text (``None``: no file).
FILES = {
    "balance missing file": None,
    "balance not toml": "game = ",
    "balance top keys": 'game = "fano"\nbogus = 1',
    "balance name the game": "games = 4",
    "balance variant tables": 'game = "fano"\nvariant = 3',
    "balance rotate flag": 'game = "fano"\nrotate = 3',
}
#: Words French writes as English does (an edition's, an option's and an experiment file's
#: key names as typed, and words spelt alike: "agents", "option", "tables", "multiple").
SAME = {"Trionfey", "Joker", "distinguishing", "options", "rotate", "players", "deals"}
SAME |= {"agents", "action", "actions", "tables", "multiple", "option", "workers"}


def _values(refusal: Refusal | None) -> list[str]:
    """The plain parameters of ``refusal`` and of each refusal inside it, longest first."""
    found: list[str] = []
    for value in (refusal.params if refusal is not None else {}).values():
        found += _values(value) if isinstance(value, Refusal) else [str(value)]
    return sorted(found, key=len, reverse=True)


def _template_words(error: FanfoldError) -> set[str]:
    """The English words of the error's templates (its own and each refusal inside it), the
    parameters left out: what a reader's language must word. A reason inside that is plain
    text (an English sentence, not a refusal) counts with its words: it is the catalogues'
    to word too."""
    found: set[str] = set()
    english = i18n.messages(i18n.ENGLISH)

    def walk(refusal: Refusal) -> None:
        template = re.sub(r"\{\w+\}", " ", english.codes[refusal.code])
        found.update(re.findall(r"[A-Za-z]{4,}", template))
        for name, value in refusal.params.items():
            if isinstance(value, Refusal):
                walk(value)
            elif name == "reason":
                found.update(re.findall(r"[A-Za-z]{4,}", str(value)))

    assert error.refusal is not None, str(error)
    walk(error.refusal)
    return found


@pytest.mark.parametrize("name", sorted([*REFUSED, *FILES]))
def test_each_refusal_is_worded_in_the_pseudo_language_and_in_french(
    name: str, tmp_path: Path
) -> None:
    """Through the pseudo-language (every letter of the catalogue accented) none of the
    template's English words is left, so the sentence came from the catalogues; French words
    it too."""
    if name in FILES:
        text = FILES[name]
        path = tmp_path / "experiment.toml"
        if text is not None:
            path.write_text(text, encoding="utf-8")
        error = _refused(lambda: load_experiment(path))
    else:
        error = _refused(REFUSED[name])
    words = _template_words(error)
    assert words, name
    pseudo = PSEUDO.text(error)
    assert pseudo != str(error)
    worded = pseudo
    for value in _values(error.refusal):  # a parameter (a name as typed) is no template's word
        worded = worded.replace(value, " ")
    assert not {word for word in words if re.search(rf"\b{word}\b", worded)}, pseudo
    french = FRENCH.text(error)
    assert french != str(error)
    # option names and values are written as typed (turns_per_player, scoring=chips)
    worded = re.sub(r"\S*[=_]\S*", " ", french)
    english_left = {w for w in words if len(w) > 5 and re.search(rf"\b{w}\b", worded)}
    assert english_left <= SAME, french


@pytest.mark.parametrize(
    ("args", "french", "english"),
    [
        (
            ["play", "morris", "--seat", "mcts(seconds=-1)"],
            "erreur : agent mcts : seconds doit être supérieur à 0, pas -1.0",
            "error: agent mcts: seconds must be more than 0, not -1.0",
        ),
        (
            ["play", "fano", "--seat", "ladder(style=nope)"],
            "erreur : agent ladder : l\u2019option style prend l\u2019une des valeurs balanced,",
            "error: agent ladder: option style must be one of balanced,",
        ),
        (
            ["play", "fano", "--seat", "mcts(tree=fast)"],
            "erreur : agent mcts : tree=fast demande playout=fast-heuristic, pas 'random'",
            "error: agent mcts: tree=fast needs playout=fast-heuristic, not 'random'",
        ),
        (
            ["play", "fano", "-o", "two_suit=true", "-n", "3"],
            "erreur : la variante à 2 couleurs se joue à exactement 2 joueurs",
            "error: the 2-suit variant is for exactly 2 players",
        ),
        (
            ["play", "fantan", "-o", "ante=2"],
            "erreur : ante ne s\u2019applique qu\u2019au décompte en jetons (scoring=chips)",
            "error: ante only applies to chip scoring (scoring=chips)",
        ),
        (
            ["play", "fantan", "-o", "opening_card=8H"],
            "erreur : la carte d\u2019ouverture 8H ne peut pas commencer une rangée : les "
            "rangées partent du rang 7",
            "error: the opening card 8H cannot start a row: rows start with rank 7",
        ),
    ],
)
def test_the_terminal_refuses_agent_settings_and_option_clashes_in_french(
    args: list[str], french: str, english: str
) -> None:
    said = runner.invoke(app, [*args, "--lang", "fr"], input="quit\n", env=PLAIN)
    assert said.exit_code == 2, said.output
    assert french in said.output
    assert "error" not in said.output
    plain = runner.invoke(app, args, input="quit\n", env=PLAIN)
    assert plain.exit_code == 2, plain.output
    assert english in plain.output


def test_the_morris_solvers_progress_is_said_in_french() -> None:
    """Each stage once, the backward pass every quarter, as phrases the terminal words."""
    said: list[str] = []
    progress = solver.progress_printer(said.append, Adjacency.GEOMETRIC)
    for stage, fraction in [
        ("enumerating positions", 0.0),
        ("counting moves", 0.0),
        ("retrograde analysis", 0.0),
        ("retrograde analysis", 0.1),
        ("retrograde analysis", 0.5),
        ("marking reachable positions", 0.0),
        ("marking reachable positions", 1.0),
    ]:
        progress(stage, fraction)
    assert said == [
        "Morris table, geometric adjacency: enumerating positions",
        "Morris table, geometric adjacency: counting moves",
        "Morris table, geometric adjacency: retrograde analysis (0% solved)",
        "Morris table, geometric adjacency: retrograde analysis (50% solved)",
        "Morris table, geometric adjacency: marking reachable positions",
    ]
    assert all(isinstance(line, Phrase) for line in said)
    assert [FRENCH.text(line) for line in said] == [
        "Table de Morris, adjacence geometric : énumération des positions",
        "Table de Morris, adjacence geometric : décompte des coups",
        "Table de Morris, adjacence geometric : analyse rétrograde (0\u00a0% résolus)",
        "Table de Morris, adjacence geometric : analyse rétrograde (50\u00a0% résolus)",
        "Table de Morris, adjacence geometric : marquage des positions atteignables",
    ]
    assert all("[" in PSEUDO.text(line) for line in said)


def test_the_perfect_player_solving_its_table_says_so_in_french(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tables: dict[Adjacency, solver.MorrisTable]
) -> None:
    """A first use with no table: the announcement and the solver's stages, each a phrase; a
    cache that cannot be written is said too (the system's reason inside, as it is)."""
    monkeypatch.setattr(solver, "PACKAGED_DIR", tmp_path / "none")
    config = MorrisConfig()

    def build(adjacency: Adjacency, progress: solver.ProgressFn) -> solver.MorrisTable:
        progress("enumerating positions", 0.0)
        progress("retrograde analysis", 0.75)
        return tables[adjacency]

    monkeypatch.setattr(solver, "build_table", build)
    blocked = tmp_path / "file"
    blocked.write_text("not a folder", encoding="utf-8")
    said: list[str] = []
    PerfectAgent(GAME, 0, cache_dir=blocked).prepare(config, said.append)
    worded = [FRENCH.text(line) for line in said]
    assert worded[0] == (
        "Le joueur parfait résout Fano330-R-Morris (adjacence geometric) : à la première "
        "utilisation seulement, quelques secondes..."
    )
    assert "Table de Morris, adjacence geometric : énumération des positions" in worded
    assert "Table de Morris, adjacence geometric : analyse rétrograde (75\u00a0% résolus)" in (
        worded
    )
    assert worded[-1].startswith("impossible de garder la table de Morris en cache dans ")
    assert str(said[-1]).startswith("could not cache the Morris table at ")


def test_fanfold_games_lists_in_french() -> None:
    french = runner.invoke(app, ["games", "--lang", "fr"], env=PLAIN)
    assert french.exit_code == 0, french.output
    output = french.output
    assert "variante" in output
    assert "joueurs" in output
    assert "classic (par défaut)" in output
    assert "Options numériques (--option nom=valeur) : " in output
    assert "start_rank de 1 à 13" in output
    assert "Agents (paramètres entre parenthèses, par ex. --seat «\u00a0mcts(" in output
    assert "; paramètres : iterations=200" in output
    assert "; sans paramètres" in output
    # the built-in agents' descriptions are the catalogues' too
    assert "random : des coups légaux tirés uniformément au hasard (fan, fano" in output
    assert "hard : le niveau difficile : le bot le plus fort" in output
    left = ("Number options", "(default)", "parameters:", "no parameters", " to 13", "uniformly")
    for english in left:
        assert english not in output, english
    located = runner.invoke(app, ["games"], env={**PLAIN, "LANG": "fr_FR.UTF-8"})
    assert located.output == output
    plain = runner.invoke(app, ["games"], env=PLAIN)
    assert "Number options (--option name=value): " in plain.output
    assert "classic (default)" in plain.output
    assert "; parameters: iterations=200" in plain.output


#: Each command whose help speaks the terminal's language: words of its French help, and
#: of its English one.
HELPS = {
    "play": (
        "Jouer une partie dans le terminal contre des agents ou des amis",
        "Play a game in the terminal against agents or friends",
    ),
    "legal": ("Liste les coups légaux d\u2019une position.", "List the legal actions"),
    "replay": ("Vérifie qu\u2019un enregistrement se rejoue", "Check that a record replays"),
    "games": ("Liste les jeux, leurs variantes", "List the games, their variants"),
}
#: English words of the help's frame and of the options' help, none of which French keeps.
HELP_ENGLISH = ("Usage:", "[required]", "Show this message", "The language the terminal")


@pytest.mark.parametrize("command", sorted(HELPS))
def test_each_commands_help_speaks_the_terminals_language(command: str) -> None:
    french, english = HELPS[command]
    for args, env in [
        ([command, "--help", "--lang", "fr"], PLAIN),
        ([command, "--lang=fr", "--help"], PLAIN),
        ([command, "--help"], {**PLAIN, "LANG": "fr_FR.UTF-8"}),
    ]:
        said = runner.invoke(app, args, env=env)
        assert said.exit_code == 0, said.output
        text = " ".join(said.output.split())
        assert french in text, (args, text)
        assert "Usage :" in text
        assert "Affiche ce message et quitte." in text
        assert "La langue du terminal : en ou fr" in text
        for words in (english, *HELP_ENGLISH):
            assert words not in text, (args, words)
    plain = runner.invoke(app, [command, "--help"], env=PLAIN)
    text = " ".join(plain.output.split())
    assert english in text
    assert all(words in text for words in HELP_ENGLISH if words != "[required]"), text
    # the help of a language no catalogue speaks is the locale's; the command refuses it
    unknown = runner.invoke(app, [command, "--help", "--lang", "de"], env=PLAIN)
    assert unknown.exit_code == 0
    assert english in " ".join(unknown.output.split())


def test_plays_help_lists_the_agents_in_french() -> None:
    said = runner.invoke(app, ["play", "--help", "--lang", "fr"], env=PLAIN)
    text = " ".join(said.output.split())
    assert "[obligatoire]" in text
    assert "[par défaut : 1]" in text
    assert "Agents (paramètres entre parenthèses" in text
    assert "parameters:" not in text
    assert "la même recherche avec cinq fois plus de parties simulées" in text
    # the help of another command drawn after it is English again: nothing is left switched
    plain = runner.invoke(app, ["legal", "--help"], env=PLAIN)
    assert "[required]" in plain.output
