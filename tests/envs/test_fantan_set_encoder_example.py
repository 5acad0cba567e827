"""The Fan Tan set-encoder example (examples/fantan_set_encoder.py): its card rows say only
what the observation says, its hand-written gradients match finite differences, its updates
lower the loss they follow, a run is the same for the same seed and games, and its command
line refuses bad values with a sentence."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import fanfold.envs
from fanfold.envs.encodings import make_encoding
from fanfold.envs.fantan import FanTanEncoding

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "fantan_set_encoder.py"


@pytest.fixture(scope="module")
def example() -> Any:
    spec = importlib.util.spec_from_file_location("fantan_set_encoder_example", EXAMPLE)
    assert spec is not None
    assert spec.loader is not None
    if str(EXAMPLE.parent) not in sys.path:  # the examples import their shared module
        sys.path.insert(0, str(EXAMPLE.parent))
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def rows_of(example: Any, players: int = 4) -> Any:
    encoding = make_encoding("fantan", players=players)
    assert isinstance(encoding, FanTanEncoding)
    return example.CardRows(encoding)


def some_observations(tables: int, steps: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks met along first-legal games of ``tables`` tables."""
    envs = fanfold.envs.gym_vector_env("fantan", num_envs=tables)
    obs, _ = envs.reset(seed=seed)
    seen, masks = [], []
    for _ in range(steps):
        seen.append(obs["observation"])
        masks.append(obs["action_mask"])
        actions = np.array([int(np.flatnonzero(row)[-1]) for row in obs["action_mask"]])
        obs, *_ = envs.step(actions)
    return np.concatenate(seen), np.concatenate(masks)


def test_each_card_row_says_what_the_observation_says_of_the_card(example: Any) -> None:
    rows = rows_of(example)
    encoding = make_encoding("fantan", players=4)
    tensor = np.zeros(encoding.layout.size, dtype=np.float32)
    views = encoding.layout.views(tensor)
    views["hand"][0] = 1  # the ace of clubs is mine
    views["layout"][19] = 1  # the seven of diamonds is on the table, played by seat 2
    views["played_by"][2, 19] = 1
    views["hand_counts"][:] = [13, 12, 13, 12]
    views["start_rank"][7] = 1
    x = rows(tensor)
    assert x.shape == (1, 52, rows.size)
    assert x[0, 0, :3].tolist() == [1, 0, 0]  # mine
    assert x[0, 19, :3].tolist() == [0, 1, 0]  # on the layout
    assert x[0, 51, :3].tolist() == [0, 0, 1]  # unseen
    assert x[0, 19, 3:7].tolist() == [0, 0, 1, 0]  # played by seat 2
    ranks, suits = x[0, :, 7:20], x[0, :, 20:24]
    assert ranks[19].argmax() == 6  # the seven
    assert suits[19].argmax() == 1  # of diamonds
    assert ranks.sum() == suits.sum() == 52
    shared = x[0, :, 24:]
    assert (shared == shared[0]).all()  # the same public facts in every row
    assert shared[0, :4].tolist() == pytest.approx([1, 12 / 13, 1, 12 / 13])
    assert shared[0, 8 + 7] == 1  # the start rank


def test_the_gradients_match_finite_differences(example: Any) -> None:
    rng = np.random.default_rng(5)
    observations, masks = some_observations(2, 6, 3)
    rows = rows_of(example)
    x = rows(observations).astype(np.float64)
    legal = masks[:, :52] > 0
    keep = legal.sum(axis=1) > 1
    x, legal = x[keep], legal[keep]
    assert len(x) >= 4
    chosen = np.array([rng.choice(np.flatnonzero(row)) for row in legal])
    returns = rng.normal(size=len(x))
    net = example.SetNet(example.init_params(rows.size, 5, 3, rng, np.float64))
    for name in net.params:  # nonzero value head and biases: every path counts
        net.params[name] = net.params[name] + rng.normal(scale=0.3, size=net.params[name].shape)
    baseline = net.forward(x).values

    def loss() -> float:
        value, _ = example.loss_and_gradients(
            net, x, legal, chosen, returns, 0.05, baseline=baseline
        )
        return float(value)

    _, grads = example.loss_and_gradients(net, x, legal, chosen, returns, 0.05, baseline=baseline)
    checked = 0
    for name, values in net.params.items():
        flat = values.reshape(-1)
        for index in rng.choice(flat.size, size=min(6, flat.size), replace=False):
            saved = flat[index]
            flat[index] = saved + 1e-6
            up = loss()
            flat[index] = saved - 1e-6
            down = loss()
            flat[index] = saved
            numeric = (up - down) / 2e-6
            assert grads[name].reshape(-1)[index] == pytest.approx(numeric, rel=1e-4, abs=1e-7)
            checked += 1
    assert checked >= 40


def test_the_clipped_gradients_match_finite_differences(example: Any) -> None:
    rng = np.random.default_rng(6)
    observations, masks = some_observations(3, 6, 7)
    rows = rows_of(example)
    x = rows(observations).astype(np.float64)
    legal = masks[:, :52] > 0
    keep = legal.sum(axis=1) > 1
    x, legal = x[keep], legal[keep]
    chosen = np.array([rng.choice(np.flatnonzero(row)) for row in legal])
    returns = rng.normal(size=len(x))
    advantages = rng.normal(size=len(x))
    net = example.SetNet(example.init_params(rows.size, 5, 3, rng, np.float64))
    for name in net.params:
        net.params[name] = net.params[name] + rng.normal(scale=0.3, size=net.params[name].shape)
    now = example.masked_log_softmax(net.forward(x).scores, legal)[np.arange(len(x)), chosen]
    # the playing policy: some ratios inside the band (0.8-1.2), some far out on either side
    shift = rng.choice([-0.5, -0.05, 0.05, 0.5], size=len(x))
    old_log_p = now + shift
    ratio = np.exp(now - old_log_p)
    assert ((ratio > 1.2) | (ratio < 0.8)).any()
    assert ((ratio > 0.8) & (ratio < 1.2)).any()

    def loss_and_grads() -> tuple[float, Any]:
        value, grads = example.loss_and_gradients(
            net,
            x,
            legal,
            chosen,
            returns,
            0.05,
            advantages=advantages,
            old_log_p=old_log_p,
            clip=0.2,
        )
        return float(value), grads

    _, grads = loss_and_grads()
    checked = 0
    for name, values in net.params.items():
        flat = values.reshape(-1)
        for index in rng.choice(flat.size, size=min(6, flat.size), replace=False):
            saved = flat[index]
            flat[index] = saved + 1e-6
            up = loss_and_grads()[0]
            flat[index] = saved - 1e-6
            down = loss_and_grads()[0]
            flat[index] = saved
            numeric = (up - down) / 2e-6
            assert grads[name].reshape(-1)[index] == pytest.approx(numeric, rel=1e-4, abs=1e-7)
            checked += 1
    assert checked >= 40


def test_a_clipped_update_does_not_push_a_ratio_further_out_of_its_band(example: Any) -> None:
    rng = np.random.default_rng(9)
    observations, masks = some_observations(2, 6, 2)
    rows = rows_of(example)
    x = rows(observations).astype(np.float64)
    legal = masks[:, :52] > 0
    keep = legal.sum(axis=1) > 1
    x, legal = x[keep], legal[keep]
    chosen = np.array([rng.choice(np.flatnonzero(row)) for row in legal])
    net = example.SetNet(example.init_params(rows.size, 6, 3, rng, np.float64))
    now = example.masked_log_softmax(net.forward(x).scores, legal)[np.arange(len(x)), chosen]
    returns = np.zeros(len(x))
    options = {"value_weight": 0.0, "old_log_p": now - 0.5, "clip": 0.2}  # every ratio e^0.5
    good = np.ones(len(x))  # the chosen cards are already likelier than the band allows
    _, held = example.loss_and_gradients(
        net, x, legal, chosen, returns, 0.0, **options, advantages=good
    )
    assert all(not grad.any() for grad in held.values())
    # with a negative advantage the unclipped term is the smaller one: the update pulls back
    _, pulled = example.loss_and_gradients(
        net, x, legal, chosen, returns, 0.0, **options, advantages=-good
    )
    assert any(grad.any() for grad in pulled.values())
    with pytest.raises(ValueError, match="needs the log-probabilities"):
        example.loss_and_gradients(net, x, legal, chosen, returns, 0.0, clip=0.2)


def test_the_step_size_falls_in_a_straight_line_over_the_run(example: Any) -> None:
    args = example.parse_args(["--games", "1000", "--lr-end", "0.1"])
    share = [example.step_size_share(args, games, 0.0) for games in (0, 500, 1000, 2000)]
    assert share == pytest.approx([1.0, 0.55, 0.1, 0.1])
    by_clock = example.parse_args(["--minutes", "10", "--lr-end", "0.5"])
    assert example.step_size_share(by_clock, 10**6, 300.0) == pytest.approx(0.75)
    assert example.step_size_share(example.parse_args([]), 500, 300.0) == 1.0


def test_adam_steps_lower_the_loss_on_a_fixed_batch(example: Any) -> None:
    rng = np.random.default_rng(8)
    observations, masks = some_observations(8, 10, 4)
    rows = rows_of(example)
    x = rows(observations)
    legal = masks[:, :52] > 0
    keep = legal.sum(axis=1) > 1
    x, legal = x[keep], legal[keep]
    chosen = np.array([rng.choice(np.flatnonzero(row)) for row in legal])
    returns = rng.choice([-1.0, 1.0], size=len(x)).astype(np.float32)
    net = example.SetNet(example.init_params(rows.size, 16, 8, rng))
    adam = example.Adam(3e-3)
    zero = np.zeros(len(x), dtype=np.float32)  # a fixed baseline: one objective throughout
    first, _ = example.loss_and_gradients(net, x, legal, chosen, returns, 0.0, baseline=zero)
    for _ in range(40):
        _, grads = example.loss_and_gradients(net, x, legal, chosen, returns, 0.0, baseline=zero)
        adam.step(net.params, grads)
    last, _ = example.loss_and_gradients(net, x, legal, chosen, returns, 0.0, baseline=zero)
    assert last < first - 0.1
    # the chosen cards of the games with return +1 became likelier, of -1 less likely
    p = example.masked_softmax(net.forward(x).scores, legal)[np.arange(len(x)), chosen]
    start = example.SetNet(example.init_params(rows.size, 16, 8, np.random.default_rng(8)))
    p0 = example.masked_softmax(start.forward(x).scores, legal)[np.arange(len(x)), chosen]
    assert np.log(p / p0)[returns > 0].mean() > 0 > np.log(p / p0)[returns < 0].mean()


def short_run(example: Any, seed: int, *more: str) -> tuple[Any, Any]:
    options = "--games 120 --tables 8 --batch 16 --block 100 --curve-games 10 --hidden 8"
    args = example.parse_args([*options.split(), "--embed", "4", "--seed", str(seed), *more])
    player = example.make_player(args)
    curve = example.train(args, player, log=lambda line: None)
    return player.net.params, curve


@pytest.mark.parametrize(
    "more", [(), ("--clip", "0.2", "--epochs", "3", "--normalize", "--lr-end", "0.2")]
)
def test_a_run_is_the_same_for_the_same_seed_and_games(example: Any, more: tuple[str]) -> None:
    first, curve = short_run(example, 3, *more)
    again, _ = short_run(example, 3, *more)
    other, _ = short_run(example, 4, *more)
    assert curve.games == [0, 100, 120]
    assert len(curve.greedy_rate) == 3
    for name in first:
        assert np.array_equal(first[name], again[name])
    assert any(not np.array_equal(first[name], other[name]) for name in first)
    untrained = example.make_player(example.parse_args(["--hidden", "8", "--embed", "4"]))
    assert any(
        not np.array_equal(first[name], untrained.net.params[name]) for name in first
    )  # the updates moved the weights


def test_greedy_play_picks_the_best_legal_card_or_passes(example: Any) -> None:
    scores = np.array([[5.0] + [0.0] * 51, [1.0] * 52])
    masks = np.zeros((2, 53), dtype=np.int8)
    masks[0, [3, 9]] = 1  # card 0 scores best but is not legal
    masks[1, 52] = 1  # no card: the pass
    assert example.best_legal(scores, masks).tolist() == [3, 52]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--minutes", "0"], "must be a number above 0, not 0"),
        (["--reward", "points"], "invalid choice: 'points'"),
        (["--tables", "0"], "must be 1 to 4096, not 0"),
        (["--games", "2.5"], "'2.5' is not a whole number"),
        (["--clip", "1"], "must be from 0 up to 1 (not 1), not 1"),
        (["--clip", "-0.2"], "must be from 0 up to 1 (not 1), not -0.2"),
        (["--clip", "wide"], "'wide' is not a number"),
        (["--epochs", "0"], "must be 1 to 100, not 0"),
    ],
)
def test_bad_values_are_refused_with_a_sentence(
    example: Any, argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as raised:
        example.parse_args(argv)
    assert raised.value.code == 2
    assert message in capsys.readouterr().err


def test_a_sure_choice_keeps_the_loss_and_gradients_finite(example: Any) -> None:
    rng = np.random.default_rng(2)
    rows = rows_of(example)
    net = example.SetNet(example.init_params(rows.size, 8, 4, rng))
    net.params["w4"] = net.params["w4"] * 1e4  # scores thousands apart: a near-sure policy
    observations, masks = some_observations(2, 4, 5)
    x = rows(observations)
    legal = masks[:, :52] > 0
    keep = legal.sum(axis=1) > 1
    x, legal = x[keep], legal[keep]
    p = example.masked_softmax(net.forward(x).scores, legal)
    least = [np.flatnonzero(row & (q == q[row].min()))[0] for row, q in zip(legal, p, strict=True)]
    chosen = np.array(least)
    assert (p[np.arange(len(x)), chosen] == 0).any()  # a legal card's probability underflowed
    log_p = example.masked_log_softmax(net.forward(x).scores, legal)
    assert np.isfinite(log_p).all()
    returns = np.ones(len(x), dtype=np.float32)
    loss, grads = example.loss_and_gradients(net, x, legal, chosen, returns, 0.01)
    assert np.isfinite(loss)
    assert all(np.isfinite(grad).all() for grad in grads.values())
