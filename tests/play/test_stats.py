"""Proportions and their Wilson intervals, quantiles."""

from __future__ import annotations

import pytest

from fanfold.play.stats import (
    Proportion,
    difference_interval,
    median,
    proportion_test,
    quantile,
    two_proportion_test,
    wilson_interval,
)


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


def test_newcombe_interval_matches_the_published_example() -> None:
    # Newcombe (1998), example (e): 56/70 against 48/80, method 10: 0.0524 to 0.3339
    low, high = difference_interval(Proportion(56, 70), Proportion(48, 80))
    assert (round(low, 4), round(high, 4)) == (0.0524, 0.3339)
    assert difference_interval(Proportion(0, 0), Proportion(1, 2)) == (-1.0, 1.0)
    low, high = difference_interval(Proportion(10, 10), Proportion(0, 10))
    assert 0 < low < high <= 1


def test_proportion_tests_reject_only_real_differences() -> None:
    assert two_proportion_test(Proportion(500, 1000), Proportion(500, 1000)) == 1.0
    assert two_proportion_test(Proportion(550, 1000), Proportion(450, 1000)) < 0.001
    assert two_proportion_test(Proportion(0, 10), Proportion(0, 10)) == 1.0
    assert proportion_test(Proportion(50, 100), 0.5) == 1.0
    assert proportion_test(Proportion(70, 100), 0.5) < 0.001
    assert proportion_test(Proportion(3, 10), 0.0) == 1.0
