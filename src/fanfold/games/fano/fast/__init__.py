"""Fano at compiled speed: a compact array form of a Fano state with legal actions, apply and
random playouts compiled by Numba, tested equal to the reference rules action by action.

:func:`supports` says which configs the fast path covers (without importing Numba); the rest
of the API lives in :mod:`.engine`, imported on first use so that importing fanfold (the
server, the command line) never loads Numba or compiles anything. See ``docs/fast.md``.

>>> from fanfold.games.fano.config import Edition, FanoConfig, SpecialsMode
>>> supports(FanoConfig(players=8, jokers=True, specials=SpecialsMode.SUIT))
True
>>> supports(FanoConfig(edition=Edition.TRIONFEY))
False
"""

from __future__ import annotations

from fanfold.games.fano.config import FanoConfig, Teams


def supports(config: FanoConfig) -> bool:
    """Whether the fast path plays ``config`` exactly as the reference does; other configs
    use the reference engine."""
    return not config.trionfey and not config.tribute and config.teams is Teams.NONE
