"""Each player's deck, draw pile and reshuffles: what a player owns and how cards are drawn."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache, lru_cache

from fanfold.core.rng import derive_rng
from fanfold.games.fano.cards import TEMP_JOKER, WILD_JOKER, is_prestige, suit_deck, value_of
from fanfold.games.fano.config import FanoConfig, Special
from fanfold.games.fano.rules.specials import can_use
from fanfold.games.fano.rules.zones import edit_player, insert_card
from fanfold.games.fano.state import FanoState, Phase, PlayerState

#: Cards a player draws up to, at the start of the turn and when the hand runs out.
HAND_SIZE = 3

#: A reshuffle's order given from outside the rules: ``(seat, reshuffles before this one, the
#: cards sorted)`` to the new draw pile (the next card to draw last).
ReshuffleOrder = Callable[[int, int, tuple[int, ...]], tuple[int, ...]]
_RESHUFFLE_ORDER: ContextVar[ReshuffleOrder | None] = ContextVar(
    "fano_reshuffle_order", default=None
)


@contextmanager
def reshuffle_orders(order: ReshuffleOrder) -> Iterator[None]:
    """Within the block, reshuffles take their order from ``order`` instead of the state's
    seed: an environment whose chance nodes deal each reshuffle card by card
    (:class:`fanfold.envs.card_deals.FanoDeal`). Outside it the rules are unchanged."""
    token = _RESHUFFLE_ORDER.set(order)
    try:
        yield
    finally:
        _RESHUFFLE_ORDER.reset(token)


def deck_of(config: FanoConfig, seat: int) -> tuple[int, ...]:
    """The cards ``seat`` owns at the start, sorted (Temporary Jokers come later)."""
    return _deck(config.two_suit, config.all_prestige, config.jokers, config.suits_of(seat))


@cache
def _deck(
    two_suit: bool, all_prestige: bool, jokers: bool, suits: tuple[int, ...]
) -> tuple[int, ...]:
    cards: list[int] = []
    for number, suit in enumerate(suits):
        cards.extend(suit_deck(suit, prestige=number == 0 or all_prestige))
    if jokers:
        cards.append(WILD_JOKER)
    return tuple(sorted(cards))


def shuffled_decks(config: FanoConfig, seed: int) -> tuple[PlayerState, ...]:
    """Every seat with its deck shuffled as its draw pile, the order drawn from ``seed``."""
    players = []
    for seat in range(config.players):
        cards = list(deck_of(config, seat))
        derive_rng(seed, "deal", seat).shuffle(cards)
        players.append(PlayerState(draw=tuple(cards)))
    return tuple(players)


def reshuffle(state: FanoState, seat: int, player: PlayerState, joker: bool) -> PlayerState:
    """The whole discard pile (face up and face down), with a Temporary Joker when ``joker``,
    shuffled into a new draw pile."""
    cards = [*player.up, *player.down]
    specials = player.specials
    temp = player.temp_jokers
    if joker:
        cards.append(TEMP_JOKER)
        specials = (*specials, (player.level, Special.TEMP_JOKER))
        temp += 1
    cards.sort()
    order = _RESHUFFLE_ORDER.get()
    if order is None:
        derive_rng(state.seed, "reshuffle", seat, player.shuffles).shuffle(cards)
    else:
        cards = list(order(seat, player.shuffles, tuple(cards)))
    return edit_player(
        player,
        draw=(*cards, *player.draw),
        up=(),
        down=(),
        shuffles=player.shuffles + 1,
        specials=specials,
        temp_jokers=temp,
    )


def draw_to_three(
    state: FanoState, seat: int, player: PlayerState, ask: bool = True
) -> tuple[PlayerState, bool]:
    """Draw until the hand holds three cards, reshuffling when the draw pile runs out.

    Returns the player and True when drawing stopped to ask whether to add a Temporary Joker
    to the reshuffle (only when ``ask`` and that special is available). With both piles empty
    the hand stays short (this cannot happen with the rules' card counts).
    """
    config = state.config
    need = HAND_SIZE - len(player.hand)
    if need <= 0:
        return edit_player(player, hand=tuple(sorted(player.hand))), False
    draw = player.draw
    if len(draw) >= need and (not config.trionfey or TEMP_JOKER not in draw[-need:]):
        # The common case: the pile holds enough cards and no face-up joker is drawn.
        drawn = (*player.hand, *draw[-need:])
        return edit_player(player, hand=tuple(sorted(drawn)), draw=draw[:-need]), False
    hand = list(player.hand)
    while len(hand) < HAND_SIZE:
        if not draw:
            player = edit_player(player, hand=tuple(sorted(hand)), draw=draw)
            if ask and not config.trionfey and can_use(config, player, seat, Special.TEMP_JOKER):
                return player, True
            if not player.up and not player.down:
                break
            player = reshuffle(state, seat, player, joker=False)
            hand, draw = list(player.hand), player.draw
            continue
        if draw[-1] == TEMP_JOKER and config.trionfey:
            # The Spades joker lies face up on the draw pile: everyone sees it drawn.
            player = edit_player(player, known=insert_card(player.known, TEMP_JOKER))
        hand.append(draw[-1])
        draw = draw[:-1]
    return edit_player(player, hand=tuple(sorted(hand)), draw=draw), False


def mulligan_offered(config: FanoConfig, hand: tuple[int, ...]) -> bool:
    """Whether the draw-phase redraw is offered for ``hand``: classic, a hand entirely of
    prestige cards; Trionfey, a hand of 8, 9 and 10."""
    return config.mulligan and _redraw_hand(hand, config.trionfey)


@lru_cache(maxsize=1 << 10)
def _redraw_hand(hand: tuple[int, ...], trionfey: bool) -> bool:
    if not hand:
        return False
    if trionfey:
        return sorted(value_of(card) for card in hand) == [8, 9, 10]
    return all(is_prestige(card) for card in hand)


def after_draw_phase(config: FanoConfig, player: PlayerState) -> Phase:
    """The phase after the draw: the redraw question when it is offered, else the main phase."""
    return Phase.MULLIGAN if mulligan_offered(config, player.hand) else Phase.MAIN
