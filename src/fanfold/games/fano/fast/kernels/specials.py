"""The specials a seat may use, spend and earn (:mod:`fanfold.games.fano.rules.specials`).

Part of Fano's compiled kernels (:mod:`fanfold.games.fano.fast.kernels`).
"""

from __future__ import annotations

from numba import njit

from fanfold.core import numba_cache
from fanfold.games.fano.fast.kernels.zones import _seat
from fanfold.games.fano.fast.layout import (
    C_SEAT_SPECIALS,
    C_TRIBUTE,
    C_TRIONFEY,
    LEVEL,
    S_DEFENSE,
    SPECIALS,
    TRIBUTE,
)
from fanfold.games.fano.rules.specials import TRIBUTE_CAP, TRIBUTE_COST

numba_cache.install()


@njit(**numba_cache.UNCOUNTED)
def _can_use(s, cfg, seat, special):  # type: ignore[no-untyped-def]
    """Classic: ``special`` is the seat's and no special was used at this commander level.
    Trionfey: the seat's suit special and three tribute counters."""
    if (cfg[C_SEAT_SPECIALS + seat] >> special) & 1 == 0:
        return False
    p = _seat(seat)
    if cfg[C_TRIONFEY] == 1:
        return cfg[C_TRIBUTE] == 1 and s[p + TRIBUTE] >= TRIBUTE_COST
    level = s[p + LEVEL]
    for i in range(s[p + SPECIALS]):  # noqa: SIM110 - plain loops compile best in Numba
        if s[p + SPECIALS + 1 + i] // 4 == level:
            return False
    return True


@njit(**numba_cache.UNCOUNTED)
def _spend(s, cfg, p, special):  # type: ignore[no-untyped-def]
    """Pay for a special: three tribute counters (Trionfey), or the level's use (classic,
    recorded in order of use)."""
    if cfg[C_TRIONFEY] == 1:
        s[p + TRIBUTE] -= TRIBUTE_COST
        return
    n = s[p + SPECIALS]
    s[p + SPECIALS + 1 + n] = s[p + LEVEL] * 4 + special
    s[p + SPECIALS] = n + 1


@njit(**numba_cache.UNCOUNTED)
def _earn(s, cfg, p):  # type: ignore[no-untyped-def]
    """One tribute counter (Trionfey specials; at most seven)."""
    if cfg[C_TRIBUTE] == 1:
        s[p + TRIBUTE] = min(TRIBUTE_CAP, s[p + TRIBUTE] + 1)


@njit(**numba_cache.UNCOUNTED)
def _can_substitute_down(s, cfg, seat):  # type: ignore[no-untyped-def]
    """Trionfey Diamonds: the substitute's counter may complete the three."""
    if cfg[C_TRIBUTE] == 0 or (cfg[C_SEAT_SPECIALS + seat] >> S_DEFENSE) & 1 == 0:
        return False
    return min(TRIBUTE_CAP, s[_seat(seat) + TRIBUTE] + 1) >= TRIBUTE_COST
