"""Statistics for results of many games or deals: proportions with confidence intervals.

>>> low, high = wilson_interval(50, 100)
>>> round(low, 3), round(high, 3)
(0.404, 0.596)
>>> Proportion(481, 1000).text()
'48.1% (95% interval 45.0% to 51.2%)'
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

#: The normal quantile of a two-sided 95% interval.
Z_95 = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default); ``(0, 1)`` with no trials.

    Raises:
        ValueError: counts that are negative or successes beyond the trials.
    """
    if successes < 0 or trials < 0 or successes > trials:
        raise ValueError(f"{successes} successes in {trials} trials is not a proportion")
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    margin = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - margin), min(1.0, centre + margin)


@dataclass(frozen=True)
class Proportion:
    """A count of successes among trials, with its Wilson 95% interval."""

    successes: int
    trials: int

    @property
    def fraction(self) -> float | None:
        """successes / trials, or ``None`` with no trials."""
        return self.successes / self.trials if self.trials else None

    @property
    def interval(self) -> tuple[float, float]:
        """The Wilson 95% interval."""
        return wilson_interval(self.successes, self.trials)

    def text(self) -> str:
        """``"48.1% (95% interval 45.0% to 51.2%)"``."""
        if self.fraction is None:
            return "no trials"
        low, high = self.interval
        return f"{self.fraction:.1%} (95% interval {low:.1%} to {high:.1%})"


def quantile(values: Sequence[float], q: float) -> float | None:
    """The ``q`` quantile (0..1) of ``values`` by linear interpolation, ``None`` when empty."""
    if not values:
        return None
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def median(values: Sequence[float]) -> float | None:
    """The median, ``None`` when empty."""
    return statistics.median(values) if values else None


def difference_interval(
    first: Proportion, second: Proportion, z: float = Z_95
) -> tuple[float, float]:
    """Newcombe's hybrid score interval (95% by default) for ``first - second``, two
    independent proportions, built from their Wilson intervals; ``(-1, 1)`` when either has
    no trials. It keeps to [-1, 1] and behaves with counts near 0 or all.

    >>> low, high = difference_interval(Proportion(60, 100), Proportion(40, 100))
    >>> round(low, 3), round(high, 3)
    (0.061, 0.328)
    """
    p1, p2 = first.fraction, second.fraction
    if p1 is None or p2 is None:
        return -1.0, 1.0
    l1, u1 = wilson_interval(first.successes, first.trials, z)
    l2, u2 = wilson_interval(second.successes, second.trials, z)
    difference = p1 - p2
    low = difference - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = difference + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return max(-1.0, low), min(1.0, high)


def two_proportion_test(first: Proportion, second: Proportion) -> float:
    """The two-sided p-value of the pooled two-proportion z test that ``first`` and ``second``
    have the same underlying rate (1.0 when there is nothing to test).

    >>> round(two_proportion_test(Proportion(60, 100), Proportion(40, 100)), 4)
    0.0047
    """
    if not first.trials or not second.trials:
        return 1.0
    pooled = (first.successes + second.successes) / (first.trials + second.trials)
    spread = math.sqrt(pooled * (1 - pooled) * (1 / first.trials + 1 / second.trials))
    if spread == 0:
        return 1.0
    z = abs(first.successes / first.trials - second.successes / second.trials) / spread
    return math.erfc(z / math.sqrt(2))


def proportion_test(share: Proportion, expected: float) -> float:
    """The two-sided p-value of the z test that ``share`` has the rate ``expected`` (a seat's
    win rate against its fair share); 1.0 when there is nothing to test.

    >>> round(proportion_test(Proportion(550, 1000), 0.5), 4)
    0.0016
    """
    if not share.trials or not 0 < expected < 1:
        return 1.0
    spread = math.sqrt(expected * (1 - expected) / share.trials)
    z = abs(share.successes / share.trials - expected) / spread
    return math.erfc(z / math.sqrt(2))
