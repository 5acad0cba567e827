"""Fano stepped on the compiled engine plays exactly what the Python path plays: the same
states (every reshuffle included), observations, masks, rewards, episode ends, infos and
autoresets, seed for seed; and its observations, like the Python path's, never depend on the
hidden cards."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from fanfold.core.errors import IllegalActionError
from fanfold.core.rng import derive_seed
from fanfold.envs import fano_kernels as kernels
from fanfold.envs import fano_stepping
from fanfold.envs.encodings import encoding_for, resolve
from fanfold.envs.episode import Episode, seat_names
from fanfold.envs.fano import FanoEncoding
from fanfold.envs.fano_stepping import FanoTables
from fanfold.envs.fantan_kernels import MT_N
from fanfold.envs.vector_env import FanfoldVectorEnv
from fanfold.games.fano import Combine, Play, Promote
from fanfold.games.fano.config import PRESETS, FanoConfig
from fanfold.games.fano.fast import codec, layout
from fanfold.games.fano.rules import new_state
from tests.envs.stepping import step_both_engines


@pytest.mark.parametrize("seed", [0, 5, 2**31 - 2, 2**127 + 3])
def test_reshuffle_seeds_are_the_rules_seeds(seed: int) -> None:
    for seat in range(8):
        expected = [derive_seed(seed, "reshuffle", seat, number) for number in range(3, 23)]
        assert fano_stepping.reshuffle_seeds(seed, seat, 3, 20) == expected


@pytest.mark.parametrize("preset", [preset.name for preset in PRESETS])
def test_the_compiled_deal_is_the_rules_deal(preset: str) -> None:
    """Every preset's compiled deal writes what ``new_state`` deals, encoded: each seat's draw
    pile, the first player, the priority and the first turn's draw (and mulligan) phase, over
    a table's earlier contents; a one-turn game too."""
    base = next(p.config for p in PRESETS if p.name == preset)
    seeds = [*range(24), 2**31 - 2]
    for config in (base, replace(base, turns_per_player=1)):
        states = np.full((len(seeds) + 1, codec.size(config)), 7, dtype=np.int32)
        which = np.arange(1, len(seeds) + 1, dtype=np.int64)
        deal_seeds = np.array(
            [[derive_seed(s, "deal", seat) for seat in range(config.players)] for s in seeds],
            dtype=np.uint64,
        )
        first_seeds = np.array([derive_seed(s, "first player") for s in seeds], dtype=np.uint64)
        shuffle = np.zeros(layout.SHUFFLE_SIZE, dtype=np.int32)
        mt = np.zeros(MT_N + 1, dtype=np.int64)
        decks = codec.decks(config)
        cfg = codec.encode_config(config)
        kernels.deal(states, cfg, shuffle, mt, decks, which, deal_seeds, first_seeds)
        assert (states[0] == 7).all()  # a table not dealt is left alone
        firsts = set()
        for row, seed in zip(which.tolist(), seeds, strict=True):
            expected = codec.encode_state(new_state(config, seed))
            assert states[row].tolist() == expected.tolist(), (preset, seed)
            firsts.add(int(states[row, layout.TURN_PLAYER]))
        assert len(firsts) > 1  # the first player is drawn, not fixed


def _play(
    preset: str,
    options: dict[str, Any],
    seat: int,
    seeds: list[int],
    *,
    redeal: int = 0,
    eager: bool = True,
) -> tuple[int, set[str], int]:
    """Play ``seeds``' games on the tables and as episodes, the learner at random (``eager``:
    promoting, else combining, else playing a card where it can, at random among those);
    every ``redeal``-th decision (0: never) the table's hidden cards are re-dealt consistently
    with the learner's view, which must not change its observation or mask. Returns the
    learner's decisions compared, the ways the games ended and the most reshuffles a seat
    made."""
    game, config = resolve("fano", preset, options)
    encoding = encoding_for(game, config)
    assert isinstance(encoding, FanoEncoding)
    players = config.players
    seats = seat_names(players, [seat], ["random"] * (players - 1))
    count = len(seeds)
    tables = FanoTables(encoding, seat, count)
    tables.start(range(count), seeds)
    episodes = []
    for seed in seeds:
        episode = Episode(game, config, encoding, seats, seed=seed, agent_seed=seed)
        episode.play_bots()
        episodes.append(episode)
    observations = np.zeros((count, encoding.layout.size), dtype=np.float32)
    masks = np.zeros((count, encoding.num_actions), dtype=np.int8)
    scratch = (observations[:1].copy(), masks[:1].copy())
    learner = random.Random(preset)
    sampler = random.Random(seat)
    live = list(range(count))
    decisions = 0
    ends = set()
    while live:
        which = np.array(live, dtype=np.int64)
        tables.observe(which, which, observations, masks)
        assert np.array_equal(tables.is_over(which), [episodes[i].is_terminal for i in live])
        for index in live:
            episode = episodes[index]
            assert tables.state(index) == episode.table.state
            assert np.array_equal(observations[index], episode.observation(seat))
            assert np.array_equal(masks[index], episode.mask(seat))
            outcome = episode.table.outcome
            if outcome is not None:
                ends.add(str(outcome.termination))
            elif redeal and decisions % redeal == 0:
                kept = tables.states[index].copy()
                view = game.observe(episode.table.state, seat)
                tables.states[index] = codec.encode_state(game.sample_state(view, sampler))
                tables.observe(which[[live.index(index)]], np.zeros(1, np.int64), *scratch)
                tables.states[index] = kept
                assert np.array_equal(scratch[0][0], observations[index])
                assert np.array_equal(scratch[1][0], masks[index])
        live = [index for index in live if not episodes[index].is_terminal]
        actions = []
        for index in live:
            legal = np.flatnonzero(masks[index]).tolist()
            preferred: list[int] = []
            for kind in (Promote, Combine, Play) if eager else ():
                preferred = preferred or [
                    number for number in legal if isinstance(encoding.action(seat, number), kind)
                ]
            action = learner.choice(preferred or legal)
            actions.append(action)
            episodes[index].act(seat, action)
            episodes[index].play_bots()
            decisions += 1
        tables.act(np.array(live, dtype=np.int64), np.array(actions, dtype=np.int64))
    reshuffles = max(player.shuffles for e in episodes for player in e.table.state.players)
    return decisions, ends, reshuffles


@pytest.mark.parametrize(("preset", "seat"), [("classic", 0), ("trionfey", 1)])
def test_whole_games_play_as_the_python_path(preset: str, seat: int) -> None:
    """Games to their end (400 turns a seat, about ninety reshuffles a seat, so many blocks
    of reshuffle seeds), hidden cards re-dealt along the way."""
    decisions, _, reshuffles = _play(preset, {}, seat, list(range(20, 24)), redeal=37, eager=False)
    assert decisions > 1000
    assert reshuffles > fano_stepping.SEEDS


@pytest.mark.parametrize("preset", [preset.name for preset in PRESETS])
def test_every_preset_plays_as_the_python_path(
    preset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Short games of every preset, the learner in the last seat; the reshuffle seeds given
    one at a time, so that tables stop for them and go on again all the time."""
    monkeypatch.setattr(fano_stepping, "SEEDS", 1)
    _, config = resolve("fano", preset, {})
    decisions, _, reshuffles = _play(
        preset, {"turns_per_player": 32}, config.players - 1, list(range(5, 11)), redeal=5
    )
    assert reshuffles > 1
    assert decisions > 30


def test_games_end_by_a_win_as_on_the_python_path() -> None:
    options = {"turns_per_player": 30, "promotions_to_win": 1}
    decisions, ends, _ = _play("classic", options, 0, list(range(12)))
    assert decisions > 100
    assert len(ends) == 2, ends  # a promotion's win and the turn limit


@pytest.mark.parametrize(
    ("preset", "options", "illegal"),
    [
        ("classic", {"turns_per_player": 15}, 0.0),
        ("classic", {"turns_per_player": 25, "seat": 1, "illegal_reward": -2.0}, 0.02),
        ("trionfey", {"turns_per_player": 15, "seat": 1}, 0.02),
        ("trionfey-all-for-one", {"turns_per_player": 8, "seat": 2}, 0.01),
    ],
)
def test_the_vector_env_steps_as_on_the_python_engine(
    preset: str, options: dict[str, Any], illegal: float
) -> None:
    compared = step_both_engines(
        "fano",
        preset,
        options,
        tables=4,
        seed=9,
        steps=150,
        illegal=illegal,
        rng_seed=5,
        out_of_range=100_000,
    )
    assert compared.ended > 3  # autoresets compared
    assert compared.refused > 0 or illegal == 0.0


def test_raising_on_an_illegal_action_changes_no_table() -> None:
    fast = FanfoldVectorEnv("fano", num_envs=3, illegal_action="raise")
    slow = FanfoldVectorEnv("fano", num_envs=3, engine="python")
    batch, _ = fast.reset(seed=8)
    slow.reset(seed=8)
    legal = [int(np.flatnonzero(mask)[0]) for mask in batch["action_mask"]]
    wrong = int(np.flatnonzero(batch["action_mask"][2] == 0)[0])
    with pytest.raises(IllegalActionError, match=f"action {wrong} .* is not legal here"):
        fast.step([legal[0], legal[1], wrong])
    after, *_ = fast.step(legal)
    expected, *_ = slow.step(legal)
    assert np.array_equal(after["observation"], expected["observation"])
    assert np.array_equal(after["action_mask"], expected["action_mask"])


def test_a_legal_action_without_an_index_is_refused_as_on_the_python_path() -> None:
    env = FanfoldVectorEnv("fano", num_envs=2)
    batch, _ = env.reset(seed=3)
    tables = env._fast
    assert isinstance(tables, FanoTables)
    legal = int(np.flatnonzero(batch["action_mask"][1])[0])
    kept = tables.keys[0] != tables.ids[0, legal]
    tables.keys = tables.keys[:, kept].copy()
    tables.key_index = tables.key_index[:, kept].copy()
    which = np.array([1], dtype=np.int64)
    with pytest.raises(IllegalActionError, match="is not in the action table of this variant"):
        tables.observe(which, which, batch["observation"], batch["action_mask"])


def test_the_engine_is_chosen_and_refused_where_none_covers_the_environment() -> None:
    assert FanfoldVectorEnv("fano", num_envs=1).engine == "compiled"
    assert FanfoldVectorEnv("fano", "eight-players", num_envs=1, seat=5).engine == "compiled"
    assert FanfoldVectorEnv("fano", num_envs=1, opponents="heuristic").engine == "python"
    assert FanfoldVectorEnv("fano", num_envs=1, max_steps=50).engine == "compiled"
    assert FanfoldVectorEnv("fano", num_envs=1, opponents="ladder").engine == "compiled"
    both = ["ladder(style=bluff)", "random", "ladder(style=hoard, nodes=50)"]
    assert FanfoldVectorEnv("fano", "four-players", both, num_envs=1).engine == "compiled"
    for python in ("ladder(compiled=false)", "ladder(deals=2)", "heuristic", "not an agent("):
        assert not fano_stepping.supports(["human", python], None, FanoConfig())
    for refused in ("heuristic", "ladder(deals=2)"):
        with pytest.raises(ValueError, match="Fano with 'random' bots or ladder members"):
            FanfoldVectorEnv("fano", num_envs=1, engine="compiled", opponents=refused)
    assert not fano_stepping.supports(["human", "random"], None, None)  # no Fano config


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("classic", {"turns_per_player": 10, "opponents": "ladder"}),
        ("classic", {"turns_per_player": 10, "opponents": "ladder(style=rush)", "seat": 1}),
        ("trionfey", {"turns_per_player": 10, "opponents": "ladder(style=bluff)", "seat": 1}),
        ("trionfey", {"turns_per_player": 10, "opponents": "ladder(style=call)"}),
        (
            "four-players",
            {
                "turns_per_player": 6,
                "opponents": ["ladder(style=defend)", "random", "ladder(style=attack, nodes=40)"],
                "seat": 2,
            },
        ),
        ("trionfey-specials", {"turns_per_player": 8, "opponents": "ladder(style=hoard)"}),
    ],
)
def test_ladder_opponents_choose_as_the_python_agent(preset: str, options: dict[str, Any]) -> None:
    """The compiled ladder opponents choose what the ladder agent chooses (on the Python
    engine: from its view, the hidden cards dealt at random), decision by decision."""
    compared = step_both_engines(
        "fano", preset, options, tables=3, seed=21, steps=40, illegal=0.02, rng_seed=2
    )
    assert compared.ended > 2


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("classic", {"turns_per_player": 12, "max_steps": 17}),
        ("trionfey", {"turns_per_player": 12, "max_steps": 9, "seat": 1}),
        ("classic", {"turns_per_player": 12, "max_steps": 23, "opponents": "ladder(style=rush)"}),
    ],
)
def test_a_step_limit_cuts_as_on_the_python_engine(preset: str, options: dict[str, Any]) -> None:
    compared = step_both_engines(
        "fano", preset, options, tables=4, seed=2, steps=60, illegal=0.01, rng_seed=8
    )
    assert compared.cut > 3


def test_the_warm_up_prepares_every_stepping_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """The warm-up (which the build runs, so that an installation compiles nothing at first
    use) calls every kernel the tables step with, ``resume`` included, which its short games
    never need."""
    called: list[Any] = []
    step = FanoTables._step

    def recording(tables: FanoTables, kernel: Any, *rest: Any) -> None:
        called.append(kernel)
        step(tables, kernel, *rest)

    monkeypatch.setattr(FanoTables, "_step", recording)
    fano_stepping.warm_up()
    assert {kernels.start, kernels.act, kernels.resume} <= set(called)
    assert kernels.resume.signatures


def test_each_table_s_bots_start_with_no_ladder_search_kept() -> None:
    """The ladder's kept search (:func:`fanfold.agents.ladder.kernels.forget`) never
    crosses tables: ``play_bots`` drops what the workspace keeps before a table's bots play,
    even where the learner is to move at once."""
    from fanfold.agents.ladder import compiled
    from fanfold.agents.ladder import kernels as ladder

    env = FanfoldVectorEnv("fano", "trionfey", num_envs=2, opponents="ladder(style=rush)")
    env.reset(seed=4)
    tables = env._fast
    assert isinstance(tables, FanoTables)
    ws = compiled.workspace(tables.states.shape[1])
    for table in range(2):
        ws[5][0][ladder.PL_KEPT] = 1
        tables._step(lambda arrays, *rest: kernels.play_bots(*arrays, *rest), table, 0, ws)
        assert ws[5][0][ladder.PL_KEPT] == 0
        assert tables.scal[table, kernels.S_STATUS] == kernels.LEARNER


@pytest.mark.parametrize("preset", [preset.name for preset in PRESETS])
def test_the_outcome_read_off_the_array_is_the_rules_outcome(preset: str) -> None:
    """:meth:`FanoTables.outcome` (the winner and the phase read off the array, no state
    decoded) is the rules' outcome of the decoded state: wins by promotion (partnerships'
    included) and draws at the turn limit, at every table; ``None`` while a game goes on.
    The learner (seat 0) plays at random, ladder members in the other seats; games of two
    turns each end drawn, longer ones won."""
    reasons = set()
    for turns in (2, 10):
        options = {"turns_per_player": turns, "promotions_to_win": 1}
        game, config = resolve("fano", preset, options)
        encoding = encoding_for(game, config)
        assert isinstance(encoding, FanoEncoding)
        seats = ["ladder(style=rush, nodes=20)"] * config.players
        seats[0] = "human"
        count = 16
        tables = FanoTables(encoding, 0, count, seats)
        rows = np.arange(count, dtype=np.int64)
        tables.start(rows, list(range(100, 100 + count)))
        observations = np.zeros((count, encoding.layout.size), dtype=np.float32)
        masks = np.zeros((count, encoding.num_actions), dtype=np.int8)
        rng = np.random.default_rng(3)
        while True:
            assert tables.outcome(0, game) == game.outcome(tables.state(0))
            playing = rows[~tables.is_over(rows)]
            if not len(playing):
                break
            tables.observe(rows, rows, observations, masks)
            chosen = np.argmax(rng.random(masks.shape) * masks, axis=1)[playing]
            tables.act(playing, chosen.astype(np.int64))
        for table in range(count):
            outcome = tables.outcome(table, game)
            assert outcome is not None
            assert outcome == game.outcome(tables.state(table))
            reasons.add(outcome.termination)
    assert len(reasons) == 2  # a win and a draw at the turn limit
