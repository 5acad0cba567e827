"""The Fan Tan learning example (examples/fantan_learning.py): its command line refuses bad
values with a sentence, its learner moves the weights from the game's rewards, only legal
cards are chosen, and its measurement plays the same deals for the learner and a bot."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from fanfold.envs.encodings import make_encoding
from fanfold.envs.fantan import FanTanEncoding
from fanfold.envs.fantan_cards import FanTanCardFeatures

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "fantan_learning.py"


@pytest.fixture(scope="module")
def example() -> Any:
    spec = importlib.util.spec_from_file_location("fantan_learning_example", EXAMPLE)
    assert spec is not None
    assert spec.loader is not None
    if str(EXAMPLE.parent) not in sys.path:  # the examples import their shared module
        sys.path.insert(0, str(EXAMPLE.parent))
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def policy(example: Any, players: int = 4) -> Any:
    encoding = make_encoding("fantan", players=players)
    assert isinstance(encoding, FanTanEncoding)
    return example.CardPolicy(FanTanCardFeatures(encoding))


def test_the_defaults(example: Any) -> None:
    args = example.parse_args([])
    assert (args.minutes, args.players, args.tables) == (25.0, 4, 64)
    assert (args.block, args.curve_games, args.eval_games) == (4000, 400, 4000)
    assert args.out is None


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--minutes", "0"], "must be a number above 0, not 0"),
        (["--minutes", "soon"], "'soon' is not a number"),
        (["--lr", "-1"], "must be a number above 0, not -1"),
        (["--players", "9"], "must be 3 to 8, not 9"),
        (["--tables", "0"], "must be 1 to 4096, not 0"),
        (["--games", "2.5"], "'2.5' is not a whole number"),
        (["--eval-games", "-3"], "must be 0 to 1000000, not -3"),
    ],
)
def test_bad_values_are_refused_with_a_sentence(
    example: Any, argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as raised:
        example.parse_args(argv)
    assert raised.value.code == 2
    assert message in capsys.readouterr().err


def test_greedy_play_picks_the_best_legal_card_or_passes(example: Any) -> None:
    scores = np.array([[5.0] + [0.0] * 51, [1.0] * 52])
    masks = np.zeros((2, 53), dtype=np.int8)
    masks[0, [3, 9]] = 1  # card 0 scores best but is not legal
    masks[0, 9] = 1
    masks[1, 52] = 1  # no card: the pass
    assert example.best_legal(scores, masks).tolist() == [3, 52]


def test_a_short_training_run_moves_the_weights_and_draws_a_curve(
    example: Any, tmp_path: Path
) -> None:
    args = example.parse_args(
        [
            "--games",
            "24",
            "--tables",
            "4",
            "--batch",
            "8",
            "--block",
            "12",
            "--curve-games",
            "3",
            "--players",
            "3",
            "--eval-games",
            "0",
        ]
    )
    player = policy(example, 3)
    lines: list[str] = []
    curve = example.train(args, player, log=lines.append)
    assert curve.games[0] == 0
    assert curve.games[-1] >= 24
    assert len(curve.greedy_rate) == len(lines) - 1 >= 3  # a point per block, then the total
    assert np.any(player.weights != 0)  # learnt from the rewards of 24 games
    again = policy(example, 3)
    example.train(args, again, log=lines.append)
    assert np.array_equal(again.weights, player.weights)  # seeded: the same games, the same weights
    picture = tmp_path / "curve.png"
    example.save_curve(curve, str(picture), heuristic=0.5, players=3)
    assert picture.read_bytes().startswith(b"\x89PNG")


def test_the_learner_and_a_bot_play_the_same_deals(example: Any) -> None:
    # a policy whose weights are 0 plays the lowest legal card, like a bot that does so
    player = policy(example, 3)
    wins_policy = example.greedy_rate(player, 3, 6, 77)[0]
    seen: list[int] = []

    def lowest(env: Any, obs: dict[str, Any]) -> int:
        seen.append(int(env.episode.table.state.seed))
        return int(example.best_legal(np.zeros((1, 52)), obs["action_mask"][None, :])[0])

    lowest_results = example.play_games(3, 6, 77, lowest)
    assert wins_policy == sum(lowest_results) / 6
    assert example.greedy_results(player, 3, 6, 77) == lowest_results
    assert example.paired_difference(lowest_results, lowest_results) == (0.0, 0.0, 0.0)
    assert len(set(seen)) == 6  # six deals


def test_a_paired_difference_counts_deal_by_deal(example: Any) -> None:
    first = [True, True, False, True]
    second = [False, True, False, False]
    mean, low, high = example.paired_difference(first, second)
    assert mean == 50.0
    assert low < 0 < 50 < high  # two deals in four: a wide interval
