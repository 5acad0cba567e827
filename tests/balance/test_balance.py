"""The balance lab: experiments from files and the command line, restrictions that hold, the
counts of the summary, the report, and the same results on every backend."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fanfold.balance import build_experiment, load_experiment, run_experiment, summarize
from fanfold.balance.experiment import parse_player, restriction_names
from fanfold.balance.report import write_report
from fanfold.cli.app import app
from fanfold.core.config import JSONObject, JSONValue
from fanfold.core.errors import ConfigError, FanfoldError
from fanfold.core.kinds import played_kind
from fanfold.core.registry import AnyGame, get_game
from fanfold.games.fan import FanGame
from fanfold.play.census import run_census
from fanfold.play.stats import Proportion
from tests.envs.conftest import playout

FANO = get_game("fano")
FANTAN = get_game("fantan")

#: A short Fano: specials by choice, a low turn limit so that random games end quickly.
SHORT_FANO = {"turns_per_player": 50}


def test_players_carry_their_restrictions() -> None:
    player = parse_player("random ; forbid = Oversum, face-down", FANO)
    assert player.agent == "random"
    assert player.forbidden == ("oversum", "face_down")
    assert str(player) == "random; forbid=oversum,face_down"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("nobody", "player 'nobody'"),
        ("random; without=oversum", "forbid=KIND"),
        ("random; forbid=", "forbid=KIND"),
        ("random; forbid=over sum!", "is not an action kind"),
        ("random; forbid=oversun", "Fano has no action kind 'oversun' to forbid"),
        ("random; forbid=joker,place_joker,bluf", "'place_joker' or 'bluf'"),
    ],
)
def test_bad_players_are_named(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_player(text, FANO)


def test_the_refusal_lists_every_valid_name() -> None:
    with pytest.raises(ConfigError) as refused:
        parse_player("heuristic; forbid=oversun", FANO)
    listed = str(refused.value).rpartition("the kinds' names: ")[2].split(", ")
    assert listed == sorted(restriction_names(FANO))
    for name in ("oversum", "joker", "reverse", "defend", "bluff", "declare", "keep", "face_down"):
        assert name in listed
    assert restriction_names(FANTAN) == {"play", "pass"}
    assert restriction_names(get_game("morris")) == {"place", "move"}


@pytest.mark.parametrize("game", [FANO, FANTAN, get_game("morris"), get_game("fan")])
def test_every_kind_played_is_a_valid_name(game: AnyGame) -> None:
    """Each word of each kind a random game offers can be forbidden (the names come from the
    same place as the kinds)."""
    found = game
    config = found.default_config()
    if found.name == "fano":
        config = found.preset("trionfey-specials").config
    valid = restriction_names(found)
    for seed in range(3):
        for state in playout(found, config, seed, 150):
            for action in found.legal_actions(state):
                assert set(played_kind(found, state, action).split("+")) <= valid


def test_jobs_rotate_players_over_seats_on_the_same_deals_in_every_variant() -> None:
    experiment = build_experiment(
        "fano",
        [{"name": "a", "preset": "specials-choice"}, {"name": "b", "preset": "classic"}],
        ["random; forbid=oversum", "random"],
        games=4,
        seed=7,
    )
    jobs = experiment.jobs()
    assert [job.key for job in jobs[:4]] == ["0:0:0", "0:0:1", "0:1:0", "0:1:1"]
    assert [job.payload["players"] for job in jobs[:2]] == [[0, 1], [1, 0]]
    assert [job.payload["forbidden"] for job in jobs[:2]] == [[["oversum"], []], [[], ["oversum"]]]
    assert [job.payload["seed"] for job in jobs] == [7, 7, 8, 8] * 2


EXPERIMENT = """
title = "Oversum, restricted or not"
game = "fano"
games = 4
seed = 3
players = ["random", "random; forbid=oversum"]

[[variant]]
name = "free"
preset = "specials-choice"
options = { turns_per_player = 50 }

[[variant]]
name = "prestige only"
preset = "specials-choice"
options = { oversum_prestige_only = true, turns_per_player = 50 }
"""


def test_an_experiment_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "oversum.toml"
    path.write_text(EXPERIMENT, encoding="utf-8")
    experiment = load_experiment(path)
    assert [variant.name for variant in experiment.variants] == ["free", "prestige only"]
    assert experiment.variants[1].config.oversum_prestige_only  # type: ignore[attr-defined]
    assert experiment.variants[0].players[1].forbidden == ("oversum",)
    assert experiment.title == "Oversum, restricted or not"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("games = 4", "games = 5"), "multiple of 2"),
        (('game = "fano"', 'game = "chess"'), "chess"),
        (('game = "fano"', 'gmae = "fano"'), "unknown keys gmae"),
        (('preset = "specials-choice"\noptions', 'preset = "nothing"\noptions'), "nothing"),
        (("turns_per_player = 50 }\n\n", "turn_count = 50 }\n\n"), "turn_count"),
        (('name = "free"', 'name = "prestige only"'), "two variants are called"),
        (('name = "free"', 'name = "free"\nseats = 2'), "unknown keys seats"),
        (
            ('"random; forbid=oversum"', '"random; forbid=oversum", "random", "random"'),
            "4 players for 2",
        ),
        (("[[variant]]", "[[variant]"), "not a TOML file"),
        (
            ('"random; forbid=oversum"', '"random; forbid=oversun"'),
            r"bad.toml, variant 'free': player 'random; forbid=oversun': Fano has no action kind",
        ),
        (('"random", "random; forbid', '"randon", "random; forbid'), "agents: random, mcts"),
    ],
)
def test_bad_experiment_files_name_the_problem(
    tmp_path: Path, change: tuple[str, str], message: str
) -> None:
    path = tmp_path / "bad.toml"
    assert change[0] in EXPERIMENT
    path.write_text(EXPERIMENT.replace(change[0], change[1], 1), encoding="utf-8")
    with pytest.raises(ConfigError, match=message):
        load_experiment(path)


def test_an_experiment_file_that_is_not_text_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "binary.toml"
    path.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ConfigError, match=r"cannot read .*binary.toml: it is not UTF-8 text"):
        load_experiment(path)
    with pytest.raises(ConfigError, match=r"cannot read .*missing.toml: "):
        load_experiment(tmp_path / "missing.toml")
    plain = tmp_path / "plain.toml"
    plain.write_text(EXPERIMENT, encoding="utf-8")
    path.write_bytes(b"\xef\xbb\xbf" + EXPERIMENT.encode("utf-8"))  # a byte-order mark
    assert load_experiment(path) == load_experiment(plain)


def test_a_restricted_player_never_plays_what_it_is_forbidden() -> None:
    experiment = build_experiment(
        "fano",
        [{"preset": "specials-choice", "options": SHORT_FANO}],
        ["random; forbid=oversum,joker,reverse,defend", "random"],
        games=16,
        seed=1,
    )
    rows = run_experiment(experiment)
    summary = summarize(experiment, rows)
    specials = {"combine+oversum", "shuffle+joker", "attack+reverse", "defend"}
    restricted_used: set[str] = set()
    free_used: set[str] = set()
    for row, job in zip(rows, experiment.jobs(), strict=True):
        order = job.payload["players"]
        assert isinstance(order, list)
        kinds = row["kinds"]
        assert isinstance(kinds, list)
        for seat, player in enumerate(order):
            counts = kinds[seat]
            assert isinstance(counts, dict)
            (restricted_used if player == 0 else free_used).update(counts)
    assert not restricted_used & specials
    assert free_used & specials  # the unrestricted player did use specials
    uses = summary.variants[0].kinds
    assert sum(use.times for use in uses.values()) == sum(int(str(row["actions"])) for row in rows)


def test_a_restriction_yields_where_the_rules_leave_no_other_choice() -> None:
    experiment = build_experiment(
        "fantan", [{"options": {"players": 3}}], ["random; forbid=pass", "random"], games=6
    )
    rows = run_experiment(experiment)
    summary = summarize(experiment, rows)
    variant = summary.variants[0]
    # a player who may not pass still passes when nothing else is legal, and it is counted
    assert variant.player_yielded[0] > 0
    assert variant.player_yielded[1] == 0
    assert variant.kinds["pass"].times >= variant.player_yielded[0]


def _row(
    job: str,
    winners: list[int],
    *,
    actions: int = 10,
    limit: bool = False,
    kinds: list[JSONValue] | None = None,
) -> JSONObject:
    return {
        "job": job,
        "returns": [1.0 if seat in winners else -1.0 for seat in range(2)],
        "winners": list(winners),
        "by_limit": limit,
        "reason": "",
        "actions": actions,
        "decisions": [3, 3],
        "seconds": [0.1, 0.2],
        "slowest": [0.1, 0.2],
        "seats": ["random", "random"],
        "kinds": kinds
        if kinds is not None
        else [{"attack": 2, "combine+oversum": 1}, {"attack": 1}],
        "first": 0,
    }


def test_the_summary_counts_seats_players_draws_and_kinds() -> None:
    # specials-choice: Oversum is a kind its players are offered (a restriction on a kind no
    # variant offers is refused)
    variants = [{"name": name, "preset": "specials-choice"} for name in "ab"]
    experiment = build_experiment("fano", variants, ["random", "random; forbid=oversum"], games=4)
    rows = [
        _row("0:0:0", [0]),
        _row("0:0:1", [0]),
        _row("0:1:0", [1]),
        _row("0:1:1", [], limit=True, actions=30),
        _row("1:0:0", [1]),
        _row("1:0:1", [1]),
        _row("1:1:0", [1]),
        _row("1:1:1", [1]),
    ]
    summary = summarize(experiment, rows)
    a, b = summary.variants
    assert (a.games, a.seat_wins, a.draws, a.limit_draws) == (4, [2, 1], 1, 1)
    # rotation 1 seats player 2 first: seat 1's wins in games 0:0:1 went to player 2
    assert a.player_wins == [1, 2]
    assert (a.first_games, a.first_wins) == (4, 2)
    # the drawn game is left out of the seats' shares, which are tested against 1/2
    assert a.seat_share(0) == Proportion(2, 3)
    assert a.first_share == Proportion(2, 3)
    assert a.lengths == [10, 10, 10, 30]
    oversum = a.kinds["combine+oversum"]
    assert (oversum.times, oversum.used, oversum.used_won, oversum.winner_used) == (4, 4, 2, 2)
    assert b.seat_wins == [0, 4]
    seat_two = next(d for d in summary.differences if d.what == "seat 2 win rate")
    assert seat_two.delta == pytest.approx(0.75)
    assert seat_two.interval[0] > 0
    assert seat_two.p_value < 0.05
    first = next(d for d in summary.differences if d.what == "first mover's win rate")
    assert first.delta == pytest.approx(-0.5)
    document = summary.to_json()
    assert document["experiment"]["variants"][1]["players"][1] == "random; forbid=oversum"  # type: ignore[index,call-overload]
    # lengths 10, 10, 10, 30: mean 15, standard deviation 10, so 15 +- 1.96 * 10 / 2
    length = document["variants"][0]["length"]  # type: ignore[index,call-overload]
    assert length["mean"] == pytest.approx(15.0)  # type: ignore[index,call-overload]
    assert length["mean_interval"] == pytest.approx([5.2, 24.8])  # type: ignore[index,call-overload]
    assert document["variants"][1]["length"]["mean_interval"] == [10.0, 10.0]  # type: ignore[index,call-overload]


def test_action_kinds_count_every_seat_game_with_intervals() -> None:
    experiment = build_experiment("fano", [{"name": "a"}], ["random"], games=4)
    rows = [
        _row("0:0:0", [0], kinds=[{"attack": 1}, {}]),
        _row("0:0:1", [1], kinds=[{"attack": 1}, {}]),
        # "defend" first appears in the third game: the four earlier seat-games did not play it
        _row("0:1:0", [0], kinds=[{"defend": 3}, {"attack": 1}]),
        _row("0:1:1", [1], kinds=[{}, {"defend": 1}]),
    ]
    variant = summarize(experiment, rows).variants[0]
    defend = variant.kinds["defend"]
    assert (defend.used, defend.used_won, defend.unused, defend.unused_won) == (2, 2, 6, 2)
    attack = variant.kinds["attack"]
    assert attack.used + attack.unused == 8
    # per game 0, 0, 3, 1: mean 1, sample variance 2, so 1 +- 1.96 * sqrt(2 / 4)
    mean, (low, high) = defend.per_game(4)
    assert mean == pytest.approx(1.0)
    assert high == pytest.approx(1 + 1.96 * (2 / 4) ** 0.5)
    assert low == 0.0  # clipped: a kind is never played a negative number of times


def test_the_report_has_tables_pictures_and_a_page_that_opens_alone(tmp_path: Path) -> None:
    experiment = build_experiment(
        "fantan",
        [{"name": "four"}, {"name": "seven of diamonds", "preset": "seven-of-diamonds"}],
        ["random"],
        games=8,
    )
    summary = summarize(experiment, run_experiment(experiment))
    page = write_report(summary, tmp_path)
    text = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "| seat 1 " in text
    assert "## Against four" in text
    assert re.search(r"Length: mean [0-9.]+ actions, 95% interval [0-9.]+ to [0-9.]+ \(10%", text)
    assert re.search(r"\| play +\| +[0-9.]+ \([0-9.]+ to [0-9.]+\) \| +100.0% \(", text)
    assert "![" in text
    assert (tmp_path / "win_rates.png").read_bytes().startswith(b"\x89PNG")
    assert (tmp_path / "lengths.png").stat().st_size > 1000
    html = page.read_text(encoding="utf-8")
    assert "data:image/png;base64," in html
    assert "<table>" in html
    data = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert data["variants"][1]["games"] == 8


def test_results_are_the_same_in_processes_and_on_ray() -> None:
    """One local Ray instance (two CPUs) plays a small experiment and decides a few Fan deals;
    the rows equal those of one process (two processes: tests/play/test_batch.py)."""
    ray = pytest.importorskip("ray", reason="the ray extra is installed by scripts/test.sh")
    experiment = build_experiment(
        "fano",
        [{"preset": "specials-choice", "options": {"turns_per_player": 20}}],
        ["random; forbid=oversum", "random"],
        games=6,
        seed=5,
    )

    def stable(rows: list[JSONObject]) -> list[JSONObject]:
        return [
            {key: value for key, value in row.items() if key not in ("seconds", "slowest")}
            for row in rows
        ]

    one = stable(run_experiment(experiment))
    deals = list(range(1, 5))
    fan = FanGame().default_config()
    census = stable(run_census(deals, fan))
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        _system_config={"worker_niceness": 0},
    )
    try:
        assert stable(run_experiment(experiment, ray="auto")) == one
        assert stable(run_census(deals, fan, ray="auto")) == census
    finally:
        ray.shutdown()


def test_ray_missing_or_unreachable_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if the extra were not installed
    experiment = build_experiment("fantan", [], ["random"], games=4)
    with pytest.raises(FanfoldError, match="Ray is not installed"):
        run_experiment(experiment, ray="auto")


def test_the_command_runs_a_file_and_resumes(tmp_path: Path) -> None:
    path = tmp_path / "oversum.toml"
    path.write_text(EXPERIMENT, encoding="utf-8")
    out = tmp_path / "report"
    runner = CliRunner()
    result = runner.invoke(app, ["balance", str(path), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "## Against free" in result.output
    assert "player 2: random; forbid=oversum" in result.output
    lines = (out / "games.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 8
    again = runner.invoke(app, ["balance", str(path), "--out", str(out), "--json"])
    assert again.exit_code == 0, again.output
    assert len((out / "games.jsonl").read_text(encoding="utf-8").splitlines()) == 8
    assert json.loads(again.output)["variants"][0]["games"] == 4


def test_the_command_line_describes_an_experiment_too(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(
        app,
        [
            "balance",
            "--game",
            "fantan",
            "--player",
            "random",
            "--variant",
            "three: players=3",
            "--games",
            "6",
            "--out",
            str(tmp_path),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["variants"][0]["name"] == "three"
    bad = runner.invoke(app, ["balance", "--game", "fantan", "--player", "random", "--games", "5"])
    assert bad.exit_code == 2
    assert "multiple of 4" in bad.output
