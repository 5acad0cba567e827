"""Proportions and their Wilson intervals, quantiles."""

from __future__ import annotations

import pytest

from fanfold.play.stats import Proportion, median, quantile, wilson_interval


def test_wilson_interval() -> None:
    low, high = wilson_interval(0, 10)
    assert low == 0.0
    assert 0.2 < high < 0.35
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(10, 10)
    assert high == pytest.approx(1.0)
    assert 0.65 < low < 0.75
    low, high = wilson_interval(481, 1000)
    assert (round(low, 3), round(high, 3)) == (0.45, 0.512)
    with pytest.raises(ValueError, match="not a proportion"):
        wilson_interval(5, 3)


def test_proportions_read_as_text() -> None:
    assert Proportion(1, 4).fraction == 0.25
    assert Proportion(0, 0).fraction is None
    assert Proportion(0, 0).text() == "no trials"
    assert Proportion(481, 1000).text().startswith("48.1% (95% interval 45.0%")


def test_quantiles() -> None:
    assert quantile([], 0.5) is None
    assert quantile([3.0], 0.9) == 3.0
    assert quantile([1.0, 2.0, 3.0, 4.0], 0.5) == 2.5
    assert quantile([4.0, 1.0, 3.0, 2.0], 1.0) == 4.0
    assert median([2.0, 9.0, 4.0]) == 4.0
    assert median([]) is None
