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
