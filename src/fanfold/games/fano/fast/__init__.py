"""Fano at compiled speed: a compact array form of a Fano state with legal actions, apply and
random playouts compiled by Numba, tested equal to the reference rules action by action.

:func:`supports` says which configs the fast path covers (without importing Numba); the rest
of the API lives in :mod:`.engine`, imported on first use so that importing fanfold (the
server, the command line) never loads Numba or compiles anything. See ``docs/fast.md``.

>>> from fanfold.games.fano.config import Edition, FanoConfig, SpecialsMode
>>> supports(FanoConfig(players=8, jokers=True, specials=SpecialsMode.SUIT))
True
>>> supports(FanoConfig(edition=Edition.TRIONFEY, players=3))
True
"""

from __future__ import annotations

from fanfold.games.fano.config import FanoConfig
from fanfold.games.fano.fast.layout import MAX_SEATS, PILE_CAP
from fanfold.games.fano.rules import deck_of
from fanfold.games.fano.rules.specials import JOKER_SUPPLY


def supports(config: FanoConfig) -> bool:
    """Whether the fast path plays ``config`` exactly as the reference does: every valid
    config of both editions fits its array layout (at most eight seats, each seat's cards
    within a zone's capacity), except the design options ``joker_prestige`` and
    ``oversum_tribute``, which the kernels do not know. Other configs use the reference engine
    (the compiled search and playouts leave them to the Python search)."""
    if config.players > MAX_SEATS or config.joker_prestige or config.oversum_tribute:
        return False
    largest = max(len(deck_of(config, seat)) for seat in range(config.players))
    # Every card a seat owns, and the Temporary Jokers added, may lie in one pile.
    return largest + config.promotions_to_win + JOKER_SUPPLY <= PILE_CAP
