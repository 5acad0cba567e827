"""The daily Fan deal: one deal a day, the same for every player and every server process,
and always one that can be won.

The deal of a date is the first of a fixed sequence of candidates that the exact solver
(:func:`fanfold.solvers.fan.solve_deal`, the classic rules) proves winnable within
:data:`BUDGET` positions. The candidates of 26 November 2026 are the PySolFC deal numbers
2026112600, 2026112601, ... (the date's number times 100, plus 0 to 99): no two days share
one, and the choice depends on nothing but the date. The answer is cached per date.
"""

from __future__ import annotations

import datetime as dt
from functools import lru_cache

from fanfold.core.errors import FanfoldError
from fanfold.games.fan import GAME as FAN
from fanfold.solvers.fan import solve_deal

#: The game of the daily deal, and the variant under which each deal is proved winnable.
DAILY_GAME, DAILY_VARIANT = FAN, "classic"
#: The most positions the solver may search to prove one candidate winnable.
BUDGET = 50_000
#: Candidates tried per date before giving up.
CANDIDATES = 100


class NoDailyDealError(FanfoldError):
    """None of a date's candidates was proved winnable within the budget."""


def candidates(day: dt.date) -> range:
    """The deal numbers tried for ``day``, in order."""
    base = (day.year * 10000 + day.month * 100 + day.day) * 100
    return range(base, base + CANDIDATES)


@lru_cache(maxsize=16)
def daily_deal(day: dt.date) -> int:
    """The daily deal of ``day``: its first candidate that the solver wins within
    :data:`BUDGET` positions.

    Raises:
        NoDailyDealError: no candidate of that day was proved winnable (not expected).
    """
    for deal in candidates(day):
        if solve_deal(deal, max_states=BUDGET).is_winnable:
            return deal
    raise NoDailyDealError(
        f"none of the {CANDIDATES} candidate deals of {day.isoformat()} was proved winnable"
    )


def today() -> dt.date:
    """Today's date in UTC: the day changes at the same moment for every player."""
    return dt.datetime.now(dt.UTC).date()
