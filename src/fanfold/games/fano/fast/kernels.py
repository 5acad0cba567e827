"""The compiled Fano kernels: legal actions, apply and random playouts on the array layout.

Every function here is ``@njit(cache=True)``: Numba compiles it on first call and keeps the
machine code in its cache (``__pycache__`` next to this file, or Numba's user-wide cache
directory when that is not writable; ``NUMBA_CACHE_DIR`` overrides both), so later processes
load it instead of compiling. Importing this module imports Numba: only :mod:`.engine` does,
on first use.

The kernels import the rules' constants (hand size, tribute cost and cap, Joker supply, field
slots, the plane's tables) from the rules modules; :mod:`fanfold.core.numba_cache` makes a
change to any of them compile the kernels afresh instead of loading stale code.

The kernels follow the reference rules (:mod:`fanfold.games.fano.rules`) step by step, in the
same order, so the legal actions come out in the reference's order; the tests check this
action by action. Reshuffles use the fast path's own generator (``np.random``, seeded per
playout) unless the shuffle buffer says exact mode, where the reference's permutation must be
given (see :data:`.layout.NEEDS_SHUFFLE`).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from fanfold.core import numba_cache
from fanfold.games.fano.cards import ATTACK_SUPPORT as SUPPORT_ROWS
from fanfold.games.fano.cards import LINE_THIRD as THIRD_ROWS
from fanfold.games.fano.cards import MAX_COMBAT, TEMP, WILD
from fanfold.games.fano.config import Teams
from fanfold.games.fano.fast.layout import (
    C_EASY,
    C_HARD,
    C_LAST_TURN,
    C_MULLIGAN,
    C_OVERSUM_PRESTIGE_ONLY,
    C_PLAYERS,
    C_PROMOTION_ENDS_MAIN,
    C_PROMOTIONS_TO_WIN,
    C_SEAT_SPECIALS,
    C_TEAMS,
    C_TRIBUTE,
    C_TRIONFEY,
    DOWN,
    DRAW,
    F_SET,
    FIELD,
    HAND,
    HEADER,
    HIDDEN,
    K_ALLOW,
    K_ATTACK,
    K_COMBINE,
    K_COUNTER,
    K_DECLARE,
    K_DEFEND,
    K_DISCARD,
    K_FLIP,
    K_MULLIGAN,
    K_PASS,
    K_PLACE_JOKER,
    K_PLAY,
    K_PROMOTE,
    K_RECRUIT,
    K_SACRIFICE,
    K_SHUFFLE,
    K_SUBSTITUTE,
    KNOWN,
    LEVEL,
    MAX_ACTIONS,
    NEEDS_SHUFFLE,
    OK,
    P_DRAW_SHUFFLE,
    P_END,
    P_MAIN,
    P_MULLIGAN,
    P_OVER,
    P_REACT,
    P_SHUFFLE,
    PENDING_ATTACKER,
    PENDING_DEFENDER,
    PENDING_REVERSE,
    PENDING_SUPPORT,
    PENDING_TARGET,
    PHASE,
    PILE_CAP,
    PLAYER_WIDTH,
    PRIORITY,
    PROTECTED,
    S_DEFENSE,
    S_OVERSUM,
    S_REVERSE,
    S_TEMP_JOKER,
    SHIFT_A,
    SHIFT_B,
    SHIFT_C,
    SHIFT_D,
    SHIFT_E,
    SHIFT_FLAGS,
    SHUFFLE_COUNT,
    SHUFFLE_GIVEN,
    SHUFFLE_MODE,
    SHUFFLE_PERM,
    SHUFFLE_SEAT,
    SHUFFLE_SIZE,
    SHUFFLES,
    SPECIALS,
    TARGET_SEAT,
    TEMP_JOKERS,
    TRIBUTE,
    TURN,
    TURN_PLAYER,
    UP,
)
from fanfold.games.fano.rules.deck import HAND_SIZE
from fanfold.games.fano.rules.specials import JOKER_SUPPLY, TRIBUTE_CAP, TRIBUTE_COST
from fanfold.games.fano.rules.zones import FIELD_SLOTS

numba_cache.install()  # a change to a constant imported here compiles the kernels afresh

#: The config array's code of "One for all" (Fano's partnership teams), as the codec writes it.
ONE_FOR_ALL = tuple(Teams).index(Teams.ONE_FOR_ALL)
#: :func:`_draw_to_three` stopped to ask whether to add a Temporary Joker.
ASKED = 2


def _value_table(rows: tuple[tuple[int, ...], ...]) -> npt.NDArray[np.int32]:
    """A plane table of :mod:`fanfold.games.fano.cards` as an array indexed by any card value
    (0 to 10; the prestige values 8 to 10 are on no line)."""
    table = np.zeros((11, 11), np.int32)
    table[: len(rows), : len(rows)] = np.array(rows, np.int32)
    return table


#: ``ATTACK_SUPPORT[a, x]``: :data:`fanfold.games.fano.cards.ATTACK_SUPPORT` (0: no attack).
ATTACK_SUPPORT = _value_table(SUPPORT_ROWS)
#: ``LINE_THIRD[a, x]``: the third point of the line through ``a`` and ``x``.
LINE_THIRD = _value_table(THIRD_ROWS)


# ----------------------------------------------------------------------------- card lists
@njit(cache=True)
def _insert(s, at, card):  # type: ignore[no-untyped-def]
    """Insert ``card`` into the sorted zone at ``at`` (count, then cards)."""
    n = s[at]
    i = n
    while i > 0 and s[at + i] > card:
        s[at + i + 1] = s[at + i]
        i -= 1
    s[at + i + 1] = card
    s[at] = n + 1


@njit(cache=True)
def _remove(s, at, card):  # type: ignore[no-untyped-def]
    """Remove one ``card`` from the zone at ``at``; False when it is not there."""
    n = s[at]
    for i in range(n):
        if s[at + 1 + i] == card:
            for j in range(i, n - 1):
                s[at + 1 + j] = s[at + 2 + j]
            s[at + n] = 0
            s[at] = n - 1
            return True
    return False


@njit(cache=True)
def _contains(s, at, card):  # type: ignore[no-untyped-def]
    for i in range(s[at]):  # noqa: SIM110 - plain loops compile best in Numba
        if s[at + 1 + i] == card:
            return True
    return False


@njit(cache=True)
def _base(card):  # type: ignore[no-untyped-def]
    """The card off the field: a declared joker is wild again."""
    kind = card & 15
    return kind if kind >= WILD else card


@njit(cache=True)
def _suited(card):  # type: ignore[no-untyped-def]
    return (card & 15) < WILD


@njit(cache=True)
def _prestige(card):  # type: ignore[no-untyped-def]
    return (card >> 4) >= 8 and (card & 15) < WILD


@njit(cache=True)
def _combat(card):  # type: ignore[no-untyped-def]
    value = card >> 4
    return value >= 1 and value <= MAX_COMBAT


@njit(cache=True)
def _seat(seat):  # type: ignore[no-untyped-def]
    return HEADER + seat * PLAYER_WIDTH


# ------------------------------------------------------------------------------ moving cards
@njit(cache=True)
def _leave_field(s, p, card, face_up):  # type: ignore[no-untyped-def]
    """``card`` leaves the field of the player at ``p`` for the discard pile."""
    _remove(s, p + FIELD, card)
    _remove(s, p + PROTECTED, card)
    _remove(s, p + HIDDEN, card)
    base = _base(card)
    if base == TEMP:
        s[p + TEMP_JOKERS] -= 1
    elif face_up:
        _insert(s, p + UP, base)
    else:
        _insert(s, p + DOWN, base)


@njit(cache=True)
def _return_to_hand(s, p, card):  # type: ignore[no-untyped-def]
    _remove(s, p + PROTECTED, card)
    _remove(s, p + FIELD, card)
    _insert(s, p + HAND, card)
    _insert(s, p + KNOWN, card)


@njit(cache=True)
def _take_from_hand(s, p, card):  # type: ignore[no-untyped-def]
    base = _base(card)
    _remove(s, p + KNOWN, base)
    _remove(s, p + HAND, base)


@njit(cache=True)
def _enter_play(s, p, card):  # type: ignore[no-untyped-def]
    _take_from_hand(s, p, card)
    _insert(s, p + FIELD, card)


# ---------------------------------------------------------------------------------- specials
@njit(cache=True)
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


@njit(cache=True)
def _spend(s, cfg, p, special):  # type: ignore[no-untyped-def]
    """Pay for a special: three tribute counters (Trionfey), or the level's use (classic,
    recorded in order of use)."""
    if cfg[C_TRIONFEY] == 1:
        s[p + TRIBUTE] -= TRIBUTE_COST
        return
    n = s[p + SPECIALS]
    s[p + SPECIALS + 1 + n] = s[p + LEVEL] * 4 + special
    s[p + SPECIALS] = n + 1


@njit(cache=True)
def _earn(s, cfg, p):  # type: ignore[no-untyped-def]
    """One tribute counter (Trionfey specials; at most seven)."""
    if cfg[C_TRIBUTE] == 1:
        s[p + TRIBUTE] = min(TRIBUTE_CAP, s[p + TRIBUTE] + 1)


@njit(cache=True)
def _can_substitute_down(s, cfg, seat):  # type: ignore[no-untyped-def]
    """Trionfey Diamonds: the substitute's counter may complete the three."""
    if cfg[C_TRIBUTE] == 0 or (cfg[C_SEAT_SPECIALS + seat] >> S_DEFENSE) & 1 == 0:
        return False
    return min(TRIBUTE_CAP, s[_seat(seat) + TRIBUTE] + 1) >= TRIBUTE_COST


# ------------------------------------------------------------------------ drawing, shuffles
@njit(cache=True)
def _reshuffle(s, seat, shuffle, joker):  # type: ignore[no-untyped-def]
    """The discard pile (face up and face down, sorted; with a Temporary Joker when
    ``joker``) shuffled under the draw pile."""
    p = _seat(seat)
    cards = np.empty(2 * PILE_CAP + 1, np.int32)
    n = 0
    i = 0
    j = 0
    nu = s[p + UP]
    nd = s[p + DOWN]
    placed = not joker
    while i < nu or j < nd:
        if not placed and (
            (i >= nu or s[p + UP + 1 + i] >= TEMP) and (j >= nd or s[p + DOWN + 1 + j] >= TEMP)
        ):
            cards[n] = TEMP
            n += 1
            placed = True
            continue
        if j >= nd or (i < nu and s[p + UP + 1 + i] <= s[p + DOWN + 1 + j]):
            cards[n] = s[p + UP + 1 + i]
            i += 1
        else:
            cards[n] = s[p + DOWN + 1 + j]
            j += 1
        n += 1
    if not placed:
        cards[n] = TEMP
        n += 1
    if shuffle[SHUFFLE_MODE] == 1:
        if shuffle[SHUFFLE_GIVEN] != n or shuffle[SHUFFLE_SEAT] != seat:
            shuffle[SHUFFLE_SEAT] = seat
            shuffle[SHUFFLE_COUNT] = n
            return NEEDS_SHUFFLE
        shuffled = np.empty(n, np.int32)
        for k in range(n):
            shuffled[k] = cards[shuffle[SHUFFLE_PERM + k]]
    else:
        shuffled = cards[:n].copy()
        for k in range(n - 1, 0, -1):
            r = np.random.randint(0, k + 1)
            t = shuffled[k]
            shuffled[k] = shuffled[r]
            shuffled[r] = t
    old = s[p + DRAW]
    for k in range(old - 1, -1, -1):
        s[p + DRAW + 1 + n + k] = s[p + DRAW + 1 + k]
    for k in range(n):
        s[p + DRAW + 1 + k] = shuffled[k]
    s[p + DRAW] = old + n
    for k in range(nu):
        s[p + UP + 1 + k] = 0
    for k in range(nd):
        s[p + DOWN + 1 + k] = 0
    s[p + UP] = 0
    s[p + DOWN] = 0
    s[p + SHUFFLES] += 1
    if joker:
        n = s[p + SPECIALS]
        s[p + SPECIALS + 1 + n] = s[p + LEVEL] * 4 + S_TEMP_JOKER
        s[p + SPECIALS] = n + 1
        s[p + TEMP_JOKERS] += 1
    return OK


@njit(cache=True)
def _draw_to_three(s, cfg, seat, shuffle, ask):  # type: ignore[no-untyped-def]
    """Draw until the hand holds three cards, reshuffling when the pile runs out. Returns
    :data:`ASKED` when drawing stopped to ask about a Temporary Joker (``ask``)."""
    p = _seat(seat)
    while s[p + HAND] < HAND_SIZE:
        n = s[p + DRAW]
        if n == 0:
            if ask and cfg[C_TRIONFEY] == 0 and _can_use(s, cfg, seat, S_TEMP_JOKER):
                return ASKED
            if s[p + UP] == 0 and s[p + DOWN] == 0:
                break
            status = _reshuffle(s, seat, shuffle, False)
            if status != OK:
                return status
            continue
        card = s[p + DRAW + n]
        s[p + DRAW + n] = 0
        s[p + DRAW] = n - 1
        if card == TEMP and cfg[C_TRIONFEY] == 1:
            # The Spades joker lies face up on the draw pile: everyone sees it drawn.
            _insert(s, p + KNOWN, TEMP)
        _insert(s, p + HAND, card)
    return OK


@njit(cache=True)
def _mulligan_offered(s, cfg, p):  # type: ignore[no-untyped-def]
    n = s[p + HAND]
    if cfg[C_MULLIGAN] == 0 or n == 0:
        return False
    if cfg[C_TRIONFEY] == 1:
        return (
            n == 3
            and s[p + HAND + 1] >> 4 == 8
            and s[p + HAND + 2] >> 4 == 9
            and s[p + HAND + 3] >> 4 == 10
        )
    for i in range(n):  # noqa: SIM110 - plain loops compile best in Numba
        if not _prestige(s[p + HAND + 1 + i]):
            return False
    return True


# ----------------------------------------------------------------------------------- turns
@njit(cache=True)
def winner(s, cfg):  # type: ignore[no-untyped-def]
    """The seat that reached the promotions needed, or -1."""
    for seat in range(cfg[C_PLAYERS]):
        if s[_seat(seat) + LEVEL] >= cfg[C_PROMOTIONS_TO_WIN]:
            return seat
    return -1


@njit(cache=True)
def _start_turn(s, cfg, seat, turn, shuffle):  # type: ignore[no-untyped-def]
    s[TURN_PLAYER] = seat
    s[TURN] = turn
    s[PENDING_ATTACKER] = 0
    s[PENDING_TARGET] = 0
    s[PENDING_DEFENDER] = 0
    s[PENDING_REVERSE] = 0
    s[PENDING_SUPPORT] = 0
    s[TARGET_SEAT] = -1
    if turn > cfg[C_LAST_TURN]:
        s[PHASE] = P_OVER
        return OK
    status = _draw_to_three(s, cfg, seat, shuffle, True)
    if status == ASKED:
        s[PHASE] = P_DRAW_SHUFFLE
        return OK
    if status != OK:
        return status
    s[PHASE] = P_MULLIGAN if _mulligan_offered(s, cfg, _seat(seat)) else P_MAIN
    return OK


@njit(cache=True)
def _end_turn(s, cfg, shuffle):  # type: ignore[no-untyped-def]
    """The next turn: the next seat; in partnerships the priority holder's partners in turn,
    then priority passes to the next seat."""
    count = cfg[C_PLAYERS]
    if cfg[C_TEAMS] == 0:
        following = (s[TURN_PLAYER] + 1) % count
    else:
        following = (s[TURN_PLAYER] + 2) % count
        if following == s[PRIORITY]:
            following = (s[PRIORITY] + 1) % count
            s[PRIORITY] = following
    return _start_turn(s, cfg, following, s[TURN] + 1, shuffle)


@njit(cache=True)
def _after_main_action(s, cfg, seat, shuffle):  # type: ignore[no-untyped-def]
    if s[_seat(seat) + HAND] == 0:
        status = _draw_to_three(s, cfg, seat, shuffle, True)
        if status == ASKED:
            s[PHASE] = P_SHUFFLE
            return OK
        return status
    return OK


# ---------------------------------------------------------------------------- legal actions
@njit(cache=True)
def _pack(kind, a, b, c, d, flags):  # type: ignore[no-untyped-def]
    return (
        np.int64(kind)
        | (np.int64(a) << SHIFT_A)
        | (np.int64(b) << SHIFT_B)
        | (np.int64(c) << SHIFT_C)
        | (np.int64(d) << SHIFT_D)
        | (np.int64(flags) << SHIFT_FLAGS)
    )


@njit(cache=True)
def _hand_supports(s, p, value, attacker, target, reverse, out, n):  # type: ignore[no-untyped-def]
    """Attacks with each hand card that enters play as ``value``: suited cards in hand order,
    then each joker kind declared as it."""
    nh = s[p + HAND]
    for k in range(nh):
        card = s[p + HAND + 1 + k]
        if _suited(card) and (card >> 4) == value:
            out[n] = _pack(K_ATTACK, attacker, target, card, 0, reverse)
            n += 1
    for k in range(nh):
        card = s[p + HAND + 1 + k]
        if not _suited(card) and (k == 0 or card != s[p + HAND + k]):
            out[n] = _pack(K_ATTACK, attacker, target, value * 16 + card, 0, reverse)
            n += 1
    return n


@njit(cache=True)
def _attacks(s, cfg, seat, out, n):  # type: ignore[no-untyped-def]
    p = _seat(seat)
    q = _seat((seat + 1) % cfg[C_PLAYERS])
    if s[p + FIELD] == 0 or s[q + FIELD] == 0 or s[p + HAND] == 0:
        return n
    reverse_ok = _can_use(s, cfg, seat, S_REVERSE)
    for i in range(s[p + FIELD]):
        attacker = s[p + FIELD + 1 + i]
        a = attacker >> 4
        if a < 1 or a > MAX_COMBAT:
            continue
        for j in range(s[q + FIELD]):
            target = s[q + FIELD + 1 + j]
            if not _combat(target) or _contains(s, q + PROTECTED, target):
                continue
            x = target >> 4
            support = ATTACK_SUPPORT[a, x]
            if support != 0:
                n = _hand_supports(s, p, support, attacker, target, 0, out, n)
            elif reverse_ok and ATTACK_SUPPORT[x, a] != 0:
                n = _hand_supports(s, p, LINE_THIRD[a, x], attacker, target, F_SET, out, n)
    return n


@njit(cache=True)
def _combine_returns(first, second, result, oversum, out, n):  # type: ignore[no-untyped-def]
    """A combination returning nothing, then ``first``, then ``second`` (suited only)."""
    out[n] = _pack(K_COMBINE, first, second, result, 0, oversum)
    n += 1
    if _suited(first):
        out[n] = _pack(K_COMBINE, first, second, result, first, oversum)
        n += 1
    if _suited(second):
        out[n] = _pack(K_COMBINE, first, second, result, second, oversum)
        n += 1
    return n


@njit(cache=True)
def _combines(s, cfg, seat, field, nf, out, n):  # type: ignore[no-untyped-def]
    """Combinations of the face-up cards ``field[:nf]`` and promotions."""
    p = _seat(seat)
    nh = s[p + HAND]
    oversum_ok = _can_use(s, cfg, seat, S_OVERSUM)
    prestige_only = cfg[C_OVERSUM_PRESTIGE_ONLY] == 1
    if nf >= 2 and nh > 0:
        for i in range(nf):
            first = field[i]
            for j in range(i + 1, nf):
                second = field[j]
                total = (first >> 4) + (second >> 4)
                for k in range(nh):
                    card = s[p + HAND + 1 + k]
                    if k > 0 and card == s[p + HAND + k]:
                        continue  # the hand as a set
                    if _suited(card):
                        value = card >> 4
                        if value == total:
                            n = _combine_returns(first, second, card, 0, out, n)
                        elif value < total and oversum_ok and (not prestige_only or value >= 8):
                            n = _combine_returns(first, second, card, F_SET, out, n)
                        continue
                    if total <= MAX_COMBAT:
                        n = _combine_returns(first, second, total * 16 + card, 0, out, n)
                    if oversum_ok and not prestige_only:
                        for value in range(1, min(MAX_COMBAT + 1, total)):
                            n = _combine_returns(first, second, value * 16 + card, F_SET, out, n)
    if cfg[C_TEAMS] == ONE_FOR_ALL:
        return _team_promotions(s, cfg, seat, out, n)
    # Promotions: an 8, a 9 and a 10 (hard: of one suit), or any three (easy).
    for i in range(nf):
        one = field[i]
        if not _prestige(one):
            continue
        for j in range(i + 1, nf):
            two = field[j]
            if not _prestige(two):
                continue
            for k in range(j + 1, nf):
                three = field[k]
                if not _prestige(three):
                    continue
                ok = cfg[C_EASY] == 1
                if not ok:
                    v1 = one >> 4
                    v2 = two >> 4
                    v3 = three >> 4
                    # Field order is sorted by value, so 8, 9, 10 come in that order.
                    ok = v1 == 8 and v2 == 9 and v3 == 10
                    if ok and cfg[C_HARD] == 1:
                        ok = (one & 15) == (two & 15) and (two & 15) == (three & 15)
                if ok:
                    out[n] = _pack(K_PROMOTE, one, two, three, 0, 0)
                    n += 1
    return n


@njit(cache=True)
def _team_promotions(s, cfg, seat, out, n):  # type: ignore[no-untyped-def]
    """One for all: an 8, a 9 and a 10 from the partnership's fields; owners (seat + 1, 0 for
    the promoting seat) packed in d (first two) and e (third)."""
    count = cfg[C_PLAYERS]
    cards = np.zeros((3, 4 * 4), np.int32)
    owners = np.zeros((3, 4 * 4), np.int32)
    found = np.zeros(3, np.int32)
    for step in range(0, count, 2):
        member = (seat + step) % count
        owner = 0 if member == seat else member + 1
        q = _seat(member)
        for i in range(s[q + FIELD]):
            card = s[q + FIELD + 1 + i]
            if _prestige(card):
                row = (card >> 4) - 8
                cards[row, found[row]] = card
                owners[row, found[row]] = owner
                found[row] += 1
    for i in range(found[0]):
        for j in range(found[1]):
            for k in range(found[2]):
                out[n] = _pack(
                    K_PROMOTE,
                    cards[0, i],
                    cards[1, j],
                    cards[2, k],
                    owners[0, i] | (owners[1, j] << 4),
                    0,
                ) | (np.int64(owners[2, k]) << SHIFT_E)
                n += 1
    return n


@njit(cache=True)
def _active(s, p, cards):  # type: ignore[no-untyped-def]
    """The face-up combat cards in play (they attack, are attacked, recruit, counter)."""
    m = 0
    for i in range(s[p + FIELD]):
        card = s[p + FIELD + 1 + i]
        if _combat(card) and not _contains(s, p + HIDDEN, card):
            cards[m] = card
            m += 1
    return m


@njit(cache=True)
def _face_up(s, p, cards):  # type: ignore[no-untyped-def]
    """The cards in play that may combine: face up."""
    m = 0
    for i in range(s[p + FIELD]):
        card = s[p + FIELD + 1 + i]
        if not _contains(s, p + HIDDEN, card):
            cards[m] = card
            m += 1
    return m


@njit(cache=True)
def _hand_cards(s, p, value, skip, cards):  # type: ignore[no-untyped-def]
    """The hand cards that enter play as ``value`` (suited first, in hand order, then each
    joker kind declared as it), the hand less one ``skip`` card (0: none)."""
    m = 0
    if value <= 0:
        return 0
    skipped = skip == 0
    nh = s[p + HAND]
    for k in range(nh):
        card = s[p + HAND + 1 + k]
        if not skipped and card == skip:
            skipped = True
            continue
        if _suited(card) and (card >> 4) == value:
            cards[m] = card
            m += 1
    skipped = skip == 0
    last = -1
    for k in range(nh):
        card = s[p + HAND + 1 + k]
        if not skipped and card == skip:
            skipped = True
            continue
        if not _suited(card) and card != last:
            cards[m] = value * 16 + card
            m += 1
            last = card
    return m


@njit(cache=True)
def _support_value(attacker, target, reverse):  # type: ignore[no-untyped-def]
    if reverse:
        return LINE_THIRD[attacker, target] if ATTACK_SUPPORT[target, attacker] else 0
    return ATTACK_SUPPORT[attacker, target]


@njit(cache=True)
def _window_opens(s, cfg, defender, target):  # type: ignore[no-untyped-def]
    """The defender gets a counter window: a face-down card, or a counter shape."""
    q = _seat(defender)
    if s[q + HIDDEN] > 0:
        return True
    cards = np.empty(8, np.int32)
    m = _active(s, q, cards)
    x = target >> 4
    for i in range(m):
        if cards[i] != target and x + (cards[i] >> 4) <= MAX_COMBAT:
            return True
    if s[q + FIELD] < FIELD_SLOTS:
        for i in range(m):
            for j in range(i + 1, m):
                third = LINE_THIRD[cards[i] >> 4, cards[j] >> 4]
                if third and x + third <= MAX_COMBAT:
                    return True
    return False


@njit(cache=True)
def _opponents(s, cfg, seat, seats):  # type: ignore[no-untyped-def]
    """The seats ``seat`` may attack now."""
    count = cfg[C_PLAYERS]
    if cfg[C_TRIONFEY] == 0 or count == 2:
        seats[0] = (seat + 1) % count
        return 1
    if s[TARGET_SEAT] >= 0:
        seats[0] = s[TARGET_SEAT]
        return 1
    m = 0
    for other in range(count):
        partner = other == seat if cfg[C_TEAMS] == 0 else (other - seat) % 2 == 0
        if not partner:
            seats[m] = other
            m += 1
    return m


@njit(cache=True)
def _declarations(s, cfg, seat, out, n):  # type: ignore[no-untyped-def]
    p = _seat(seat)
    attackers = np.empty(8, np.int32)
    na = _active(s, p, attackers)
    if na == 0:
        return n
    reverse_ok = _can_use(s, cfg, seat, S_REVERSE)
    named = cfg[C_PLAYERS] > 2
    seats = np.empty(8, np.int32)
    targets = np.empty(8, np.int32)
    for f in range(_opponents(s, cfg, seat, seats)):
        foe = seats[f]
        nt = _active(s, _seat(foe), targets)
        for i in range(na):
            a = attackers[i] >> 4
            for j in range(nt):
                x = targets[j] >> 4
                if ATTACK_SUPPORT[a, x]:
                    reverse = 0
                elif reverse_ok and ATTACK_SUPPORT[x, a]:
                    reverse = F_SET
                else:
                    continue
                out[n] = _pack(
                    K_DECLARE, attackers[i], targets[j], foe + 1 if named else 0, 0, reverse
                )
                n += 1
    return n


@njit(cache=True)
def _recruits(s, seat, out, n):  # type: ignore[no-untyped-def]
    p = _seat(seat)
    nh = s[p + HAND]
    if s[p + FIELD] >= FIELD_SLOTS or nh == 0:
        return n
    cards = np.empty(8, np.int32)
    m = _active(s, p, cards)
    for i in range(m):
        for j in range(i + 1, m):
            third = LINE_THIRD[cards[i] >> 4, cards[j] >> 4]
            if not third:
                continue
            for k in range(nh):
                card = s[p + HAND + 1 + k]
                if k > 0 and card == s[p + HAND + k]:
                    continue
                if not _suited(card):
                    out[n] = _pack(K_RECRUIT, third * 16 + card, cards[i], cards[j], 0, 0)
                    n += 1
                elif card >> 4 == third:
                    out[n] = _pack(K_RECRUIT, card, cards[i], cards[j], 0, 0)
                    n += 1
    return n


@njit(cache=True)
def _counter(one, two, result, returned, recruited, first, second):  # type: ignore[no-untyped-def]
    """A packed counter: the recruiters in the flags byte and bits 56-63."""
    return (
        _pack(K_COUNTER, one, two, result, returned, first)
        | (np.int64(recruited) << SHIFT_E)
        | (np.int64(second) << 56)
    )


@njit(cache=True)
def _counter_returns(one, two, result, recruited, first, second, out, n):  # type: ignore[no-untyped-def]
    out[n] = _counter(one, two, result, 0, recruited, first, second)
    n += 1
    if _suited(one):
        out[n] = _counter(one, two, result, one, recruited, first, second)
        n += 1
    if _suited(two):
        out[n] = _counter(one, two, result, two, recruited, first, second)
        n += 1
    return n


@njit(cache=True)
def _react_actions(s, cfg, out):  # type: ignore[no-untyped-def]
    """The defender's answers to the pending attack."""
    defender = s[PENDING_DEFENDER]
    q = _seat(defender)
    target = s[PENDING_TARGET]
    out[0] = _pack(K_ALLOW, 0, 0, 0, 0, 0)
    n = 1
    if s[PENDING_SUPPORT]:
        for i in range(s[q + HIDDEN]):
            out[n] = _pack(K_SACRIFICE, s[q + HIDDEN + 1 + i], 0, 0, 0, 0)
            n += 1
        return n
    for i in range(s[q + HIDDEN]):
        out[n] = _pack(K_FLIP, s[q + HIDDEN + 1 + i], 0, 0, 0, 0)
        n += 1
    cards = np.empty(8, np.int32)
    m = _active(s, q, cards)
    x = target >> 4
    results = np.empty(16, np.int32)
    recruits = np.empty(16, np.int32)
    for i in range(m):
        partner = cards[i]
        total = x + (partner >> 4)
        if partner != target and total <= MAX_COMBAT:
            one = min(partner, target)
            two = max(partner, target)
            for r in range(_hand_cards(s, q, total, 0, results)):
                n = _counter_returns(one, two, results[r], 0, 0, 0, out, n)
    if s[q + FIELD] < FIELD_SLOTS:
        for i in range(m):
            for j in range(i + 1, m):
                third = LINE_THIRD[cards[i] >> 4, cards[j] >> 4]
                if not third or x + third > MAX_COMBAT:
                    continue
                for k in range(_hand_cards(s, q, third, 0, recruits)):
                    recruited = recruits[k]
                    one = min(recruited, target)
                    two = max(recruited, target)
                    for r in range(_hand_cards(s, q, x + third, _base(recruited), results)):
                        n = _counter_returns(
                            one, two, results[r], recruited, cards[i], cards[j], out, n
                        )
    if s[q + TEMP_JOKERS] > 1:
        return _unique(out, n)
    return n


@njit(cache=True)
def _playable(s, p, cards):  # type: ignore[no-untyped-def]
    """The combat cards the hand can play (a joker as each combat value), in order."""
    nh = s[p + HAND]
    m = 0
    for k in range(nh):
        card = s[p + HAND + 1 + k]
        if k > 0 and card == s[p + HAND + k]:
            continue
        if not _suited(card):
            for value in range(1, MAX_COMBAT + 1):
                cards[m] = value * 16 + card
                m += 1
        elif (card >> 4) <= MAX_COMBAT:
            cards[m] = card
            m += 1
    return m


@njit(cache=True)
def _end_actions(s, cfg, seat, out, n):  # type: ignore[no-untyped-def]
    p = _seat(seat)
    nh = s[p + HAND]
    nf = s[p + FIELD]
    cards = np.empty(8 * HAND_SIZE + 8, np.int32)
    m = _playable(s, p, cards)
    trionfey = cfg[C_TRIONFEY] == 1
    if nf < FIELD_SLOTS:
        for k in range(m):
            out[n] = _pack(K_PLAY, cards[k], 0, 0, 0, 0)
            n += 1
        if trionfey and _can_use(s, cfg, seat, S_DEFENSE):
            for k in range(m):
                if _suited(cards[k]):
                    out[n] = _pack(K_PLAY, cards[k], 0, 0, 0, F_SET)
                    n += 1
    for i in range(nf):
        removed = s[p + FIELD + 1 + i]
        for k in range(m):
            out[n] = _pack(K_SUBSTITUTE, removed, cards[k], 0, 0, 0)
            n += 1
    if nf > 0 and trionfey and _can_substitute_down(s, cfg, seat):
        for i in range(nf):
            removed = s[p + FIELD + 1 + i]
            for k in range(m):
                if _suited(cards[k]):
                    out[n] = _pack(K_SUBSTITUTE, removed, cards[k], 0, 0, F_SET)
                    n += 1
    # Discards: every set of one to three hand cards, in the order of combinations().
    for size in range(1, nh + 1):
        if size == 1:
            for a in range(nh):
                out[n] = _pack(K_DISCARD, s[p + HAND + 1 + a], 0, 0, 0, 0)
                n += 1
        elif size == 2:
            for a in range(nh):
                for b in range(a + 1, nh):
                    out[n] = _pack(K_DISCARD, s[p + HAND + 1 + a], s[p + HAND + 1 + b], 0, 0, 0)
                    n += 1
        elif size == 3:
            for a in range(nh):
                for b in range(a + 1, nh):
                    for c in range(b + 1, nh):
                        out[n] = _pack(
                            K_DISCARD,
                            s[p + HAND + 1 + a],
                            s[p + HAND + 1 + b],
                            s[p + HAND + 1 + c],
                            0,
                            0,
                        )
                        n += 1
    out[n] = _pack(K_PASS, 0, 0, 0, 0, 0)
    return n + 1


@njit(cache=True)
def legal_actions(s, cfg, out):  # type: ignore[no-untyped-def]
    """Write the decider's legal actions into ``out`` (reference order); return how many."""
    phase = s[PHASE]
    if phase == P_OVER or winner(s, cfg) >= 0:
        return 0
    if phase == P_MULLIGAN:
        out[0] = _pack(K_MULLIGAN, 0, 0, 0, 0, F_SET)
        out[1] = _pack(K_MULLIGAN, 0, 0, 0, 0, 0)
        return 2
    if phase == P_DRAW_SHUFFLE or phase == P_SHUFFLE:  # noqa: SIM109 - Numba
        out[0] = _pack(K_SHUFFLE, 0, 0, 0, 0, 0)
        out[1] = _pack(K_SHUFFLE, 0, 0, 0, 0, F_SET)
        return 2
    if phase == P_REACT:
        return _react_actions(s, cfg, out)
    seat = s[TURN_PLAYER]
    p = _seat(seat)
    n = 0
    if phase == P_MAIN:
        field = np.empty(8, np.int32)
        if cfg[C_TRIONFEY] == 1:
            n = _declarations(s, cfg, seat, out, n)
            n = _recruits(s, seat, out, n)
            n = _combines(s, cfg, seat, field, _face_up(s, p, field), out, n)
            for i in range(s[p + HIDDEN]):
                out[n] = _pack(K_FLIP, s[p + HIDDEN + 1 + i], 0, 0, 0, 0)
                n += 1
            if s[p + TEMP_JOKERS] < JOKER_SUPPLY and _can_use(s, cfg, seat, S_TEMP_JOKER):
                out[n] = _pack(K_PLACE_JOKER, 0, 0, 0, 0, 0)
                n += 1
        else:
            n = _attacks(s, cfg, seat, out, n)
            n = _combines(s, cfg, seat, field, _face_up(s, p, field), out, n)
            if _can_use(s, cfg, seat, S_DEFENSE):
                for i in range(s[p + FIELD]):
                    card = s[p + FIELD + 1 + i]
                    if _combat(card) and not _contains(s, p + PROTECTED, card):
                        out[n] = _pack(K_DEFEND, card, 0, 0, 0, 0)
                        n += 1
    n = _end_actions(s, cfg, seat, out, n)
    for other in range(cfg[C_PLAYERS]):
        if s[_seat(other) + TEMP_JOKERS] > 1:
            # Two jokers in play with one value are one card for the rules: each move once.
            return _unique(out, n)
    return n


@njit(cache=True)
def _unique(out, n):  # type: ignore[no-untyped-def]
    """Keep the first of equal actions, in order; the new count."""
    m = 0
    for i in range(n):
        seen = False
        for j in range(m):
            if out[j] == out[i]:
                seen = True
                break
        if not seen:
            out[m] = out[i]
            m += 1
    return m


# ------------------------------------------------------------------------------------ apply
@njit(cache=True)
def _clear(s, at):  # type: ignore[no-untyped-def]
    for k in range(s[at]):
        s[at + 1 + k] = 0
    s[at] = 0


@njit(cache=True)
def _clear_pending(s):  # type: ignore[no-untyped-def]
    s[PENDING_ATTACKER] = 0
    s[PENDING_TARGET] = 0
    s[PENDING_DEFENDER] = 0
    s[PENDING_REVERSE] = 0
    s[PENDING_SUPPORT] = 0


@njit(cache=True)
def _fail_attack(s):  # type: ignore[no-untyped-def]
    """Only the attacking card is discarded, face up."""
    _leave_field(s, _seat(s[TURN_PLAYER]), s[PENDING_ATTACKER], True)
    _clear_pending(s)
    s[PHASE] = P_MAIN
    return OK


@njit(cache=True)
def _complete(s, cfg, lost, shuffle):  # type: ignore[no-untyped-def]
    """The attack succeeds: attacker and ``lost`` discarded, the support into play."""
    seat = s[TURN_PLAYER]
    p = _seat(seat)
    q = _seat(s[PENDING_DEFENDER])
    support = s[PENDING_SUPPORT]
    _take_from_hand(s, p, support)
    _leave_field(s, p, s[PENDING_ATTACKER], True)
    _insert(s, p + FIELD, support)
    face_up = not _contains(s, q + HIDDEN, lost)
    _leave_field(s, q, lost, face_up)
    _clear_pending(s)
    s[PHASE] = P_MAIN
    return _after_main_action(s, cfg, seat, shuffle)


@njit(cache=True)
def _resolve(s, cfg, shuffle):  # type: ignore[no-untyped-def]
    """No (more) counter: the attacker shows the support, or loses the attacker."""
    p = _seat(s[TURN_PLAYER])
    needed = _support_value(
        s[PENDING_ATTACKER] >> 4, s[PENDING_TARGET] >> 4, s[PENDING_REVERSE] == 1
    )
    supports = np.empty(8, np.int32)
    if _hand_cards(s, p, needed, 0, supports) == 0:
        return _fail_attack(s)
    s[PENDING_SUPPORT] = supports[0]
    if s[_seat(s[PENDING_DEFENDER]) + HIDDEN] > 0:
        s[PHASE] = P_REACT
        return OK
    return _complete(s, cfg, s[PENDING_TARGET], shuffle)


@njit(cache=True)
def apply(s, cfg, action, shuffle):  # type: ignore[no-untyped-def]
    """Apply the legal ``action`` to ``s`` in place. Returns :data:`OK`, or in exact mode
    :data:`NEEDS_SHUFFLE` (``s`` is then half changed: the caller works on a copy)."""
    kind = action & 255
    a = (action >> SHIFT_A) & 255
    b = (action >> SHIFT_B) & 255
    c = (action >> SHIFT_C) & 255
    d = (action >> SHIFT_D) & 255
    flags = (action >> SHIFT_FLAGS) & 255
    e = (action >> SHIFT_E) & 255
    seat = s[TURN_PLAYER]
    p = _seat(seat)
    if kind == K_PASS:
        return _end_turn(s, cfg, shuffle)
    if kind == K_PLAY:
        _enter_play(s, p, a)
        if flags:
            _spend(s, cfg, p, S_DEFENSE)
            _insert(s, p + HIDDEN, a)
        return _end_turn(s, cfg, shuffle)
    if kind == K_SUBSTITUTE:
        _leave_field(s, p, a, True)
        _enter_play(s, p, b)
        _earn(s, cfg, p)
        if flags:
            _spend(s, cfg, p, S_DEFENSE)
            _insert(s, p + HIDDEN, b)
        return _end_turn(s, cfg, shuffle)
    if kind == K_DISCARD:
        for card in (a, b, c):
            if card != 0:
                _remove(s, p + HAND, card)
                if _base(card) == TEMP:
                    s[p + TEMP_JOKERS] -= 1
                else:
                    _insert(s, p + DOWN, _base(card))
        _clear(s, p + KNOWN)
        if cfg[C_TRIONFEY] == 1:
            for k in range(s[p + HAND]):
                if s[p + HAND + 1 + k] == TEMP:
                    _insert(s, p + KNOWN, TEMP)
        _earn(s, cfg, p)
        return _end_turn(s, cfg, shuffle)
    if kind == K_ATTACK:
        q = _seat((seat + 1) % cfg[C_PLAYERS])
        _take_from_hand(s, p, c)
        _leave_field(s, p, a, True)
        _insert(s, p + FIELD, c)
        if flags:
            _spend(s, cfg, p, S_REVERSE)
        _leave_field(s, q, b, True)
        return _after_main_action(s, cfg, seat, shuffle)
    if kind == K_COMBINE:
        _take_from_hand(s, p, c)
        for card in (a, b):
            if card == d:
                _return_to_hand(s, p, card)
            else:
                _leave_field(s, p, card, True)
        _insert(s, p + FIELD, c)
        if flags:
            _spend(s, cfg, p, S_OVERSUM)
        if not flags or _combat(c):
            _earn(s, cfg, p)
        return _after_main_action(s, cfg, seat, shuffle)
    if kind == K_DECLARE:
        defender = c - 1 if c else (seat + 1) % cfg[C_PLAYERS]
        if flags:
            _spend(s, cfg, p, S_REVERSE)
        s[PENDING_ATTACKER] = a
        s[PENDING_TARGET] = b
        s[PENDING_DEFENDER] = defender
        s[PENDING_REVERSE] = 1 if flags else 0
        s[PENDING_SUPPORT] = 0
        s[TARGET_SEAT] = defender if cfg[C_PLAYERS] > 2 else -1
        if _window_opens(s, cfg, defender, b):
            s[PHASE] = P_REACT
            return OK
        return _resolve(s, cfg, shuffle)
    if kind == K_ALLOW:
        if s[PENDING_SUPPORT]:
            return _complete(s, cfg, s[PENDING_TARGET], shuffle)
        return _resolve(s, cfg, shuffle)
    if kind == K_SACRIFICE:
        return _complete(s, cfg, a, shuffle)
    if kind == K_COUNTER:
        defender = s[PENDING_DEFENDER]
        q = _seat(defender)
        if e:
            _take_from_hand(s, q, e)
            _insert(s, q + FIELD, e)
        _take_from_hand(s, q, c)
        for card in (a, b):
            if card == d:
                _return_to_hand(s, q, card)
            else:
                _leave_field(s, q, card, True)
        _insert(s, q + FIELD, c)
        _earn(s, cfg, q)
        s[PENDING_TARGET] = c
        needed = _support_value(s[PENDING_ATTACKER] >> 4, c >> 4, s[PENDING_REVERSE] == 1)
        supports = np.empty(8, np.int32)
        if needed == 0 or _hand_cards(s, p, needed, 0, supports) == 0:
            return _fail_attack(s)
        if _window_opens(s, cfg, defender, c):
            s[PHASE] = P_REACT
            return OK
        return _resolve(s, cfg, shuffle)
    if kind == K_FLIP:
        decider = s[PENDING_DEFENDER] if s[PENDING_ATTACKER] else seat
        _remove(s, _seat(decider) + HIDDEN, a)
        return OK
    if kind == K_RECRUIT:
        _enter_play(s, p, a)
        return _after_main_action(s, cfg, seat, shuffle)
    if kind == K_PLACE_JOKER:
        _spend(s, cfg, p, S_TEMP_JOKER)
        n = s[p + DRAW]
        s[p + DRAW + 1 + n] = TEMP
        s[p + DRAW] = n + 1
        s[p + TEMP_JOKERS] += 1
        return OK
    if kind == K_DEFEND:
        _insert(s, p + PROTECTED, a)
        _spend(s, cfg, p, S_DEFENSE)
        return OK
    if kind == K_SHUFFLE:
        status = _reshuffle(s, seat, shuffle, flags != 0)
        if status != OK:
            return status
        status = _draw_to_three(s, cfg, seat, shuffle, False)
        if status != OK:
            return status
        if s[PHASE] == P_DRAW_SHUFFLE:
            s[PHASE] = P_MULLIGAN if _mulligan_offered(s, cfg, p) else P_MAIN
        else:
            s[PHASE] = P_MAIN
        return OK
    if kind == K_PROMOTE:
        owners = (d & 15, d >> 4, e)
        cards = (a, b, c)
        for i in range(3):
            owner = owners[i]
            _leave_field(s, p if owner == 0 else _seat(owner - 1), cards[i], True)
        count = cfg[C_PLAYERS]
        if cfg[C_TEAMS] == ONE_FOR_ALL:
            for step in range(0, count, 2):
                s[_seat((seat + step) % count) + LEVEL] += 1
        else:
            s[p + LEVEL] += 1
        if cfg[C_PROMOTION_ENDS_MAIN] == 1:
            s[PHASE] = P_END
        return OK
    if kind == K_MULLIGAN:
        if flags == 0:
            s[PHASE] = P_MAIN
            return OK
        for k in range(s[p + HAND]):
            _insert(s, p + UP, s[p + HAND + 1 + k])
            s[p + HAND + 1 + k] = 0
        s[p + HAND] = 0
        _clear(s, p + KNOWN)
        status = _draw_to_three(s, cfg, seat, shuffle, True)
        if status == ASKED:
            s[PHASE] = P_SHUFFLE
            return OK
        s[PHASE] = P_MAIN
        return status
    return OK


# ---------------------------------------------------------------------------------- playouts
@njit(cache=True)
def seed_generator(seed):  # type: ignore[no-untyped-def]
    """Seed the fast path's generator (Numba's own, apart from NumPy's)."""
    np.random.seed(seed)


@njit(cache=True)
def playout(s, cfg, max_actions):  # type: ignore[no-untyped-def]
    """Uniformly random legal actions on ``s`` in place until the game ends or
    ``max_actions`` were played; returns the number played."""
    out = np.empty(MAX_ACTIONS, np.int64)
    shuffle = np.zeros(SHUFFLE_SIZE, np.int32)
    played = 0
    while played < max_actions:
        n = legal_actions(s, cfg, out)
        if n == 0:
            break
        apply(s, cfg, out[np.random.randint(0, n)], shuffle)
        played += 1
    return played


@njit(cache=True)
def _greedy_score(action):  # type: ignore[no-untyped-def]
    """A rough preference by kind of move: promote, make a prestige card, take material,
    fill the field; the rest last."""
    kind = action & 255
    if kind == K_PROMOTE:
        return 100
    if kind == K_COMBINE or kind == K_COUNTER:  # noqa: SIM109 - Numba
        result = (action >> SHIFT_C) & 255
        return 50 if result >> 4 >= 8 else 6
    if kind == K_ATTACK or kind == K_DECLARE:  # noqa: SIM109 - Numba
        return 20
    if kind == K_RECRUIT:
        return 15
    if kind == K_PLAY:
        return 10
    if kind == K_SUBSTITUTE:
        return 3
    if kind == K_DISCARD:
        return 1
    return 2


@njit(cache=True)
def greedy_playout(s, cfg, max_actions):  # type: ignore[no-untyped-def]
    """Like :func:`playout`, choosing by :func:`_greedy_score` (ties and one move in ten at
    random): a quick stand-in for the strategy's playout policy."""
    out = np.empty(MAX_ACTIONS, np.int64)
    shuffle = np.zeros(SHUFFLE_SIZE, np.int32)
    best = np.empty(MAX_ACTIONS, np.int64)
    played = 0
    while played < max_actions:
        n = legal_actions(s, cfg, out)
        if n == 0:
            break
        if np.random.random() < 0.1:
            choice = out[np.random.randint(0, n)]
        else:
            top = -1
            m = 0
            for i in range(n):
                score = _greedy_score(out[i])
                if score > top:
                    top = score
                    m = 0
                if score == top:
                    best[m] = out[i]
                    m += 1
            choice = best[np.random.randint(0, m)]
        apply(s, cfg, choice, shuffle)
        played += 1
    return played


@njit(cache=True)
def deal(s, cfg, decks):  # type: ignore[no-untyped-def]
    """A new game on the zeroed ``s``: each seat's deck (``decks[seat]``: count, then cards)
    shuffled by the fast path's generator, a random first player, turn 1 begun."""
    shuffle = np.zeros(SHUFFLE_SIZE, np.int32)
    players = cfg[C_PLAYERS]
    for seat in range(players):
        p = _seat(seat)
        n = decks[seat, 0]
        for k in range(n):
            s[p + DRAW + 1 + k] = decks[seat, 1 + k]
        for k in range(n - 1, 0, -1):
            r = np.random.randint(0, k + 1)
            t = s[p + DRAW + 1 + k]
            s[p + DRAW + 1 + k] = s[p + DRAW + 1 + r]
            s[p + DRAW + 1 + r] = t
        s[p + DRAW] = n
    first = np.random.randint(0, players)
    if cfg[C_TEAMS] != 0:
        s[PRIORITY] = first
    _start_turn(s, cfg, first, 1, shuffle)


@njit(cache=True)
def random_games(template, cfg, decks, games):  # type: ignore[no-untyped-def]
    """Play ``games`` uniformly random games from fresh deals; returns the actions played."""
    total = 0
    for _ in range(games):
        s = template.copy()
        deal(s, cfg, decks)
        total += playout(s, cfg, 1 << 30)
    return total
