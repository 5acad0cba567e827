"""The errors that were English only and now carry a code (``fanfold.core.errors.Refusal``):
Fan Tan's deal sampler's, each problem of an impossible position, a record that does not
load, each worded in French from the catalogue; and source checks that every such error is
raised with a code."""

from __future__ import annotations

import ast
import dataclasses
import random
from pathlib import Path

import pytest

from fanfold.core.errors import ConfigError, NotationError, RecordError, Refusal, problems_joined
from fanfold.core.records import GameRecord
from fanfold.core.registry import all_games, get_game, set_up
from fanfold.games.fantan.sampling import sample_hands
from fanfold.server import i18n

SOURCE = Path(__file__).resolve().parents[2] / "src" / "fanfold"
FRENCH = i18n.messages("fr")

#: The games' invariants: every problem they list is a refusal.
INVARIANTS = [
    SOURCE / "games" / "fano" / "rules" / "invariants.py",
    SOURCE / "games" / "fantan" / "rules.py",
    SOURCE / "games" / "morris" / "rules.py",
]
#: The functions there that list problems.
LISTING = ("invariant_violations", "_attack_problems", "_player_problems", "_score_problems")


def _is_refusal(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Refusal"


def _raised_without_a_code(path: Path, errors: tuple[str, ...]) -> list[str]:
    """Where ``path`` raises one of ``errors`` with anything but a refusal made there."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if (
            isinstance(node, ast.Raise)
            and isinstance(node.exc, ast.Call)
            and getattr(node.exc.func, "id", "") in errors
            and not (node.exc.args and _is_refusal(node.exc.args[0]))
        ):
            found.append(f"{path.name}:{node.lineno}")
    return found


def test_every_problem_an_invariant_lists_is_a_refusal() -> None:
    for path in INVARIANTS:
        tree = ast.parse(path.read_text(), str(path))
        functions = [
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef) and node.name in LISTING
        ]
        assert functions, path
        for function in functions:
            for node in ast.walk(function):
                listed: ast.expr | None = None
                if isinstance(node, ast.Yield):
                    listed = node.value
                elif (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "append"
                    and getattr(node.func.value, "id", "") == "problems"
                ):
                    listed = node.args[0]
                elif isinstance(node, ast.Return) and isinstance(node.value, ast.List):
                    for item in node.value.elts:
                        assert _is_refusal(item), f"{path.name}:{node.lineno}"
                    continue
                else:
                    continue
                assert _is_refusal(listed), f"{path.name}:{node.lineno}: a problem in English"


def test_the_sampler_and_the_records_raise_only_with_a_code() -> None:
    assert not _raised_without_a_code(SOURCE / "games/fantan/sampling.py", ("NotationError",))
    for path in (SOURCE / "core/records.py", SOURCE / "server/hub/records.py"):
        assert not _raised_without_a_code(path, ("RecordError",)), path


def test_a_games_set_up_is_refused_only_with_a_code() -> None:
    """An unknown game, variant or option, a value an option does not take, a player count
    or a seed out of range: each raised with a refusal, which the terminal words in its
    language (``fanfold play --lang fr``)."""
    checked = {
        "core/registry.py": ("UnknownGameError",),
        "core/game.py": ("UnknownGameError", "ConfigError"),
        "core/config.py": ("ConfigError",),
        "play/setup.py": ("ConfigError",),
    }
    for name, errors in checked.items():
        assert not _raised_without_a_code(SOURCE / name, errors), name
    with pytest.raises(ConfigError) as caught:
        set_up("fantan", options={"players": "12"})
    assert caught.value.refusal is not None
    assert caught.value.refusal.code == "config.players_range"
    assert str(caught.value) == "Fan Tan is for 3 to 8 players, not 12"
    assert FRENCH.text(caught.value) == "Fan Tan se joue de 3 \u00e0 8 joueurs, pas 12"
    with pytest.raises(ConfigError) as union:  # each type's reason, joined
        get_game("fantan").config_type.from_json({"start_rank": "x"})
    assert str(union.value) == "option start_rank must be a whole number, not 'x'"
    assert FRENCH.text(union.value) == ("l\u2019option start_rank est un nombre entier, pas 'x'")


def _codes(problems: list[str]) -> list[str]:
    """Each problem's code (each is a refusal)."""
    assert all(isinstance(problem, Refusal) for problem in problems), problems
    return [problem.code for problem in problems if isinstance(problem, Refusal)]


def test_a_broken_invariant_is_a_refusal_in_each_game() -> None:
    all_games()
    fano = get_game("fano")
    state = fano.new_state(fano.default_config(), 1)
    broken = dataclasses.replace(state, turn=0, priority=1)
    problems = fano.invariant_violations(broken)
    assert _codes(problems) == ["fano.inv_turn", "fano.inv_priority"]
    assert problems[1] == "priority without partnerships"
    fantan = get_game("fantan")
    dealt = fantan.new_state(fantan.default_config(), 1)
    moved = dataclasses.replace(dealt, to_move=(dealt.to_move + 1) % 4)
    assert fantan.invariant_violations(moved) == ["seat 1 should be to move"]
    assert _codes(fantan.invariant_violations(moved)) == ["fantan.inv_to_move"]
    morris = get_game("morris")
    start = morris.new_state(morris.default_config(), 1)
    stacked = dataclasses.replace(start, board=("CCC", *start.board[1:]))
    assert _codes(morris.invariant_violations(stacked)) == ["morris.inv_stack", "morris.inv_pieces"]
    twice = dataclasses.replace(start, board=("CC", *start.board[1:]))
    assert morris.invariant_violations(twice) == ["point 1 stacks two C"]
    assert FRENCH.text(morris.invariant_violations(twice)[0]) == "le point 1 empile deux C"
    fan = get_game("fan")
    deal = fan.new_state(fan.default_config(), 1)
    short = dataclasses.replace(deal, fans=deal.fans[1:])
    (problem,) = fan.invariant_violations(short)
    assert isinstance(problem, Refusal)
    assert problem.code == "fan.fan_count"


def test_an_impossible_position_words_each_problem_in_french() -> None:
    fantan = get_game("fantan")
    text = fantan.format_position(fantan.new_state(fantan.default_config(), 1))
    broken = text.replace("pool=0", "pool=3", 1).replace("scores=0,0,0,0", "scores=-1,0,0,1")
    with pytest.raises(NotationError) as raised:
        fantan.parse_position(broken)
    english = "impossible position: only chip scoring has a pool; scores cannot be negative"
    assert str(raised.value) == english
    assert raised.value.refusal is not None
    assert raised.value.refusal.to_json()["params"]["problems"] == {
        "code": "game.problems",
        "params": {
            "first": {"code": "fantan.inv_pool_plain", "params": {}},
            "rest": {"code": "fantan.inv_negative", "params": {}},
        },
    }
    assert FRENCH.text(raised.value) == (
        "position impossible : seul le décompte aux jetons a un pot ; "
        "les scores ne peuvent pas être négatifs"
    )
    fano = get_game("fano")
    position = fano.format_position(fano.new_state(fano.default_config(), 1))
    with pytest.raises(NotationError) as level:
        fano.parse_position(position.replace("level=0", "level=9", 1))
    assert str(level.value) == "impossible position: Player 1: commander level 9"
    assert FRENCH.text(level.value) == "position impossible : Joueur 1 : commandant au niveau 9"
    assert problems_joined(["a", "b", "c"]) == "a; b; c"
    with pytest.raises(ValueError, match="no problems"):
        problems_joined([])


def test_the_samplers_impossible_views_are_refused_with_codes_in_french() -> None:
    fantan = get_game("fantan")
    config = dataclasses.replace(fantan.default_config(), opening_card="7D")
    state = fantan.new_state(config, 1)
    view = fantan.observe(state, (state.leader + 1) % config.players)
    counts = list(view.hand_counts)
    counts[(view.player + 1) % config.players] += 1
    with pytest.raises(NotationError) as sizes:
        sample_hands(dataclasses.replace(view, hand_counts=tuple(counts)), random.Random(1))
    assert sizes.value.refusal is not None
    assert sizes.value.refusal.code == "fantan.view_sizes"
    assert FRENCH.text(sizes.value) == (
        "les tailles des mains de cette vue ne correspondent pas aux cartes cachées"
    )
    counts = list(view.hand_counts)
    counts[view.leader] = 0  # the opening card's holder holds nothing
    with pytest.raises(NotationError) as none:
        sample_hands(dataclasses.replace(view, hand_counts=tuple(counts)), random.Random(1))
    assert none.value.refusal is not None
    assert none.value.refusal.code == "fantan.no_deal_fits"
    assert str(none.value) == "no deal fits this view"
    assert FRENCH.text(none.value) == "aucune donne ne correspond à cette vue"


@pytest.mark.parametrize(
    ("text", "code", "french"),
    [
        ("[1]", "record.not_object", "un enregistrement doit être un objet JSON"),
        (
            "{x",
            "record.not_json",
            "l\u2019enregistrement n\u2019est pas du JSON valable (ligne 1, colonne 2)",
        ),
        (
            '{"format": "other"}',
            "record.not_fanfold",
            "ce n\u2019est pas un enregistrement fanfold (format attendu : «\u00a0"
            "fanfold.record/2\u00a0»)",
        ),
        (
            '{"format": "fanfold.record/2", "game": "morris", "config": {}, "seed": "x"}',
            "record.seed_digits",
            "la «\u00a0seed\u00a0» de l\u2019enregistrement doit être une chaîne de chiffres "
            "décimaux",
        ),
    ],
)
def test_a_record_that_does_not_load_says_why_with_a_code(
    text: str, code: str, french: str
) -> None:
    with pytest.raises(RecordError) as raised:
        GameRecord.loads(text)
    assert raised.value.refusal is not None
    assert raised.value.refusal.code == code
    assert FRENCH.text(raised.value) == french


def test_a_record_that_does_not_replay_gives_the_move_and_the_rules_reason_in_french() -> None:
    game = get_game("morris")
    record = GameRecord.start(game, game.default_config(), seed=0)
    broken = dataclasses.replace(record.extend(game, "C1"), actions=("C1", "C1", "C1"))
    with pytest.raises(RecordError) as raised:
        broken.states()
    refusal = raised.value.refusal
    assert refusal is not None
    assert str(raised.value).startswith("action 3 ('C1') does not replay: ")
    assert (refusal.code, refusal.params["number"], refusal.params["text"]) == (
        "record.no_replay",
        3,
        "C1",
    )
    reason = refusal.params["reason"]
    assert isinstance(reason, Refusal)
    assert reason.code.startswith("morris.")
    assert FRENCH.text(raised.value).startswith("le coup 3 («\u00a0C1\u00a0») ne se rejoue pas : ")
    assert FRENCH.text(raised.value) != str(raised.value)
