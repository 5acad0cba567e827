"""The balance report's win-rate picture: the first mover, seats, players, draws and the
differences from the first variant, each with its interval, on an axis that shows a few points."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from fanfold.balance import build_experiment, run_experiment, summarize
from fanfold.balance.report import _zoom, picture_series, write_report


def test_the_picture_is_written_and_holds_every_series(tmp_path: Path) -> None:
    experiment = build_experiment(
        "fano",
        [
            {"name": "classic", "options": {"turns_per_player": 20}},
            {"name": "short", "options": {"turns_per_player": 4}},
        ],
        ["random"],
        games=8,
    )
    summary = summarize(experiment, run_experiment(experiment))
    write_report(summary, tmp_path)
    assert (tmp_path / "win_rates.png").read_bytes().startswith(b"\x89PNG")
    svg = (tmp_path / "win_rates.svg").read_text(encoding="utf-8")
    drawn = set(re.findall(r'id="series\|([^|"]+)\|([^|"]+)\|([^|"]+)"', svg))
    series = picture_series(summary)
    assert drawn == {(row.panel, row.label, row.variant) for row in series}
    for variant in ("classic", "short"):
        for label in ("moved first", "seat 1", "seat 2", "player 1", "player 2"):
            assert ("win rates", label, variant) in drawn
        assert ("draws", "at the turn limit", variant) in drawn
    assert ("against classic", "first mover's win rate", "short") in drawn
    # the first mover is whoever decided first (Fano draws it), not seat 1
    classic = summary.variants[0]
    first = next(r for r in series if r.label == "moved first" and r.variant == "classic")
    assert first.value == pytest.approx(classic.first_wins / classic.first_games)
    assert (first.low, first.high) == pytest.approx(classic.first_rate.interval)
    assert first.reference == 0.5
    limit = next(r for r in series if r.label == "at the turn limit" and r.variant == "short")
    assert limit.value == summary.variants[1].limit_draws / 8
    data = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert data["picture"] == [row.to_json() for row in series]
    assert "Win rates of the first mover" in (tmp_path / "report.md").read_text(encoding="utf-8")


def test_the_axis_is_zoomed_so_that_a_few_points_show() -> None:
    """Rates between 46% and 54% get an axis under 12 points wide: a 2-point effect is a
    sixth of it (on a 0-100% axis it would be a fiftieth)."""
    low, high = _zoom([0.46, 0.54, 0.5], 0.0, 1.0)
    assert low < 0.46 < 0.54 < high
    assert high - low < 0.12
    assert _zoom([0.0, 0.02], 0.0, 1.0)[0] == 0.0  # never below what a rate can be
