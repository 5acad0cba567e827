"""The arena: lineups and rotations, reproducible results, counts, ratings, the command."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from fanfold.cli.app import app
from fanfold.core.config import JSONObject
from fanfold.core.errors import ConfigError, FanfoldError, UnknownAgentError
from fanfold.core.registry import get_game
from fanfold.play.arena import HeadToHead, elo_ratings, plan_arena, run_arena, summarize

MORRIS = get_game("morris")
FANTAN = get_game("fantan")
FAN = get_game("fan")


def test_lineups_fill_seats_with_the_last_agent_and_rotate_every_deal() -> None:
    config = FANTAN.with_players(FANTAN.default_config(), 4)
    plan = plan_arena(FANTAN, config, ["mcts(iterations=5)", "random"], games=8, seed=3)
    assert plan.lineups() == [("mcts(iterations=5)", "random", "random", "random")]
    jobs = plan.jobs()
    assert len(jobs) == plan.games == 8
    seats = [job.payload["seats"] for job in jobs]
    assert [s.index("mcts(iterations=5)") for s in seats[:4]] == [0, 1, 2, 3]  # type: ignore[union-attr]
    assert [job.payload["seed"] for job in jobs] == [3, 3, 3, 3, 4, 4, 4, 4]


def test_more_agents_than_seats_meet_in_every_pair() -> None:
    plan = plan_arena(MORRIS, MORRIS.default_config(), ["random", "easy", "hard"], 2)
    assert plan.lineups() == [("random", "easy"), ("random", "hard"), ("easy", "hard")]
    assert plan.games == 6


@pytest.mark.parametrize(
    ("agents", "games", "error", "message"),
    [
        ([], 2, ConfigError, "name the agents"),
        (["random", "random"], 2, ConfigError, "named twice"),
        (["random", "perfect"], 3, ConfigError, r"multiple of 2 .* \(try 4\)"),
        (["random", "mcts"], 0, ConfigError, "at least 1"),
        (["oracle"], 2, UnknownAgentError, "no agent called 'oracle'"),
    ],
)
def test_bad_requests_are_refused(
    agents: list[str], games: int, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        plan_arena(MORRIS, MORRIS.default_config(), agents, games)


def test_an_agent_for_another_game_is_refused() -> None:
    with pytest.raises(UnknownAgentError, match="does not play Fan Tan"):
        plan_arena(FANTAN, FANTAN.default_config(), ["perfect", "random"], 4)


def _without_times(rows: list[JSONObject]) -> list[JSONObject]:
    return [{k: v for k, v in row.items() if k not in ("seconds", "slowest")} for row in rows]


def test_results_are_the_same_on_every_run_and_with_any_worker_count() -> None:
    plan = plan_arena(MORRIS, MORRIS.default_config(), ["mcts(iterations=20)", "random"], 4, 7)
    one = run_arena(plan, workers=1)
    again = run_arena(plan, workers=1)
    two = run_arena(plan, workers=2)
    assert _without_times(one) == _without_times(again) == _without_times(two)


def test_counts_add_up_and_the_stronger_agent_wins_more() -> None:
    plan = plan_arena(MORRIS, MORRIS.default_config(), ["perfect", "random"], 6, 1)
    report = summarize(plan, run_arena(plan))
    perfect, random_ = report.agents
    for agent in report.agents:
        assert agent.games == 6 == agent.wins + agent.draws + agent.losses
        assert agent.decisions > 0
    assert perfect.losses == 0
    assert perfect.wins > random_.wins
    (pair,) = report.pairs
    assert (pair.first_wins, pair.second_wins) == (perfect.wins, random_.wins)
    assert report.limit_draws == 0
    assert report.mean_length > 0


def test_a_solitaire_counts_wins_and_losses_over_the_same_deals() -> None:
    plan = plan_arena(FAN, FAN.default_config(), ["random", "mcts(iterations=5)"], 3, 1)
    assert plan.lineups() == [("random",), ("mcts(iterations=5)",)]
    rows = run_arena(plan)
    assert [row["seats"] for row in rows] == [["random"]] * 3 + [["mcts(iterations=5)"]] * 3
    report = summarize(plan, rows)
    for agent in report.agents:
        assert agent.draws == 0
        assert agent.wins + agent.losses == 3
    three = plan_arena(FAN, FAN.default_config(), ["random", "easy", "hard"], 2, 1)
    report = summarize(three, run_arena(three))
    # the agents never met in a game: no rating (an equal 1500 each would read as equal strength)
    assert [agent.rating for agent in report.agents] == [None, None, None]
    assert report.pairs == []


def test_limit_draws_are_counted() -> None:
    fano = get_game("fano")
    config = fano.default_config().with_options({"turns_per_player": "2"})
    plan = plan_arena(fano, config, ["random", "mcts(iterations=3)"], 2, 1)
    report = summarize(plan, run_arena(plan))
    assert report.limit_draws == report.games == 2
    assert all(agent.draws == 2 for agent in report.agents)


def test_ratings_follow_the_results() -> None:
    pairs = [
        HeadToHead("a", "b", first_wins=8, second_wins=2),
        HeadToHead("b", "c", first_wins=8, second_wins=2),
        HeadToHead("a", "c", first_wins=10),
    ]
    ratings = elo_ratings(["a", "b", "c"], pairs)
    assert ratings["a"] > ratings["b"] > ratings["c"]
    assert sum(ratings.values()) == pytest.approx(4500)
    even = elo_ratings(["a", "b"], [HeadToHead("a", "b", first_wins=5, second_wins=5)])
    assert even["a"] == pytest.approx(even["b"])


def test_the_command_prints_tables_and_json() -> None:
    runner = CliRunner()
    result = runner.invoke(
        app, ["arena", "morris", "--agents", "perfect,random,mcts(iterations=5)", "--games", "2"]
    )
    assert result.exit_code == 0, result.output
    assert "rating" in result.output
    assert "Head to head" in result.output
    result = runner.invoke(
        app, ["arena", "morris", "--agents", "perfect,random", "--games", "2", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    names = [agent["name"] for agent in data["agents"]]
    assert names == ["perfect", "random"]
    for agent in data["agents"]:
        for key in ("games", "wins", "draws", "losses", "seconds_per_decision"):
            assert key in agent
    assert data["games"] == 2


def test_the_command_explains_bad_input() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["arena", "morris", "--agents", "perfect,,random"])
    assert result.exit_code == 2
    assert "comma-separated" in result.output
    result = runner.invoke(app, ["arena", "morris", "--agents", "perfect,random", "--games", "3"])
    assert result.exit_code == 2
    assert "multiple of 2" in result.output


def test_an_interrupted_run_resumes_from_its_results_file(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "arena.jsonl"
    plan = plan_arena(MORRIS, MORRIS.default_config(), ["mcts(iterations=10)", "random"], 4, 2)
    first = run_arena(plan, results=path)
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:2]) + "\n")  # as if stopped after two games
    resumed = run_arena(plan, results=path)
    assert _without_times(resumed) == _without_times(first)
    assert len(path.read_text().splitlines()) == 4


def test_a_game_going_round_in_circles_is_cut_short(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fan patience with any card allowed into an empty fan can go on for ever (a card moved to
    an empty fan and back): such a game is cut short and counted, not run out of memory."""
    from fanfold.play import arena

    monkeypatch.setattr(arena, "MAX_ACTIONS", 40)
    config = FAN.default_config().with_options({"any_card_to_empty": "true"})
    plan = plan_arena(FAN, config, ["random"], 6, 1)
    rows = run_arena(plan)
    cut = [row for row in rows if row["by_limit"]]
    assert cut, "a random player should not finish a Fan deal within 40 moves"
    for row in cut:
        assert row["returns"] == [0.0]
        assert row["actions"] == 40
        assert "cut short after 40 actions" in str(row["reason"])
        assert row["termination"] == "cut_short"
    report = summarize(plan, rows)
    assert report.limit_draws == len(cut)


def test_rows_name_their_deal_and_runs_of_near_seeds_share_deals(tmp_path: object) -> None:
    from pathlib import Path

    rows = {}
    for seed in (1, 2):
        path = Path(str(tmp_path)) / f"s{seed}.jsonl"
        plan = plan_arena(
            MORRIS, MORRIS.default_config(), ["mcts(iterations=10)", "random"], 4, seed
        )
        run_arena(plan, results=path)
        rows[seed] = [json.loads(line) for line in path.read_text().splitlines()]
    # Round r of seed S deals from S + r, its agents seeded from the deal and the rotation.
    assert sorted({row["deal"] for row in rows[1]}) == [1, 2]
    assert sorted({row["deal"] for row in rows[2]}) == [2, 3]
    for row in rows[1]:
        rotation = int(row["job"].split(":")[-1])
        assert row["agent_seed"] == row["deal"] * 1000 + rotation * 100
    # Deal 2 was played by both runs, move for move alike in each rotation.
    shared = {row["job"].split(":")[-1]: row["digest"] for row in rows[1] if row["deal"] == 2}
    again = {row["job"].split(":")[-1]: row["digest"] for row in rows[2] if row["deal"] == 2}
    assert shared == again
    assert len(shared) == 2


def test_a_results_file_of_another_run_is_refused_and_left_as_it_was(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "arena.jsonl"
    config = MORRIS.default_config()
    run_arena(plan_arena(MORRIS, config, ["mcts(iterations=10)", "random"], 4, 1), results=path)
    before = path.read_text()
    others = {
        "deal": plan_arena(MORRIS, config, ["mcts(iterations=10)", "random"], 4, 7),
        "seats": plan_arena(MORRIS, config, ["random", "mcts(iterations=10)"], 4, 1),
        "game": plan_arena(FANTAN, FANTAN.default_config(), ["random", "heuristic"], 4, 1),
    }
    for name, plan in others.items():
        with pytest.raises(ConfigError) as refused:
            run_arena(plan, results=path)
        assert str(refused.value).startswith(f"{path} holds games of another run: its game 0:0:0")
        assert f" has {name} " in str(refused.value)
        assert path.read_text() == before
    # The run's own options reuse every game.
    again = run_arena(
        plan_arena(MORRIS, config, ["mcts(iterations=10)", "random"], 4, 1), results=path
    )
    assert len(again) == 4
    assert path.read_text() == before


def test_a_fan_census_file_and_an_arena_file_are_not_added_to_by_the_other(
    tmp_path: object,
) -> None:
    from pathlib import Path

    runner = CliRunner()
    census = Path(str(tmp_path)) / "census.jsonl"
    assert (
        runner.invoke(app, ["solve", "fan", "--deals", "1-2", "--results", str(census)]).exit_code
        == 0
    )
    before = census.read_text()
    plan = plan_arena(MORRIS, MORRIS.default_config(), ["mcts(iterations=10)", "random"], 2, 1)
    with pytest.raises(
        FanfoldError, match=r"line 1 was written by another kind of run .*no returns"
    ):
        run_arena(plan, results=census)
    assert census.read_text() == before
    arena = Path(str(tmp_path)) / "arena.jsonl"
    run_arena(plan, results=arena)
    before = arena.read_text()
    refused = runner.invoke(app, ["solve", "fan", "--deals", "1-2", "--results", str(arena)])
    assert refused.exit_code == 2
    assert "line 1 was written by another kind of run (it has no verdict)" in refused.output
    assert arena.read_text() == before


def test_a_results_file_of_another_configuration_is_refused(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "arena.jsonl"
    standard = FANTAN.default_config()
    run_arena(plan_arena(FANTAN, standard, ["random", "heuristic"], 4, 1), results=path)
    other = FANTAN.config_from_json({**standard.to_json(), "up_before_down": True})
    with pytest.raises(ConfigError, match="has config "):
        run_arena(plan_arena(FANTAN, other, ["random", "heuristic"], 4, 1), results=path)
