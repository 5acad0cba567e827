"""The Fano rules: dealing, legal actions, applying actions, the end of the game.

Everything the rules decide is decided here, once, for both editions (rules texts: seeds/000,
classic edition, and seeds/001, "The battle for Trionfey"; readings of open points:
``docs/rules/fano.md``). The edition is read from the config: the Trionfey edition declares
attacks (the support is shown when the attack resolves, so a bluff is legal), gives the
defender a counter window (phase ``react``, decided by the defender), adds recruit, and
redraws only a hand of 8, 9 and 10.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from functools import cache, lru_cache
from itertools import combinations, pairwise

from fanfold.core.game import Outcome
from fanfold.core.rng import derive_rng
from fanfold.games.fano.actions import (
    END_ACTIONS,
    Allow,
    Attack,
    Combine,
    CombineCounter,
    Declare,
    Defend,
    Discard,
    FanoAction,
    Flip,
    Mulligan,
    Pass,
    PlaceJoker,
    Play,
    Promote,
    Recruit,
    Sacrifice,
    Shuffle,
    Substitute,
)
from fanfold.games.fano.cards import (
    ATTACK_SUPPORT,
    LINE_THIRD,
    MAX_COMBAT,
    MAX_VALUE,
    TEMP,
    TEMP_JOKER,
    WILD,
    WILD_JOKER,
    base_card,
    card_text,
    suit_deck,
)
from fanfold.games.fano.config import (
    SUIT_SPECIALS,
    FanoConfig,
    PromotionMode,
    Special,
    SpecialsMode,
    Teams,
)
from fanfold.games.fano.state import FanoState, Pending, Phase, PlayerState

FIELD_SLOTS = 4
HAND_SIZE = 3
DRAW_SIZE = 3
TRIBUTE_CAP = 7
TRIBUTE_COST = 3
#: Jokers a deck holds for the Spades special (Trionfey: "Standard deck (54 cards)").
JOKER_SUPPLY = 2


# ------------------------------------------------------------------------ decks and specials
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


def specials_of(config: FanoConfig, seat: int) -> frozenset[Special]:
    """The specials ``seat`` may use (once per commander level in all)."""
    return _specials(config.specials, config.suits_of(seat))


@cache
def _specials(mode: SpecialsMode, suits: tuple[int, ...]) -> frozenset[Special]:
    if mode is SpecialsMode.OFF:
        return frozenset()
    if mode is SpecialsMode.CHOICE:
        return frozenset(Special)
    return _suit_specials(suits)


@cache
def _suit_specials(suits: tuple[int, ...]) -> frozenset[Special]:
    """The specials of ``suits`` (keyed by small ints alone: looked up on every move)."""
    return frozenset(SUIT_SPECIALS[suit] for suit in suits)


def can_use(config: FanoConfig, player: PlayerState, seat: int, special: Special) -> bool:
    """Whether ``seat`` may use ``special`` now (ignoring the moment). Trionfey: with tribute
    counters, a player may buy their own suit's special for three counters, again and again."""
    if not config.tribute and config.specials is SpecialsMode.OFF:
        return False  # the common case, answered without looking up the seat's specials
    if config.trionfey:
        return (
            config.tribute
            and player.tribute >= TRIBUTE_COST
            and special in _suit_specials(config.suits_of(seat))
        )
    if special not in specials_of(config, seat) or player.special_used_this_level:
        return False
    return special is not Special.TEMP_JOKER or player.temp_jokers == 0


def can_substitute_down(config: FanoConfig, player: PlayerState, seat: int) -> bool:
    """Trionfey Diamonds: whether ``seat`` may substitute a card face down. The substitute's
    discard comes first and earns its counter (up to the cap), so two counters can suffice."""
    if not config.tribute or Special.DEFENSE not in _suit_specials(config.suits_of(seat)):
        return False
    return min(TRIBUTE_CAP, player.tribute + 1) >= TRIBUTE_COST


# ------------------------------------------------------------------------- action values
# Legal-action lists are rebuilt on every move; equal actions are equal immutable values, so
# one shared instance per action saves building it again (bounded caches).
_attack = lru_cache(maxsize=1 << 16)(Attack)
_combine = lru_cache(maxsize=1 << 16)(Combine)
_declare = lru_cache(maxsize=1 << 14)(Declare)
_recruit = lru_cache(maxsize=1 << 14)(Recruit)
_combine_counter = lru_cache(maxsize=1 << 16)(CombineCounter)


# ------------------------------------------------------------------------------ small helpers
class _Keep(enum.Enum):
    """Marks a state field that :func:`_st` leaves as it was (``None`` is a value there)."""

    KEEP = 0


_KEEP = _Keep.KEEP


def _pl(
    p: PlayerState,
    *,
    hand: tuple[int, ...] | None = None,
    field: tuple[int, ...] | None = None,
    draw: tuple[int, ...] | None = None,
    up: tuple[int, ...] | None = None,
    down: tuple[int, ...] | None = None,
    known: tuple[int, ...] | None = None,
    level: int = -1,
    specials: tuple[tuple[int, Special], ...] | None = None,
    protected: tuple[int, ...] | None = None,
    shuffles: int = -1,
    temp_jokers: int = -1,
    tribute: int = -1,
    hidden: tuple[int, ...] | None = None,
) -> PlayerState:
    """``p`` with the given fields changed: ``dataclasses.replace`` without its generic cost
    (the apply path's hot spot)."""
    return PlayerState(
        p.hand if hand is None else hand,
        p.field if field is None else field,
        p.draw if draw is None else draw,
        p.up if up is None else up,
        p.down if down is None else down,
        p.known if known is None else known,
        p.level if level < 0 else level,
        p.specials if specials is None else specials,
        p.protected if protected is None else protected,
        p.shuffles if shuffles < 0 else shuffles,
        p.temp_jokers if temp_jokers < 0 else temp_jokers,
        p.tribute if tribute < 0 else tribute,
        p.hidden if hidden is None else hidden,
    )


def _st(
    s: FanoState,
    *,
    players: tuple[PlayerState, ...] | None = None,
    turn_player: int = -1,
    phase: Phase | None = None,
    turn: int = -1,
    pending: Pending | _Keep | None = _KEEP,
    target_seat: int | _Keep | None = _KEEP,
    priority: int = -1,
) -> FanoState:
    """``s`` with the given fields changed (see :func:`_pl`)."""
    return FanoState(
        s.config,
        s.seed,
        s.players if players is None else players,
        s.turn_player if turn_player < 0 else turn_player,
        s.phase if phase is None else phase,
        s.turn if turn < 0 else turn,
        s.pending if pending is _KEEP else pending,
        s.target_seat if target_seat is _KEEP else target_seat,
        s.priority if priority < 0 else priority,
    )


def _remove(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    index = cards.index(card)
    return cards[:index] + cards[index + 1 :]


def _add(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    return tuple(sorted((*cards, card)))


def _to_discard(player: PlayerState, card: int, face_up: bool = True) -> PlayerState:
    """``card`` (already taken from its place) goes to the discard pile; a Temporary Joker
    leaves the game instead, and a wild joker becomes wild again."""
    card = base_card(card)
    if card == TEMP_JOKER:
        return _pl(player, temp_jokers=player.temp_jokers - 1)
    if face_up:
        return _pl(player, up=_add(player.up, card))
    return _pl(player, down=_add(player.down, card))


def _leave_field(player: PlayerState, card: int, face_up: bool = True) -> PlayerState:
    field = _remove(player.field, card)
    protected = player.protected
    if card in protected:
        protected = _remove(protected, card)
    hidden = player.hidden
    if card in hidden:
        hidden = _remove(hidden, card)
    # The discard of _to_discard, made in the same new player.
    base = base_card(card)
    if base == TEMP_JOKER:
        return _pl(
            player,
            field=field,
            protected=protected,
            hidden=hidden,
            temp_jokers=player.temp_jokers - 1,
        )
    if face_up:
        return _pl(
            player, field=field, protected=protected, hidden=hidden, up=_add(player.up, base)
        )
    return _pl(
        player, field=field, protected=protected, hidden=hidden, down=_add(player.down, base)
    )


def _take_from_hand(
    player: PlayerState, card: int, field: tuple[int, ...] | None = None
) -> PlayerState:
    """Take ``card`` (a declared joker: the joker) from the hand; ``field``, when given,
    becomes the field in the same step."""
    card = base_card(card)
    known = player.known
    if card in known:
        known = _remove(known, card)
    return _pl(player, hand=_remove(player.hand, card), known=known, field=field)


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
    derive_rng(state.seed, "reshuffle", seat, player.shuffles).shuffle(cards)
    return _pl(
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
        return _pl(player, hand=tuple(sorted(player.hand))), False
    draw = player.draw
    if len(draw) >= need and (not config.trionfey or TEMP_JOKER not in draw[-need:]):
        # The common case: the pile holds enough cards and no face-up joker is drawn.
        drawn = (*player.hand, *draw[-need:])
        return _pl(player, hand=tuple(sorted(drawn)), draw=draw[:-need]), False
    hand = list(player.hand)
    while len(hand) < HAND_SIZE:
        if not draw:
            player = _pl(player, hand=tuple(sorted(hand)), draw=draw)
            if ask and not config.trionfey and can_use(config, player, seat, Special.TEMP_JOKER):
                return player, True
            if not player.up and not player.down:
                break
            player = reshuffle(state, seat, player, joker=False)
            hand, draw = list(player.hand), player.draw
            continue
        if draw[-1] == TEMP_JOKER and config.trionfey:
            # The Spades joker lies face up on the draw pile: everyone sees it drawn.
            player = _pl(player, known=_add(player.known, TEMP_JOKER))
        hand.append(draw[-1])
        draw = draw[:-1]
    return _pl(player, hand=tuple(sorted(hand)), draw=draw), False


def _with(
    players: tuple[PlayerState, ...], seat: int, player: PlayerState
) -> tuple[PlayerState, ...]:
    return (*players[:seat], player, *players[seat + 1 :])


def mulligan_offered(config: FanoConfig, hand: tuple[int, ...]) -> bool:
    """Whether the draw-phase redraw is offered for ``hand``: classic, a hand entirely of
    prestige cards; Trionfey, a hand of 8, 9 and 10."""
    if not config.mulligan or not hand:
        return False
    if config.trionfey:
        return sorted(card >> 4 for card in hand) == [8, 9, 10]
    return all(card >> 4 >= 8 for card in hand)


def _after_draw_phase(config: FanoConfig, player: PlayerState) -> Phase:
    return Phase.MULLIGAN if mulligan_offered(config, player.hand) else Phase.MAIN


def start_turn(state: FanoState, seat: int, turn: int) -> FanoState:
    """Begin ``seat``'s turn ``turn``: the draw phase (or the end of the game at the limit)."""
    if turn > state.config.turn_limit:
        return _st(
            state, turn_player=seat, turn=turn, phase=Phase.OVER, pending=None, target_seat=None
        )
    # draw_to_three reads only the config and the seed of the state it is given.
    player, asked = draw_to_three(state, seat, state.players[seat])
    phase = Phase.DRAW_SHUFFLE if asked else _after_draw_phase(state.config, player)
    return _st(
        state,
        players=_with(state.players, seat, player),
        turn_player=seat,
        phase=phase,
        turn=turn,
        pending=None,
        target_seat=None,
    )


def new_state(config: FanoConfig, seed: int) -> FanoState:
    """Shuffle each player's draw pile, pick the first player at random and start turn 1."""
    players = []
    for seat in range(config.players):
        cards = list(deck_of(config, seat))
        derive_rng(seed, "deal", seat).shuffle(cards)
        players.append(PlayerState(draw=tuple(cards)))
    first = derive_rng(seed, "first player").randrange(config.players)
    priority = first if config.teams is not Teams.NONE else 0
    state = FanoState(config, seed, tuple(players), first, Phase.MAIN, 0, priority=priority)
    return start_turn(state, first, 1)


# ----------------------------------------------------------------------------- partnerships
def teammates(config: FanoConfig, seat: int) -> tuple[int, ...]:
    """``seat`` and its partners, in clockwise order from ``seat`` (just ``seat`` without
    partnerships): odd seats against even seats."""
    if config.teams is Teams.NONE:
        return (seat,)
    count = config.players
    return tuple((seat + step) % count for step in range(0, count, 2))


def next_turn(state: FanoState) -> tuple[int, int]:
    """Who plays the next turn, and who then holds priority. In partnerships the priority
    holder plays first, then each partner clockwise; then priority passes clockwise to the
    next seat, in the other partnership."""
    count = len(state.players)
    if state.config.teams is Teams.NONE:
        return (state.turn_player + 1) % count, 0
    following = (state.turn_player + 2) % count
    if following != state.priority:
        return following, state.priority
    passed = (state.priority + 1) % count
    return passed, passed


# ----------------------------------------------------------------------------------- the end
def winner(state: FanoState) -> int | None:
    """The seat that reached the promotions needed, if any."""
    target = state.config.promotions_to_win
    for seat, player in enumerate(state.players):
        if player.level >= target:
            return seat
    return None


def outcome(state: FanoState) -> Outcome | None:
    """+1 for the winner and -1 for the others; 0 for all at the turn limit."""
    seat = winner(state)
    config = state.config
    if seat is not None:
        if config.teams is Teams.ONE_FOR_ALL:
            team = teammates(config, seat)
            names = ", ".join(str(member + 1) for member in sorted(team))
            reason = (
                f"the partnership of Players {names} promoted its commander "
                f"{config.promotions_to_win} times and wins"
            )
        else:
            team = (seat,)
            reason = f"Player {seat + 1} promoted {config.promotions_to_win} times and wins"
        returns = tuple(1.0 if other in team else -1.0 for other in range(len(state.players)))
        return Outcome(reason, returns)
    if state.phase is Phase.OVER:
        return Outcome(
            f"the turn limit ({state.config.turn_limit} turns) was reached: a draw",
            (0.0,) * len(state.players),
        )
    return None


# ---------------------------------------------------------------------------- legal actions
def promotion_sets(config: FanoConfig, field: tuple[int, ...]) -> list[tuple[int, int, int]]:
    """The sets of three prestige cards in ``field`` that may be promoted with."""
    prestige = [card for card in field if 8 <= card >> 4 <= MAX_VALUE and card & 15 < WILD]
    result = []
    for trio in combinations(prestige, 3):
        values = sorted(card >> 4 for card in trio)
        easy = config.promotion is PromotionMode.EASY and config.six_prestige
        one_suit = len({card & 15 for card in trio}) == 1
        if easy or (
            values == [8, 9, 10] and (config.promotion is not PromotionMode.HARD or one_suit)
        ):
            result.append((trio[0], trio[1], trio[2]))
    return result


def legal_actions(state: FanoState) -> tuple[FanoAction, ...]:
    """Every legal action of the decider, in a stable order."""
    phase = state.phase
    if phase is Phase.OVER or winner(state) is not None:
        return ()
    if phase is Phase.MULLIGAN:
        return (Mulligan(True), Mulligan(False))
    if phase is Phase.DRAW_SHUFFLE or phase is Phase.SHUFFLE:
        return (Shuffle(False), Shuffle(True))
    if phase is Phase.REACT:
        return _react_actions(state)
    seat = state.turn_player
    me = state.players[seat]
    actions: list[FanoAction] = []
    if phase is Phase.MAIN:
        if state.config.trionfey:
            _trionfey_main_actions(state, seat, me, actions)
        else:
            _main_actions(state, seat, me, actions)
    _end_actions(state, seat, me, actions)
    if any(player.temp_jokers > 1 for player in state.players):
        # Two jokers in play with one value are one card for the rules: list each move once.
        return tuple(dict.fromkeys(actions))
    return tuple(actions)


_MULLIGANS: tuple[FanoAction, ...] = (Mulligan(True), Mulligan(False))
_SHUFFLES: tuple[FanoAction, ...] = (Shuffle(False), Shuffle(True))


def is_legal(state: FanoState, action: FanoAction) -> bool:
    """``action in legal_actions(state)``, enumerating only the part of the legal actions
    that can hold an action of its kind (end actions, or main-phase actions)."""
    phase = state.phase
    if phase is Phase.OVER or winner(state) is not None:
        return False
    if phase is Phase.MULLIGAN:
        return action in _MULLIGANS
    if phase is Phase.DRAW_SHUFFLE or phase is Phase.SHUFFLE:
        return action in _SHUFFLES
    if phase is Phase.REACT:
        return action in _react_actions(state)
    seat = state.turn_player
    me = state.players[seat]
    actions: list[FanoAction] = []
    if isinstance(action, Play | Substitute | Discard | Pass):
        _end_actions(state, seat, me, actions)
    elif phase is not Phase.MAIN:
        return False
    elif state.config.trionfey:
        _trionfey_main_actions(state, seat, me, actions)
    else:
        _main_actions(state, seat, me, actions)
    return action in actions


def _main_actions(state: FanoState, seat: int, me: PlayerState, actions: list[FanoAction]) -> None:
    config = state.config
    hand = me.hand
    field = me.field
    jokers = [card for card in hand if card & 15 >= WILD]
    by_value: dict[int, list[int]] = {}
    for card in hand:
        if card & 15 < WILD:
            by_value.setdefault(card >> 4, []).append(card)
    opponent = state.players[state.target_of(seat)]
    if field and opponent.field and hand:
        reverse_ok = can_use(config, me, seat, Special.REVERSE)
        for attacker in field:
            value = attacker >> 4
            if value > MAX_COMBAT:
                continue
            for target in opponent.field:
                target_value = target >> 4
                if target_value > MAX_COMBAT or target in opponent.protected:
                    continue
                support = ATTACK_SUPPORT[value][target_value]
                reverse = False
                if not support:
                    if not reverse_ok:
                        continue
                    support = LINE_THIRD[value][target_value]
                    reverse = True
                    if not support:
                        continue
                for card in by_value.get(support, ()):
                    actions.append(_attack(attacker, target, card, reverse))
                for joker in jokers:
                    actions.append(_attack(attacker, target, support * 16 + (joker & 15), reverse))
    _combine_and_promote(state, seat, me, actions)
    if can_use(state.config, me, seat, Special.DEFENSE):
        for card in field:
            if card >> 4 <= MAX_COMBAT and card not in me.protected:
                actions.append(Defend(card))


def _combine_and_promote(
    state: FanoState, seat: int, me: PlayerState, actions: list[FanoAction]
) -> None:
    config = state.config
    hand = me.hand
    field = me.field
    if me.hidden:
        field = tuple(card for card in field if card not in me.hidden)
    if len(field) >= 2 and hand:
        oversum_ok = can_use(config, me, seat, Special.OVERSUM)
        actions.extend(_combines(field, hand, oversum_ok, config.oversum_prestige_only))
    if config.teams is Teams.ONE_FOR_ALL:
        actions.extend(_team_promotions(state, seat))
        return
    for trio in promotion_sets(config, field):
        actions.append(Promote(trio))


@lru_cache(maxsize=1 << 14)
def _combines(
    field: tuple[int, ...], hand: tuple[int, ...], oversum_ok: bool, prestige_only: bool
) -> tuple[Combine, ...]:
    """Every combination of two cards of ``field`` (face up) for a card of ``hand``. Cached:
    a field and hand often come back within and across games."""
    actions: list[Combine] = []
    for first, second in combinations(field, 2):
        total = (first >> 4) + (second >> 4)
        returns = [0]
        if first & 15 < WILD:
            returns.append(first)
        if second & 15 < WILD:
            returns.append(second)
        for card in sorted(set(hand)):
            kind = card & 15
            if kind < WILD:
                value = card >> 4
                if value == total:
                    results = [(card, False)]
                elif value < total and oversum_ok and (not prestige_only or value >= 8):
                    results = [(card, True)]
                else:
                    continue
            else:
                results = []
                if total <= MAX_COMBAT:
                    results.append((total * 16 + kind, False))
                if oversum_ok and not prestige_only:
                    results.extend(
                        (value * 16 + kind, True) for value in range(1, min(MAX_COMBAT + 1, total))
                    )
            for result, oversum in results:
                for returned in returns:
                    actions.append(_combine(first, second, result, returned, oversum))
    return tuple(actions)


def _team_promotions(state: FanoState, seat: int) -> list[Promote]:
    """One for all: an 8, a 9 and a 10 of any suits from the fields of the partnership."""
    by_value: dict[int, list[tuple[int, int | None]]] = {8: [], 9: [], 10: []}
    for member in teammates(state.config, seat):
        owner = None if member == seat else member
        for card in state.players[member].field:
            if card >> 4 >= 8 and card & 15 < WILD:
                by_value[card >> 4].append((card, owner))
    promotions = []
    for eight in by_value[8]:
        for nine in by_value[9]:
            for ten in by_value[10]:
                trio = (eight, nine, ten)
                owners = tuple(owner for _, owner in trio)
                cards = (eight[0], nine[0], ten[0])
                promotions.append(Promote(cards, () if all(o is None for o in owners) else owners))
    return promotions


# ------------------------------------------------------------------- Trionfey: attacks
def support_value(attacker: int, target: int, reverse: bool) -> int:
    """The support value an ``attacker`` value needs against a ``target`` value (0: that is
    not a legal direction), with the arrows reversed when ``reverse``."""
    if reverse:
        return LINE_THIRD[attacker][target] if ATTACK_SUPPORT[target][attacker] else 0
    return ATTACK_SUPPORT[attacker][target]


def opponents(state: FanoState, seat: int) -> tuple[int, ...]:
    """The seats ``seat`` may attack now (Trionfey: the one chosen this turn, once chosen)."""
    if not state.config.trionfey or len(state.players) == 2:
        return (state.target_of(seat),)
    if state.target_seat is not None:
        return (state.target_seat,)
    partners = teammates(state.config, seat)
    return tuple(other for other in range(len(state.players)) if other not in partners)


def _active(player: PlayerState) -> list[int]:
    """The combat cards in play that may attack, combine, recruit or counter (face up)."""
    return [card for card in player.field if card >> 4 <= MAX_COMBAT and card not in player.hidden]


def _can_reverse(config: FanoConfig, me: PlayerState, seat: int) -> bool:
    return can_use(config, me, seat, Special.REVERSE)


def _trionfey_main_actions(
    state: FanoState, seat: int, me: PlayerState, actions: list[FanoAction]
) -> None:
    config = state.config
    active = _active(me)
    reverse_ok = _can_reverse(config, me, seat)
    named = len(state.players) > 2
    for foe in opponents(state, seat):
        targets = _active(state.players[foe])
        for attacker in active:
            for target in targets:
                a, x = attacker >> 4, target >> 4
                if ATTACK_SUPPORT[a][x]:
                    actions.append(_declare(attacker, target, foe if named else None))
                elif reverse_ok and ATTACK_SUPPORT[x][a]:
                    actions.append(_declare(attacker, target, foe if named else None, True))
    if len(me.field) < FIELD_SLOTS and me.hand:
        for first, second in combinations(active, 2):
            third = LINE_THIRD[first >> 4][second >> 4]
            if not third:
                continue
            for card in sorted(set(me.hand)):
                if card & 15 < WILD and card >> 4 == third:
                    actions.append(_recruit(card, first, second))
                elif card & 15 >= WILD:
                    actions.append(_recruit(third * 16 + (card & 15), first, second))
    _combine_and_promote(state, seat, me, actions)
    actions.extend(Flip(card) for card in me.hidden)
    if me.temp_jokers < JOKER_SUPPLY and can_use(config, me, seat, Special.TEMP_JOKER):
        actions.append(PlaceJoker())


def _counter_shapes(defender: PlayerState, target: int) -> list[tuple[int, int, int, int]]:
    """Every counter the defender's field allows against ``target``, whatever the hand:
    ``(partner, result value, recruit value, recruiter pair index)`` rows; ``recruit value``
    is 0 for a combine counter. Public: the window opens only when this is not empty."""
    x = target >> 4
    active = _active(defender)
    shapes: list[tuple[int, int, int, int]] = []
    for partner in active:
        if partner != target and x + (partner >> 4) <= MAX_COMBAT:
            shapes.append((partner, x + (partner >> 4), 0, -1))
    if len(defender.field) < FIELD_SLOTS:
        for index, (one, two) in enumerate(combinations(active, 2)):
            third = LINE_THIRD[one >> 4][two >> 4]
            if third and x + third <= MAX_COMBAT:
                shapes.append((0, x + third, third, index))
    return shapes


def window_opens(state: FanoState, defender_seat: int, target: int) -> bool:
    """Whether the defender gets a counter window: the field (public) allows some counter, or
    holds a face-down card (which could be flipped for one)."""
    defender = state.players[defender_seat]
    return bool(defender.hidden) or bool(_counter_shapes(defender, target))


def _hand_cards(hand: tuple[int, ...], value: int) -> list[int]:
    """The hand cards that can enter play as ``value`` (a joker declared as it)."""
    found = [card for card in hand if card & 15 < WILD and card >> 4 == value]
    found.extend(value * 16 + (card & 15) for card in sorted(set(hand)) if card & 15 >= WILD)
    return found


def _react_actions(state: FanoState) -> tuple[FanoAction, ...]:
    pending = state.pending
    if pending is None:
        return ()
    defender = state.players[pending.defender]
    actions: list[FanoAction] = [Allow()]
    if defender.temp_jokers > 1:
        return tuple(dict.fromkeys(_counter_actions(pending, defender, actions)))
    return tuple(_counter_actions(pending, defender, actions))


def _counter_actions(
    pending: Pending, defender: PlayerState, actions: list[FanoAction]
) -> list[FanoAction]:
    target = pending.target
    if pending.support:
        actions.extend(Sacrifice(card) for card in defender.hidden)
        return actions
    actions.extend(Flip(card) for card in defender.hidden)
    active = _active(defender)
    pairs = list(combinations(active, 2))
    for partner, total, third, index in _counter_shapes(defender, target):
        if not third:
            for result in _hand_cards(defender.hand, total):
                one, two = min(partner, target), max(partner, target)
                for returned in (0, one, two):
                    if returned & 15 < WILD:
                        actions.append(_combine_counter(one, two, result, returned))
            continue
        recruiters = pairs[index]
        for recruited in _hand_cards(defender.hand, third):
            rest = _remove(defender.hand, base_card(recruited))
            for result in _hand_cards(rest, total):
                one, two = min(recruited, target), max(recruited, target)
                for returned in (0, one, two):
                    if returned & 15 < WILD:
                        actions.append(
                            _combine_counter(one, two, result, returned, recruited, recruiters)
                        )
    return actions


def _end_actions(state: FanoState, seat: int, me: PlayerState, actions: list[FanoAction]) -> None:
    config = state.config
    hand = me.hand
    field = me.field
    plays, down_plays, discards = _hand_end_actions(hand)
    if len(field) < FIELD_SLOTS:
        actions.extend(plays)
        if config.trionfey and can_use(config, me, seat, Special.DEFENSE):
            actions.extend(down_plays)
    for removed in field:
        actions.extend(_substitutes(removed, hand, False))
    if field and config.trionfey and can_substitute_down(config, me, seat):
        for removed in field:
            actions.extend(_substitutes(removed, hand, True))
    actions.extend(discards)
    actions.append(_PASS)


_PASS = Pass()


def _playable(hand: tuple[int, ...]) -> list[int]:
    """The combat cards ``hand`` can play (a joker as each combat value), in order."""
    playable: list[int] = []
    for card in sorted(set(hand)):
        if card & 15 >= WILD:
            playable.extend(value * 16 + (card & 15) for value in range(1, MAX_COMBAT + 1))
        elif card >> 4 <= MAX_COMBAT:
            playable.append(card)
    return playable


@lru_cache(maxsize=4096)
def _hand_end_actions(
    hand: tuple[int, ...],
) -> tuple[tuple[Play, ...], tuple[Play, ...], tuple[Discard, ...]]:
    """The end actions a hand allows, whatever the field: plays, face-down plays (Trionfey
    Diamonds: a joker was seen drawn face up, so only suited cards go in face down) and
    discards. Cached: hands repeat across turns and games."""
    playable = _playable(hand)
    discards = tuple(
        Discard(cards)
        for size in range(1, len(hand) + 1)
        for cards in dict.fromkeys(combinations(hand, size))
    )
    return (
        tuple(Play(card) for card in playable),
        tuple(Play(card, face_down=True) for card in playable if card & 15 < WILD),
        discards,
    )


@lru_cache(maxsize=8192)
def _substitutes(removed: int, hand: tuple[int, ...], face_down: bool) -> tuple[Substitute, ...]:
    """Every substitute of ``removed`` (in play) by a card of ``hand`` (face down: suited
    cards only)."""
    playable = _playable(hand)
    if face_down:
        return tuple(Substitute(removed, card, True) for card in playable if card & 15 < WILD)
    return tuple(Substitute(removed, card) for card in playable)


# ------------------------------------------------------------------------------- applying
def apply(state: FanoState, action: FanoAction) -> FanoState:
    """The state after a legal ``action`` (the caller checked legality)."""
    if isinstance(action, END_ACTIONS):  # most moves: checked first
        return _apply_end(state, action)
    if isinstance(action, Declare | CombineCounter | Allow | Sacrifice):
        return _apply_attack_step(state, action)
    if isinstance(action, Flip):
        seat = state.decider
        me = state.players[seat]
        me = _pl(me, hidden=_remove(me.hidden, action.card))
        return _st(state, players=_with(state.players, seat, me))
    seat = state.turn_player
    me = state.players[seat]
    players = state.players
    if isinstance(action, PlaceJoker):
        me = _spend(state.config, me, Special.TEMP_JOKER)
        me = _pl(me, draw=(*me.draw, TEMP_JOKER), temp_jokers=me.temp_jokers + 1)
        return _st(state, players=_with(players, seat, me))
    if isinstance(action, Recruit):
        me = _take_from_hand(me, action.card)
        me = _pl(me, field=_add(me.field, action.card))
        return _after_main_action(state, players, seat, me)
    if isinstance(action, Attack):
        target_seat = state.target_of(seat)
        me = _take_from_hand(me, action.support)
        me = _leave_field(me, action.attacker)
        me = _pl(me, field=_add(me.field, action.support))
        if action.reverse:
            me = _pl(me, specials=(*me.specials, (me.level, Special.REVERSE)))
        players = _with(players, target_seat, _leave_field(players[target_seat], action.target))
        return _after_main_action(state, players, seat, me)
    if isinstance(action, Combine):
        me = _take_from_hand(me, action.result)
        for card in (action.first, action.second):
            if card == action.returned:
                field = _remove(me.field, card)
                protected = _remove(me.protected, card) if card in me.protected else me.protected
                me = _pl(
                    me,
                    field=field,
                    protected=protected,
                    hand=_add(me.hand, card),
                    known=_add(me.known, card),
                )
            else:
                me = _leave_field(me, card)
        me = _pl(me, field=_add(me.field, action.result))
        if action.oversum:
            me = _spend(state.config, me, Special.OVERSUM)
        if not action.oversum or action.result >> 4 <= MAX_COMBAT:
            # No tribute for an Oversum combine that makes a prestige card.
            me = _earn(state.config, me)
        return _after_main_action(state, players, seat, me)
    if isinstance(action, Promote):
        owners = action.owners or (None,) * len(action.cards)
        for card, owner in zip(action.cards, owners, strict=True):
            if owner is None:
                me = _leave_field(me, card)
            else:
                players = _with(players, owner, _leave_field(players[owner], card))
        players = _with(players, seat, me)
        # One for all: the partnership's shared commander moves up for every partner.
        for member in (
            teammates(state.config, seat) if state.config.teams is Teams.ONE_FOR_ALL else (seat,)
        ):
            players = _with(players, member, _pl(players[member], level=players[member].level + 1))
        phase = Phase.END if state.config.promotion_ends_main else state.phase
        return _st(state, players=players, phase=phase)
    if isinstance(action, Defend):
        me = _pl(
            me,
            protected=_add(me.protected, action.card),
            specials=(*me.specials, (me.level, Special.DEFENSE)),
        )
        return _st(state, players=_with(players, seat, me))
    if isinstance(action, Mulligan):
        if not action.take:
            return _st(state, phase=Phase.MAIN)
        me = _pl(me, up=tuple(sorted((*me.up, *me.hand))), hand=(), known=())
        me, asked = draw_to_three(state, seat, me)
        return _st(
            state, players=_with(players, seat, me), phase=Phase.SHUFFLE if asked else Phase.MAIN
        )
    # The one kind left: a reshuffle decision.
    me = reshuffle(state, seat, me, action.joker)
    me, _ = draw_to_three(state, seat, me, ask=False)
    drawing = state.phase is Phase.DRAW_SHUFFLE
    phase = _after_draw_phase(state.config, me) if drawing else Phase.MAIN
    return _st(state, players=_with(players, seat, me), phase=phase)


def _apply_end(state: FanoState, action: Play | Substitute | Discard | Pass) -> FanoState:
    """An end action, then the next player's turn."""
    seat = state.turn_player
    me = state.players[seat]
    players = state.players
    if isinstance(action, Play):
        me = _take_from_hand(me, action.card, field=_add(me.field, action.card))
        if action.face_down:
            me = _spend(state.config, me, Special.DEFENSE)
            me = _pl(me, hidden=_add(me.hidden, action.card))
    elif isinstance(action, Substitute):
        me = _leave_field(me, action.removed)
        me = _take_from_hand(me, action.card, field=_add(me.field, action.card))
        # The discard comes first and earns its counter, which may pay for the face-down play.
        me = _earn(state.config, me)
        if action.face_down:
            me = _spend(state.config, me, Special.DEFENSE)
            me = _pl(me, hidden=_add(me.hidden, action.card))
    elif isinstance(action, Discard):
        hand = me.hand
        down = list(me.down)
        temp_jokers = me.temp_jokers
        for card in action.cards:
            hand = _remove(hand, card)
            # As _to_discard: a Temporary Joker leaves the game, the rest goes face down.
            if base_card(card) == TEMP_JOKER:
                temp_jokers -= 1
            else:
                down.append(base_card(card))
        # Which hand cards went face down is hidden, so what others knew of the hand is lost
        # (a Spades joker leaves the game openly, so one still in hand stays known).
        known: tuple[int, ...] = ()
        if state.config.trionfey:
            known = tuple(card for card in hand if card == TEMP_JOKER)
        tribute = min(TRIBUTE_CAP, me.tribute + 1) if state.config.tribute else me.tribute
        me = _pl(
            me,
            hand=hand,
            down=tuple(sorted(down)),
            known=known,
            temp_jokers=temp_jokers,
            tribute=tribute,
        )
    following, priority = next_turn(state)
    return start_turn(
        _st(state, players=_with(players, seat, me), priority=priority),
        following,
        state.turn + 1,
    )


def _after_main_action(
    state: FanoState, players: tuple[PlayerState, ...], seat: int, me: PlayerState
) -> FanoState:
    """Run the empty-hand draw of the main phase after an attack or a combine."""
    phase = state.phase
    if not me.hand:
        me, asked = draw_to_three(state, seat, me)
        if asked:
            phase = Phase.SHUFFLE
    return _st(state, players=_with(players, seat, me), phase=phase)


def _apply_attack_step(
    state: FanoState, action: Declare | CombineCounter | Allow | Sacrifice
) -> FanoState:
    """A declaration, a counter, or the defender letting the attack resolve (Trionfey)."""
    if isinstance(action, Declare):
        seat = state.turn_player
        defender = action.seat if action.seat is not None else state.target_of(seat)
        me = state.players[seat]
        if action.reverse:
            me = _spend(state.config, me, Special.REVERSE)
        state = _st(
            state,
            players=_with(state.players, seat, me),
            pending=Pending(action.attacker, action.target, defender, action.reverse),
            target_seat=defender if len(state.players) > 2 else None,
        )
        if window_opens(state, defender, action.target):
            return _st(state, phase=Phase.REACT)
        return _resolve(state)
    if isinstance(action, Allow):
        if state.pending is not None and state.pending.support:
            return _complete(state, state.pending.target)
        return _resolve(state)
    if isinstance(action, Sacrifice):
        return _complete(state, action.card)
    pending = state.pending
    if pending is None:  # pragma: no cover - the caller checked legality
        return state
    seat = pending.defender
    me = state.players[seat]
    if action.recruiters:
        me = _take_from_hand(me, action.recruited)
        me = _pl(me, field=_add(me.field, action.recruited))
    me = _take_from_hand(me, action.result)
    for card in (action.first, action.second):
        if card == action.returned:
            me = _pl(
                me,
                field=_remove(me.field, card),
                hand=_add(me.hand, card),
                known=_add(me.known, card),
            )
        else:
            me = _leave_field(me, card)
    me = _pl(me, field=_add(me.field, action.result))
    me = _earn(state.config, me)
    pending = replace(pending, target=action.result)
    state = _st(state, players=_with(state.players, seat, me), pending=pending)
    # The attack turns on the new card: it goes on only if that is still a legal direction
    # and the attacker holds the support; otherwise only the attacker is discarded.
    needed = support_value(pending.attacker >> 4, action.result >> 4, pending.reverse)
    attacker = state.players[state.turn_player]
    if not needed or not _hand_cards(attacker.hand, needed):
        return _fail_attack(state)
    if window_opens(state, seat, action.result):
        return _st(state, phase=Phase.REACT)
    return _resolve(state)


def _resolve(state: FanoState) -> FanoState:
    """The defender lets the attack be: the attacker shows the support, or loses the attacker."""
    pending = state.pending
    if pending is None:  # pragma: no cover - only called with an attack pending
        return state
    seat = state.turn_player
    me = state.players[seat]
    needed = support_value(pending.attacker >> 4, pending.target >> 4, pending.reverse)
    supports = _hand_cards(me.hand, needed) if needed else []
    if not supports:
        return _fail_attack(state)
    # A real card is shown before a joker (the joker stays wild in hand).
    state = _st(state, pending=replace(pending, support=supports[0]))
    if state.players[pending.defender].hidden:
        # Perfect defense: the defender may discard a face-down card instead.
        return _st(state, phase=Phase.REACT)
    return _complete(state, pending.target)


def _complete(state: FanoState, lost: int) -> FanoState:
    """The attack succeeds: the attacker and ``lost`` (the target, or a face-down card
    sacrificed for it, which goes face down) are discarded and the support enters play."""
    pending = state.pending
    if pending is None:  # pragma: no cover - only called with an attack pending
        return state
    seat = state.turn_player
    me = state.players[seat]
    me = _take_from_hand(me, pending.support)
    me = _leave_field(me, pending.attacker)
    me = _pl(me, field=_add(me.field, pending.support))
    defender = state.players[pending.defender]
    face_up = lost not in defender.hidden
    players = _with(state.players, pending.defender, _leave_field(defender, lost, face_up))
    state = _st(state, pending=None, phase=Phase.MAIN)
    return _after_main_action(state, players, seat, me)


def _fail_attack(state: FanoState) -> FanoState:
    """The attack cannot be completed: only the attacking card is discarded, face up."""
    pending = state.pending
    if pending is None:  # pragma: no cover - only called with an attack pending
        return state
    seat = state.turn_player
    me = _leave_field(state.players[seat], pending.attacker)
    return _st(state, players=_with(state.players, seat, me), pending=None, phase=Phase.MAIN)


def _spend(config: FanoConfig, player: PlayerState, special: Special) -> PlayerState:
    """Pay for a special: three tribute counters (Trionfey) or the level's use (classic)."""
    if config.trionfey:
        return _pl(player, tribute=player.tribute - TRIBUTE_COST)
    return _pl(player, specials=(*player.specials, (player.level, special)))


def _earn(config: FanoConfig, player: PlayerState) -> PlayerState:
    """One tribute counter for discarding your own cards (Trionfey specials; at most 7)."""
    if not config.tribute:
        return player
    return _pl(player, tribute=min(TRIBUTE_CAP, player.tribute + 1))


# ------------------------------------------------------------------------------ invariants
def invariant_violations(state: FanoState) -> list[str]:
    """Every broken rule invariant of ``state``."""
    problems: list[str] = []
    config = state.config
    if len(state.players) != config.players:
        problems.append(f"{len(state.players)} players but the config has {config.players}")
        return problems
    if not 0 <= state.turn_player < config.players:
        problems.append(f"turn player {state.turn_player} out of range")
    if not 1 <= state.turn <= config.turn_limit + 1:
        problems.append(f"turn {state.turn} outside 1..{config.turn_limit + 1}")
    winners = [seat for seat, p in enumerate(state.players) if p.level >= config.promotions_to_win]
    if config.teams is Teams.ONE_FOR_ALL:
        winners = sorted({min(teammates(config, seat)) for seat in winners})
        for seat in range(config.players):
            partner = (seat + 2) % config.players
            if state.players[seat].level != state.players[partner].level:
                problems.append(f"Players {seat + 1} and {partner + 1} share a commander")
    if len(winners) > 1:
        problems.append(f"several winners: {winners}")
    if config.teams is Teams.NONE and state.priority != 0:
        problems.append("priority without partnerships")
    if config.teams is not Teams.NONE and (
        not 0 <= state.priority < config.players
        or state.turn_player not in teammates(config, state.priority)
    ):
        problems.append("the turn player is not in the partnership holding priority")
    for seat, player in enumerate(state.players):
        problems.extend(
            f"Player {seat + 1}: {text}" for text in _player_problems(state, seat, player)
        )
    if state.phase is Phase.MULLIGAN and not mulligan_offered(
        config, state.players[state.turn_player].hand
    ):
        problems.append("a mulligan is offered for a hand that does not allow it")
    problems.extend(_attack_problems(state))
    if problems:
        return problems
    for action in legal_actions(state):
        if isinstance(action, Attack) and (
            action.attacker >> 4 > MAX_COMBAT or action.target >> 4 > MAX_COMBAT
        ):
            problems.append(f"legal attack {action} involves a prestige card")
        if isinstance(action, Play | Substitute) and action.card >> 4 > MAX_COMBAT:
            problems.append(f"legal {action} plays a prestige card from hand")
    return problems


def _attack_problems(state: FanoState) -> Iterable[str]:
    pending = state.pending
    if (pending is not None) != (state.phase is Phase.REACT):
        yield "a declared attack is pending exactly in the counter window"
    if state.target_seat is not None and (
        not state.config.trionfey
        or len(state.players) == 2
        or state.target_seat == state.turn_player
        or not 0 <= state.target_seat < len(state.players)
    ):
        yield f"impossible attacked player {state.target_seat + 1}"
    if pending is None:
        return
    if not state.config.trionfey:
        yield "a declared attack in the classic edition"
        return
    if pending.defender == state.turn_player or not 0 <= pending.defender < len(state.players):
        yield "the defender is not an opponent"
        return
    if pending.attacker not in _active(state.players[state.turn_player]):
        yield "the declared attacker is not a face-up combat card in play"
    if pending.target not in _active(state.players[pending.defender]):
        yield "the attacked card is not a face-up combat card in play"
    if pending.support:
        needed = support_value(pending.attacker >> 4, pending.target >> 4, pending.reverse)
        hand = state.players[state.turn_player].hand
        if pending.support >> 4 != needed or base_card(pending.support) not in hand:
            yield "the shown support does not fit the attack"
        if not state.players[pending.defender].hidden:
            yield "a shown support waits with no face-down card to sacrifice"
    if len(state.players) > 2 and state.target_seat != pending.defender:
        yield "the defender is not the player attacked this turn"


def _player_problems(state: FanoState, seat: int, player: PlayerState) -> Iterable[str]:
    config = state.config
    zones = {
        "hand": player.hand,
        "field": player.field,
        "draw pile": player.draw,
        "face-up discards": player.up,
        "face-down discards": player.down,
    }
    have: list[int] = []
    for name, cards in zones.items():
        if name != "draw pile" and any(a > b for a, b in pairwise(cards)):
            yield f"{name} not in order"
        for card in cards:
            if card & 15 < WILD:
                have.append(card)
                continue
            have.append(card & 15)
            if card & 15 == TEMP and config.specials is SpecialsMode.OFF and not config.tribute:
                yield "a Temporary Joker without specials"
            if name == "field" and not 1 <= card >> 4 <= MAX_COMBAT:
                yield f"joker {card_text(card)} in play without a combat value"
            if name != "field" and card >> 4:
                yield f"joker {card_text(card)} keeps a value off the field"
    have.sort()
    want = sorted((*deck_of(config, seat), *([TEMP_JOKER] * player.temp_jokers)))
    if have != want:
        missing = sorted((Counter(want) - Counter(have)).elements())
        extra = sorted((Counter(have) - Counter(want)).elements())
        yield (
            f"cards not each in exactly one place (missing {[card_text(c) for c in missing]}, "
            f"extra or repeated {[card_text(c) for c in extra]})"
        )
    if not 0 <= player.temp_jokers <= (JOKER_SUPPLY if config.trionfey else 1):
        yield f"{player.temp_jokers} Temporary Jokers"
    if len(player.field) > FIELD_SLOTS:
        yield f"{len(player.field)} cards in play"
    if len(player.hand) > HAND_SIZE:
        yield f"{len(player.hand)} cards in hand"
    if not set(player.known) <= set(player.hand):
        yield "known cards not in hand"
    if not set(player.protected) <= set(player.field):
        yield "a protected card is not in play"
    if any(card >> 4 > MAX_COMBAT for card in player.protected):
        yield "a prestige card under Perfect defense"
    if not 0 <= player.level <= config.promotions_to_win:
        yield f"commander level {player.level}"
    levels = [level for level, _ in player.specials]
    if len(set(levels)) != len(levels) or any(level > player.level for level in levels):
        yield "more than one special at a commander level"
    if any(special not in specials_of(config, seat) for _, special in player.specials):
        yield "a special this player may not use"
    if player.shuffles < 0:
        yield "negative shuffle count"
    if not 0 <= player.tribute <= TRIBUTE_CAP or (player.tribute and not config.tribute):
        yield f"{player.tribute} tribute counters"
    if player.hidden and not config.tribute:
        yield "face-down cards in play without the Trionfey specials"
    if not set(player.hidden) <= set(player.field):
        yield "a face-down card is not in play"
    if any(not 1 <= card >> 4 <= MAX_COMBAT for card in player.hidden):
        yield "a face-down card in play that is not a combat card"
    if config.trionfey:
        jokers = player.draw.count(TEMP_JOKER)
        if jokers and set(player.draw[-jokers:]) != {TEMP_JOKER}:
            yield "a Spades joker inside the draw pile (they lie on top)"
