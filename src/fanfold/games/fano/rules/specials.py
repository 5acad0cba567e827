"""The specials: who may use which, and what using one costs.

Classic: each special once per commander level (by suit or by choice). Trionfey: tribute
counters, earned by discarding your own cards, buy your own suit's special for three counters,
again and again.
"""

from __future__ import annotations

from functools import cache

from fanfold.games.fano.config import SUIT_SPECIALS, FanoConfig, Special, SpecialsMode
from fanfold.games.fano.rules.zones import edit_player
from fanfold.games.fano.state import PlayerState

#: Tribute counters a player may hold (Trionfey; more are lost).
TRIBUTE_CAP = 7
#: Tribute counters a Trionfey special costs.
TRIBUTE_COST = 3
#: Jokers a deck holds for the Spades special (Trionfey: "Standard deck (54 cards)").
JOKER_SUPPLY = 2


def specials_of(config: FanoConfig, seat: int) -> frozenset[Special]:
    """The specials ``seat`` may use (classic: once per commander level in all)."""
    return _specials(config.specials, config.suits_of(seat))


@cache
def _specials(mode: SpecialsMode, suits: tuple[int, ...]) -> frozenset[Special]:
    if mode is SpecialsMode.OFF:
        return frozenset()
    if mode is SpecialsMode.CHOICE:
        return frozenset(Special)
    return suit_specials(suits)


@cache
def suit_specials(suits: tuple[int, ...]) -> frozenset[Special]:
    """The specials of ``suits`` (keyed by small ints alone: looked up on every move)."""
    return frozenset(SUIT_SPECIALS[suit] for suit in suits)


def can_use(config: FanoConfig, player: PlayerState, seat: int, special: Special) -> bool:
    """Whether ``seat`` may use ``special`` now (ignoring the moment). Trionfey: with tribute
    counters, a player may buy their own suit's special for three counters, again and again.
    Classic: once per commander level (a Temporary Joker may be added while an earlier one is
    still in the game: the text sets no limit of one at a time)."""
    if not config.tribute and config.specials is SpecialsMode.OFF:
        return False  # the common case, answered without looking up the seat's specials
    if config.trionfey:
        return (
            config.tribute
            and player.tribute >= TRIBUTE_COST
            and special in suit_specials(config.suits_of(seat))
        )
    return special in specials_of(config, seat) and not player.special_used_this_level


def can_substitute_down(config: FanoConfig, player: PlayerState, seat: int) -> bool:
    """Trionfey Diamonds: whether ``seat`` may substitute a card face down. The substitute's
    discard comes first and earns its counter (up to the cap), so two counters can suffice."""
    if not config.tribute or Special.DEFENSE not in suit_specials(config.suits_of(seat)):
        return False
    return earned(player.tribute) >= TRIBUTE_COST


def can_place_joker(config: FanoConfig, player: PlayerState, seat: int) -> bool:
    """Trionfey Spades: whether ``seat`` may put a joker on top of their draw pile (the deck's
    two jokers are not both in the game already)."""
    return player.temp_jokers < JOKER_SUPPLY and can_use(config, player, seat, Special.TEMP_JOKER)


def earned(tribute: int) -> int:
    """The counters held after earning one more (at most :data:`TRIBUTE_CAP`)."""
    return min(TRIBUTE_CAP, tribute + 1)


def spend(config: FanoConfig, player: PlayerState, special: Special) -> PlayerState:
    """Pay for a special: three tribute counters (Trionfey) or the level's use (classic)."""
    if config.trionfey:
        return edit_player(player, tribute=player.tribute - TRIBUTE_COST)
    return edit_player(player, specials=(*player.specials, (player.level, special)))


def earn(config: FanoConfig, player: PlayerState) -> PlayerState:
    """One tribute counter for discarding your own cards (Trionfey specials; at most 7)."""
    if not config.tribute:
        return player
    return edit_player(player, tribute=earned(player.tribute))
