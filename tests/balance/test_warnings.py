"""The balance report's warnings beside its answers: variants that played the same games,
distinguishing action kinds never or rarely played, turn-limit draws; each in the text report
and the JSON, and none where nothing calls for one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fanfold.balance import build_experiment, run_experiment, summarize
from fanfold.balance.report import LIMIT_SHARE, RARE_SHARE, write_report
from fanfold.core.config import JSONObject
from fanfold.core.errors import ConfigError

#: Fano's specials by choice, short: random players reach the limit of 6 turns each.
SHORT = {"turns_per_player": 6}


def _report(summary_folder: Path) -> tuple[str, JSONObject]:
    text = (summary_folder / "report.md").read_text(encoding="utf-8")
    data = json.loads((summary_folder / "summary.json").read_text(encoding="utf-8"))
    return text, data


def test_variants_that_played_the_same_games_are_named(tmp_path: Path) -> None:
    """Chip scoring's chips a pass change no move: the two variants play the same games."""
    experiment = build_experiment(
        "fantan",
        [
            {"name": "one chip", "preset": "chips"},
            {"name": "two chips", "preset": "chips", "options": {"pass_chips": 2}},
            {"name": "ace low", "preset": "ace-low"},
        ],
        ["random"],
        games=8,
    )
    rows = run_experiment(experiment)
    summary = summarize(experiment, rows)
    same = [w for w in summary.warnings if w.kind == "same_games"]
    assert [(w.variant, w.details["other"], w.details["same"]) for w in same] == [
        ("two chips", "one chip", 8)
    ]
    assert "all 8 games were the same, move for move, as in one chip" in same[0].message
    write_report(summary, tmp_path)
    text, data = _report(tmp_path)
    assert "## Warnings" in text
    assert f"* {same[0].message}" in text
    assert f"**Warning.** {same[0].message}" in text
    assert data["warnings"] == [same[0].to_json()]
    assert data["variants"][1]["warnings"] == [same[0].message]  # type: ignore[index,call-overload]
    assert data["variants"][2]["warnings"] == []  # type: ignore[index,call-overload]
    # the digest is of the actions: ace low's games differ from the first's
    assert rows[0]["digest"] != rows[16]["digest"]


def test_turn_limit_draws_above_a_few_percent_are_named(tmp_path: Path) -> None:
    experiment = build_experiment(
        "fano", [{"name": "short", "preset": "classic", "options": SHORT}], ["random"], games=4
    )
    summary = summarize(experiment, run_experiment(experiment))
    assert summary.variants[0].terminations == {"turn_limit": 4}
    (warning,) = summary.warnings
    assert warning.kind == "turn_limit"
    assert warning.details["turn_limit"] == 4
    assert "short: 4 at the turn limit of 4 games (100.0%" in warning.message
    assert f"more than {100 * LIMIT_SHARE:.1f}%" in warning.message
    write_report(summary, tmp_path)
    text, data = _report(tmp_path)
    assert warning.message in text
    assert data["warnings"][0]["kind"] == "turn_limit"  # type: ignore[index,call-overload]
    assert data["variants"][0]["terminations"] == {"turn_limit": 4}  # type: ignore[index,call-overload]


def test_a_named_distinguishing_action_never_offered_is_named() -> None:
    """The file names Perfect defense, but the variant has no specials."""
    experiment = build_experiment(
        "fano",
        [{"name": "none", "preset": "classic", "options": SHORT, "distinguishing": "defend"}],
        ["random"],
        games=2,
    )
    summary = summarize(experiment, run_experiment(experiment))
    (unused,) = [w for w in summary.warnings if w.kind == "unused_action"]
    assert unused.details["source"] == "named by the experiment file"
    assert "distinguishing action defend (named by the experiment file) was never offered" in (
        unused.message
    )
    assert experiment.to_json()["variants"][0]["distinguishing"] == ["defend"]  # type: ignore[index,call-overload]


def test_bad_distinguishing_names_are_refused_with_the_valid_ones() -> None:
    with pytest.raises(ConfigError, match=r"variant 'a': Fano has no action kind 'defence'.*"):
        build_experiment(
            "fano", [{"name": "a", "distinguishing": ["defence"]}], ["random"], games=2
        )
    with pytest.raises(ConfigError, match="distinguishing is a list of action kinds"):
        build_experiment("fano", [{"name": "a", "distinguishing": 3}], ["random"], games=2)


def test_a_restricted_player_is_never_offered_the_forbidden_kinds() -> None:
    experiment = build_experiment(
        "fano",
        [{"preset": "specials-choice", "options": SHORT}],
        ["random; forbid=oversum,joker,reverse,defend", "random"],
        games=4,
    )
    rows = run_experiment(experiment)
    specials = {"combine+oversum", "shuffle+joker", "attack+reverse", "defend"}
    offered_free: set[str] = set()
    for row, job in zip(rows, experiment.jobs(), strict=True):
        order, offered = job.payload["players"], row["offered"]
        assert isinstance(order, list)
        assert isinstance(offered, list)
        for seat, player in enumerate(order):
            counts = offered[seat]
            assert isinstance(counts, dict)
            if player == 0:
                assert not set(counts) & specials
            else:
                offered_free.update(counts)
    assert offered_free & specials


def _row(job: str, offered: JSONObject, played: JSONObject) -> JSONObject:
    return {
        "job": job,
        "returns": [1.0, -1.0],
        "winners": [0],
        "by_limit": False,
        "termination": "promotions",
        "actions": 10,
        "decisions": [3, 3],
        "seconds": [0.1, 0.1],
        "seats": ["random", "random"],
        "kinds": [played, {"attack": 1}],
        "offered": [offered, {"attack": 3}],
        "digest": job,  # every game different
        "first": 0,
    }


def test_derived_distinguishing_actions_rarely_played_are_named() -> None:
    """A kind offered in a variant and never in the first is what the variant is about:
    played in 1 of 40 games where it was offered (under 5%) it is rare; in 4 of 40, not."""
    experiment = build_experiment(
        "fano",
        [{"name": "base"}, {"name": "rare"}, {"name": "often"}],
        ["random"],
        games=40,
    )
    rows = []
    for number in range(20):
        for rotation in range(2):
            game = number * 2 + rotation
            rows.append(_row(f"0:{number}:{rotation}", {"attack": 4}, {"attack": 2}))
            offered: JSONObject = {"attack": 4, "defend": 2}
            rows.append(_row(f"1:{number}:{rotation}", offered, {"defend": int(game == 0)}))
            rows.append(_row(f"2:{number}:{rotation}", offered, {"defend": int(game % 10 == 0)}))
    assert 1 / 40 < RARE_SHARE <= 4 / 40
    summary = summarize(experiment, rows)
    (warning,) = summary.warnings
    assert (warning.kind, warning.variant) == ("unused_action", "rare")
    assert warning.details["action"] == "defend"
    assert warning.details["source"] == "offered here, never in base"
    assert "was played 1 times, in 1 of the 40 games where it was offered (at 80 decisions)" in (
        warning.message
    )


def test_a_sound_experiment_has_no_warnings(tmp_path: Path) -> None:
    experiment = build_experiment(
        "fantan",
        [{"name": "four"}, {"name": "ace low", "preset": "ace-low"}],
        ["random"],
        games=8,
    )
    summary = summarize(experiment, run_experiment(experiment))
    assert summary.warnings == []
    write_report(summary, tmp_path)
    text, data = _report(tmp_path)
    assert "Warning" not in text
    assert data["warnings"] == []


def test_the_command_prints_the_warnings(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from fanfold.cli.app import app

    path = tmp_path / "short.toml"
    path.write_text(
        'game = "fano"\ngames = 2\nplayers = ["random"]\n\n[[variant]]\nname = "short"\n'
        'preset = "classic"\noptions = { turns_per_player = 4 }\ndistinguishing = ["defend"]\n',
        encoding="utf-8",
    )
    result = CliRunner().invoke(app, ["balance", str(path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "## Warnings" in result.output
    assert "short: 2 at the turn limit of 2 games" in result.output
    assert "distinguishing action defend (named by the experiment file)" in result.output
    assert "2 warnings beside the answers" in result.output
