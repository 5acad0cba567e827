"""A compiled port of the strategy's playout policy.

:mod:`fanfold.agents.strategy.fano_knowledge` scores each move by how it changes a player's
*potential* (how far along the road to a promotion their cards are). This module compiles
:func:`potential` (checked equal to the strategy's on random inputs) and the move scores of
both editions (checked equal to the strategy's, move by move): the classic moves (promote,
combine, attack, play, substitute, discard, pass, the redraw question), Trionfey's
(declarations with their support or as bluffs, recruits, face-down plays, flips, jokers, the
tribute a move earns, the threats of every player who may attack) and the Trionfey defender's
answers to a declaration (:func:`react_score`), and plays a playout by them. Classic Perfect
defense, whose price reads the others' hidden cards, gets the fast path's rough preference
instead. The weights are the strategy's, passed in as an array indexed by the ``W_``
constants below (the strategy builds it from its own constants, so the two cannot drift
apart). It lives beside the strategy, on top of Fano's compiled engine
(:mod:`fanfold.games.fano.fast`); :mod:`.fano_fast` is its Python face.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from fanfold.core import numba_cache
from fanfold.games.fano.fast.kernels import apply, legal_actions
from fanfold.games.fano.fast.kernels.attacks import _support_value
from fanfold.games.fano.fast.kernels.cards import ATTACK_SUPPORT
from fanfold.games.fano.fast.kernels.playouts import _greedy_score
from fanfold.games.fano.fast.kernels.zones import _seat
from fanfold.games.fano.fast.layout import (
    C_PLAYERS,
    C_TEAMS,
    C_TRIBUTE,
    C_TRIONFEY,
    FIELD,
    HAND,
    HIDDEN,
    K_ALLOW,
    K_ATTACK,
    K_COMBINE,
    K_COUNTER,
    K_DECLARE,
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
    LEVEL,
    MAX_ACTIONS,
    P_MAIN,
    P_REACT,
    PENDING_ATTACKER,
    PENDING_DEFENDER,
    PENDING_REVERSE,
    PENDING_SUPPORT,
    PENDING_TARGET,
    PHASE,
    PROTECTED,
    SHIFT_A,
    SHIFT_B,
    SHIFT_C,
    SHIFT_D,
    SHIFT_E,
    SHIFT_FLAGS,
    SHUFFLE_SIZE,
    TURN_PLAYER,
)
from fanfold.games.fano.fast.layout import TRIBUTE as TRIBUTE_AT
from fanfold.games.fano.rules.specials import TRIBUTE_CAP

numba_cache.install()

# Indices into the weights array.
W_PROGRESS = 0  # four entries: 0, 1, 2 and 3 prestige values
W_PAIR_READY = 4
W_PAIR = 5
W_HALF_READY = 6
W_HALF = 7
W_PRESTIGE_IN_HAND = 8
W_COMBAT = 9
W_DEAD = 10
W_CARD = 11
W_PRESTIGE_CARD = 12
W_JOKER = 13
W_EXPOSED = 14
W_FRESH_HAND = 15
W_CYCLE = 16
W_SPECIAL = 17
W_PROTECTION = 18
W_LEVEL = 19
W_TRIBUTE = 20  # one tribute counter (the evaluation's standing)
W_SCALE = 21  # the evaluation's scale (see :mod:`.fano_search`)
WEIGHTS = 22
#: What the strategy gives a move it never makes.
NEVER = -1000.0
#: Rows of scratch space the scoring functions use.
SCRATCH = 14


@njit(cache=True)
def _has(values, n, value):  # type: ignore[no-untyped-def]
    for i in range(n):  # noqa: SIM110 - plain loops compile best in Numba
        if values[i] == value:
            return True
    return False


@njit(cache=True)
def potential(w, prestige, n_prestige, combat, n_combat, hand, n_hand, free, tmp):  # type: ignore[no-untyped-def]
    """The strategy's :func:`~fanfold.agents.strategy.fano_knowledge.potential`, compiled:
    values of the prestige cards and combat cards in play, of the hand (0: a joker), and the
    free slots; ``tmp`` is scratch space (:func:`scratch`)."""
    distinct = 0
    for value in (8, 9, 10):
        if _has(prestige, n_prestige, value):
            distinct += 1
    units = w[W_PROGRESS + min(distinct, 3)]
    jokers = 0
    for i in range(n_hand):
        if hand[i] == 0:
            jokers += 1
    wanted = tmp[0]
    n_wanted = 0
    for value in (8, 9, 10):
        if not _has(prestige, n_prestige, value):
            wanted[n_wanted] = value
            n_wanted += 1
    unused = tmp[2]
    n_unused = n_combat
    for i in range(n_combat):
        unused[i] = combat[i]
    for ready in (True, False):
        snapshot = tmp[1]
        for k in range(n_wanted):
            snapshot[k] = wanted[k]
        n_snapshot = n_wanted
        for w_index in range(n_snapshot):
            value = snapshot[w_index]
            if _has(hand, n_hand, value) != ready:
                continue
            for i in range(n_unused):
                first = unused[i]
                found = -1
                for j in range(i + 1, n_unused):
                    if unused[j] == value - first:
                        found = j
                        break
                if found >= 0:
                    units += w[W_PAIR_READY] if ready else w[W_PAIR]
                    # Remove ``found`` then ``i`` (found > i), keeping the order.
                    for k in range(found, n_unused - 1):
                        unused[k] = unused[k + 1]
                    n_unused -= 1
                    for k in range(i, n_unused - 1):
                        unused[k] = unused[k + 1]
                    n_unused -= 1
                    m = 0
                    for k in range(n_wanted):
                        if wanted[k] != value:
                            wanted[m] = wanted[k]
                            m += 1
                    n_wanted = m
                    break
    for w_index in range(n_wanted):
        value = wanted[w_index]
        ready = _has(hand, n_hand, value)
        if ready:
            units += w[W_PRESTIGE_IN_HAND]
        if free:
            for i in range(n_unused):
                first = unused[i]
                partner = value - first
                if (
                    1 <= partner <= 7
                    and partner != first
                    and (_has(hand, n_hand, partner) or jokers)
                ):
                    units += w[W_HALF_READY] if ready else w[W_HALF]
                    break
    for i in range(n_combat):
        value = combat[i]
        useful = False
        for other in (8, 9, 10):
            if not _has(prestige, n_prestige, other):
                diff = other - value
                if 1 <= diff <= 7 and diff != value:
                    useful = True
        units += w[W_COMBAT] if useful else w[W_DEAD]
    for i in range(n_hand):
        value = hand[i]
        if value == 0:
            units += w[W_JOKER]
        elif value > 7:
            units += w[W_PRESTIGE_CARD]
        else:
            units += w[W_CARD]
    return units


@njit(cache=True)
def _sorted_hand_values(hand, n_hand, values):  # type: ignore[no-untyped-def]
    """Write the values of the cards in hand into ``values``, sorted (a card that is not a
    combat or prestige card counts 0)."""
    for i in range(n_hand):
        card = hand[i]
        values[i] = 0 if (card & 15) >= 4 else card >> 4
    for i in range(1, n_hand):  # insertion sort: at most three values
        value = values[i]
        j = i
        while j > 0 and values[j - 1] > value:
            values[j] = values[j - 1]
            j -= 1
        values[j] = value


@njit(cache=True)
def _potential_with(w, field, n_field, values, n_hand, tmp):  # type: ignore[no-untyped-def]
    """:func:`potential` of the cards in play (split into prestige and combat values) and the
    sorted hand ``values``."""
    prestige = tmp[3]
    combat = tmp[4]
    n_prestige = 0
    n_combat = 0
    for i in range(n_field):
        value = field[i] >> 4
        if value > 7:
            prestige[n_prestige] = value
            n_prestige += 1
        else:
            combat[n_combat] = value
            n_combat += 1
    return potential(w, prestige, n_prestige, combat, n_combat, values, n_hand, 4 - n_field, tmp)


@njit(cache=True)
def cards_potential(w, field, n_field, hand, n_hand, tmp):  # type: ignore[no-untyped-def]
    """:func:`potential` of card codes in play and in hand (the strategy's
    ``_cards_potential``)."""
    values = tmp[5]
    _sorted_hand_values(hand, n_hand, values)
    return _potential_with(w, field, n_field, values, n_hand, tmp)


@njit(cache=True)
def memo_potential(w, field, n_field, hand, n_hand, tmp, keys, values):  # type: ignore[no-untyped-def]
    """:func:`cards_potential`, remembered in a direct-mapped table (:func:`memo`) keyed by the
    values in play (in order: the pairing reads them in order) and in hand (sorted): the
    same result, computed once for cards met again."""
    key = n_field
    for i in range(n_field):
        key = key * 16 + (field[i] >> 4)
    sorted_hand = tmp[5]
    _sorted_hand_values(hand, n_hand, sorted_hand)
    key = key * 8 + n_hand
    for i in range(n_hand):
        key = key * 16 + sorted_hand[i]
    slot = (key ^ (key >> 13) ^ (key >> 29)) & (keys.shape[0] - 1)
    if keys[slot] == key:
        return values[slot]
    units = _potential_with(w, field, n_field, sorted_hand, n_hand, tmp)
    keys[slot] = key
    values[slot] = units
    return units


#: log2 of the entries of a potential memo.
MEMO_BITS = 15


def memo(bits: int = MEMO_BITS) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """An empty memo for :func:`memo_potential`: ``2**bits`` keys and values."""
    return np.full(1 << bits, -1, np.int64), np.zeros(1 << bits, np.float64)


def scratch() -> npt.NDArray[np.int64]:
    """Scratch space for :func:`potential`, :func:`cards_potential` and :func:`score`."""
    return np.zeros((SCRATCH, 8), np.int64)


@njit(cache=True)
def _zone(s, at, out):  # type: ignore[no-untyped-def]
    n = s[at]
    for i in range(n):
        out[i] = s[at + 1 + i]
    return n


@njit(cache=True)
def _without(cards, n, card):  # type: ignore[no-untyped-def]
    """Remove one ``card`` (a declared joker: the joker) from ``cards[:n]``; the new count."""
    for target in (card, card & 15 if (card & 15) >= 4 else -1):
        for i in range(n):
            if cards[i] == target:
                for k in range(i, n - 1):
                    cards[k] = cards[k + 1]
                return n - 1
    return n


@njit(cache=True)
def _attacks(cfg, attacker, seat):  # type: ignore[no-untyped-def]
    """Whether the player at ``attacker`` may attack ``seat`` (the strategy's
    ``attackers_of``): the previous player in the classic game and at two players, else every
    player of the other side."""
    count = cfg[C_PLAYERS]
    if cfg[C_TRIONFEY] == 0 or count == 2:
        return attacker == (seat - 1) % count
    if cfg[C_TEAMS] == 0:
        return attacker != seat
    return (attacker - seat) % 2 == 1


@njit(cache=True)
def _exposure(w, s, cfg, seat, card):  # type: ignore[no-untyped-def]
    value = card >> 4
    if value > 7:
        return 0.0
    count = 0
    threats = 0
    for other_seat in range(cfg[C_PLAYERS]):
        if not _attacks(cfg, other_seat, seat):
            continue
        q = _seat(other_seat)
        for i in range(s[q + FIELD]):
            other = s[q + FIELD + 1 + i]
            for j in range(s[q + HIDDEN]):
                if s[q + HIDDEN + 1 + j] == other:
                    other = -1
            if other < 0:
                continue
            threats += 1
            attacker = other >> 4
            if attacker <= 7 and ATTACK_SUPPORT[attacker, value]:
                count += 1
    if threats == 0:
        return 0.0
    return w[W_EXPOSED] * min(2, count)


@njit(cache=True)
def _support_in(s, p, needed):  # type: ignore[no-untyped-def]
    """The first card of the hand at ``p`` of value ``needed``, else a joker of the hand
    declared as it, else 0 (the strategy's choice of the support it would show)."""
    if needed == 0:
        return 0
    for i in range(s[p + HAND]):
        card = s[p + HAND + 1 + i]
        if card >> 4 == needed and (card & 15) < 4:
            return np.int64(card)
    for i in range(s[p + HAND]):
        card = s[p + HAND + 1 + i]
        if (card & 15) >= 4:
            return np.int64(card) | (np.int64(needed) << 4)
    return 0


@njit(cache=True)
def _earn(w, s, cfg, p):  # type: ignore[no-untyped-def]
    """What one more tribute counter is worth to the player at ``p`` (nothing at the cap)."""
    if cfg[C_TRIBUTE] == 1 and s[p + TRIBUTE_AT] < TRIBUTE_CAP:
        return w[W_TRIBUTE]
    return 0.0


@njit(cache=True)
def _foe_loss(w, s, p, q, target, base, tmp, keys, values):  # type: ignore[no-untyped-def]
    """What losing ``target`` costs the player at ``q`` (their potential from their cards in
    play), plus a little for the leader: the strategy's ``foe_loss`` for the mover at ``p``
    whose potential is ``base``."""
    foe = tmp[8]
    nothing = tmp[9]
    n_foe = _zone(s, q + FIELD, foe)
    before = memo_potential(w, foe, n_foe, nothing, 0, tmp, keys, values)
    n_foe = _without(foe, n_foe, target)
    after = memo_potential(w, foe, n_foe, nothing, 0, tmp, keys, values)
    lead = 0.05 * (w[W_LEVEL] * (s[q + LEVEL] - s[p + LEVEL]) + before - base)
    return before - after + max(0.0, lead)


@njit(cache=True)
def _potential_of(w, s, q, tmp, keys, values):  # type: ignore[no-untyped-def]
    """The potential of the cards in play and in hand of the player at ``q``."""
    field = tmp[10]
    hand = tmp[11]
    nf = _zone(s, q + FIELD, field)
    nh = _zone(s, q + HAND, hand)
    return memo_potential(w, field, nf, hand, nh, tmp, keys, values)


@njit(cache=True)
def _holds(s, q, needed):  # type: ignore[no-untyped-def]
    """Whether the hand at ``q`` holds a card of value ``needed`` or a joker."""
    if needed == 0:
        return False
    for i in range(s[q + HAND]):
        card = s[q + HAND + 1 + i]
        if card >> 4 == needed or (card & 15) >= 4:
            return True
    return False


@njit(cache=True)
def _succeeds(w, s, tmp, keys, values):  # type: ignore[no-untyped-def]
    """What the attacker of the pending attack gains when it succeeds: the support replaces
    the attacking card (the strategy's ``_React.succeeds``)."""
    q = _seat(s[TURN_PLAYER])
    attacker = np.int64(s[PENDING_ATTACKER])
    support = np.int64(s[PENDING_SUPPORT])
    if not support:
        needed = _support_value(attacker >> 4, s[PENDING_TARGET] >> 4, s[PENDING_REVERSE])
        support = _support_in(s, q, needed)
    field = tmp[12]
    hand = tmp[13]
    nf = _zone(s, q + FIELD, field)
    nh = _zone(s, q + HAND, hand)
    nf = _without(field, nf, attacker)
    field[nf] = support
    nf += 1
    nh = _without(hand, nh, support)
    after = memo_potential(w, field, nf, hand, nh, tmp, keys, values)
    return after - _potential_of(w, s, q, tmp, keys, values)


@njit(cache=True)
def _fails(w, s, tmp, keys, values):  # type: ignore[no-untyped-def]
    """What the attacker of the pending attack loses when it fails: the attacking card."""
    q = _seat(s[TURN_PLAYER])
    field = tmp[12]
    hand = tmp[13]
    nf = _zone(s, q + FIELD, field)
    nh = _zone(s, q + HAND, hand)
    nf = _without(field, nf, np.int64(s[PENDING_ATTACKER]))
    after = memo_potential(w, field, nf, hand, nh, tmp, keys, values)
    return _potential_of(w, s, q, tmp, keys, values) - after


@njit(cache=True)
def _lose(w, s, p, card, base, tmp, keys, values):  # type: ignore[no-untyped-def]
    """The change in the potential of the player at ``p`` (``base``) when ``card`` is lost."""
    field = tmp[6]
    hand = tmp[7]
    nf = _zone(s, p + FIELD, field)
    nh = _zone(s, p + HAND, hand)
    nf = _without(field, nf, card)
    return memo_potential(w, field, nf, hand, nh, tmp, keys, values) - base


@njit(cache=True)
def react_score(w, s, cfg, action, tmp, keys, values):  # type: ignore[no-untyped-def]
    """The strategy's score of the Trionfey defender's answer ``action`` to the pending
    attack (``_React.score``): read from the dealt state, the attacker's hand included."""
    kind = action & 255
    defender = s[PENDING_DEFENDER]
    p = _seat(defender)
    q = _seat(s[TURN_PLAYER])
    base = _potential_of(w, s, p, tmp, keys, values)
    attacker = s[PENDING_ATTACKER] >> 4
    reverse = s[PENDING_REVERSE]
    if kind == K_ALLOW:
        target = np.int64(s[PENDING_TARGET])
        if s[PENDING_SUPPORT] or _holds(s, q, _support_value(attacker, target >> 4, reverse)):
            return _lose(w, s, p, target, base, tmp, keys, values) - _succeeds(
                w, s, tmp, keys, values
            )
        return _fails(w, s, tmp, keys, values)
    if kind == K_SACRIFICE:
        card = (action >> SHIFT_A) & 255
        return _lose(w, s, p, card, base, tmp, keys, values) - _succeeds(w, s, tmp, keys, values)
    if kind == K_COUNTER:
        first = (action >> SHIFT_A) & 255
        second = (action >> SHIFT_B) & 255
        result = (action >> SHIFT_C) & 255
        returned = (action >> SHIFT_D) & 255
        recruited = (action >> SHIFT_E) & 255
        field = tmp[6]
        hand = tmp[7]
        nf = _zone(s, p + FIELD, field)
        nh = _zone(s, p + HAND, hand)
        nh = _without(hand, nh, result)
        if recruited:
            nh = _without(hand, nh, recruited)
            field[nf] = recruited
            nf += 1
        nf = _without(field, nf, first)
        nf = _without(field, nf, second)
        field[nf] = result
        nf += 1
        if returned:
            hand[nh] = returned
            nh += 1
        whole = memo_potential(w, field, nf, hand, nh, tmp, keys, values)
        after = whole - base + _earn(w, s, cfg, p)
        if _holds(s, q, _support_value(attacker, result >> 4, reverse)):
            # The attack goes on against the new card: count it lost.
            nf = _without(field, nf, result)
            after += memo_potential(w, field, nf, hand, nh, tmp, keys, values) - whole
            return after - _succeeds(w, s, tmp, keys, values) - 0.05
        return after + _fails(w, s, tmp, keys, values) - 0.05
    return NEVER


@njit(cache=True)
def _hidden(s, p, card):  # type: ignore[no-untyped-def]
    """Whether ``card`` of the player at ``p`` lies face down in play."""
    for i in range(s[p + HIDDEN]):  # noqa: SIM110 - plain loops compile best in Numba
        if s[p + HIDDEN + 1 + i] == card:
            return True
    return False


@njit(cache=True)
def _unprotect(w, s, p, card):  # type: ignore[no-untyped-def]
    for i in range(s[p + PROTECTED]):
        if s[p + PROTECTED + 1 + i] == card:
            return w[W_PROTECTION]
    return 0.0


@njit(cache=True)
def _mine(w, field, nf, hand, nh, base, main, tmp, keys, values):  # type: ignore[no-untyped-def]
    """The change in the mover's potential (``base``) if its cards became ``field`` and
    ``hand``, a whole new hand drawn at once counted in the main phase (the strategy's
    ``mine``)."""
    gain = memo_potential(w, field, nf, hand, nh, tmp, keys, values) - base
    if nh == 0 and main:
        gain += w[W_FRESH_HAND]
    return gain


@njit(cache=True)
def score(w, s, cfg, action, tmp):  # type: ignore[no-untyped-def]
    """The strategy's score of ``action`` for the seat deciding (the defender while a
    Trionfey attack is pending, else the turn player); Perfect defense gets the rough
    preference (far below the ported scores' range for a promotion)."""
    keys = np.full(1, -1, np.int64)
    values = np.zeros(1, np.float64)
    return score_from(w, s, cfg, action, tmp, -1.0, keys, values)


@njit(cache=True)
def mover_potential(w, s, tmp, keys, values):  # type: ignore[no-untyped-def]
    """:func:`cards_potential` of the turn player's cards (what :func:`score_from` takes)."""
    return _potential_of(w, s, _seat(s[TURN_PLAYER]), tmp, keys, values)


@njit(cache=True)
def score_from(w, s, cfg, action, tmp, base, keys, values):  # type: ignore[no-untyped-def]
    """:func:`score`, given the turn player's potential ``base`` (:func:`mover_potential`:
    the same for every action of a position; a negative ``base`` is computed here; a
    defender's answer reads its own), its potentials remembered in the memo ``keys`` and
    ``values`` (:func:`memo`)."""
    kind = action & 255
    a = (action >> SHIFT_A) & 255
    b = (action >> SHIFT_B) & 255
    c = (action >> SHIFT_C) & 255
    d = (action >> SHIFT_D) & 255
    flags = (action >> SHIFT_FLAGS) & 255
    seat = s[TURN_PLAYER]
    p = _seat(seat)
    if kind == K_PROMOTE:
        return 1000.0
    if s[PHASE] == P_REACT:
        return react_score(w, s, cfg, action, tmp, keys, values)
    if kind == K_SHUFFLE:
        return 1.0 if flags else 0.0
    field = tmp[6]
    hand = tmp[7]
    nf = _zone(s, p + FIELD, field)
    nh = _zone(s, p + HAND, hand)
    if base < 0.0:
        base = memo_potential(w, field, nf, hand, nh, tmp, keys, values)
    main = s[PHASE] == P_MAIN
    if kind == K_PASS:
        return 0.0
    if kind == K_MULLIGAN:
        if not flags:
            return 0.0
        # Redraw only when no combination of the combat cards in play makes a hand card.
        combat = 0
        usable = False
        for i in range(nf):
            first = field[i] >> 4
            if first > 7:
                continue
            combat += 1
            for j in range(i + 1, nf):
                second = field[j] >> 4
                if second <= 7:
                    for k in range(nh):
                        if hand[k] >> 4 == first + second:
                            usable = True
        return -0.5 if usable or combat >= 3 else 0.5
    if kind == K_DISCARD:
        count = 0
        for card in (a, b, c):
            if card:
                nh = _without(hand, nh, card)
                count += 1
        gain = memo_potential(w, field, nf, hand, nh, tmp, keys, values) - base
        return gain + w[W_CYCLE] * count + _earn(w, s, cfg, p)
    if kind == K_COMBINE:
        nf = _without(field, nf, a)
        nf = _without(field, nf, b)
        field[nf] = c
        nf += 1
        nh = _without(hand, nh, c)
        if d:
            hand[nh] = d
            nh += 1
        gain = _mine(w, field, nf, hand, nh, base, main, tmp, keys, values)
        gain -= _unprotect(w, s, p, a) + _unprotect(w, s, p, b)
        if flags:
            gain -= w[W_SPECIAL]
        if c >> 4 <= 7:
            gain += _earn(w, s, cfg, p)
        return gain - 0.05
    if kind == K_ATTACK:
        nf = _without(field, nf, a)
        field[nf] = c
        nf += 1
        nh = _without(hand, nh, c)
        gain = _mine(w, field, nf, hand, nh, base, main, tmp, keys, values)
        q = _seat((seat + 1) % cfg[C_PLAYERS])
        gain += _foe_loss(w, s, p, q, b, base, tmp, keys, values)
        gain -= _unprotect(w, s, p, a)
        return gain - (w[W_SPECIAL] if flags else 0.0)
    if kind == K_DECLARE:
        # With the support in hand, an attack that may be countered; without it, a bluff
        # that loses the attacker unless the defender wastes a counter.
        target_seat = c - 1 if c else (seat + 1) % cfg[C_PLAYERS]
        cost = 3.0 * w[W_TRIBUTE] if flags else 0.0
        support = _support_in(s, p, _support_value(a >> 4, b >> 4, flags))
        nf = _without(field, nf, a)
        if not support:
            gain = _mine(w, field, nf, hand, nh, base, main, tmp, keys, values)
            return gain - 0.3 - cost
        field[nf] = support
        nf += 1
        nh = _without(hand, nh, support)
        gain = _mine(w, field, nf, hand, nh, base, main, tmp, keys, values)
        gain += _foe_loss(w, s, p, _seat(target_seat), b, base, tmp, keys, values)
        return 0.85 * gain - cost
    if kind == K_RECRUIT:
        field[nf] = a
        nf += 1
        nh = _without(hand, nh, a)
        gain = _mine(w, field, nf, hand, nh, base, main, tmp, keys, values)
        return gain - _exposure(w, s, cfg, seat, a)
    if kind == K_FLIP:
        # Turning a face-down card up: only for a ready combination.
        value = a >> 4
        for i in range(nf):
            other = field[i]
            if other == a or _hidden(s, p, other):
                continue
            total = value + (other >> 4)
            if total >= 8:
                for k in range(nh):
                    if hand[k] >> 4 == total:
                        return 0.05
        return -0.5
    if kind == K_PLACE_JOKER:
        return w[W_JOKER] + w[W_CARD]
    if kind == K_PLAY or kind == K_SUBSTITUTE:  # noqa: SIM109 - Numba
        card = a if kind == K_PLAY else b
        if kind == K_SUBSTITUTE:
            nf = _without(field, nf, a)
        field[nf] = card
        nf += 1
        nh = _without(hand, nh, card)
        gain = _mine(w, field, nf, hand, nh, base, main, tmp, keys, values)
        if kind == K_SUBSTITUTE:
            gain -= 0.1 + _unprotect(w, s, p, a) - _earn(w, s, cfg, p)
        if flags:
            return gain - 3.0 * w[W_TRIBUTE]
        return gain - _exposure(w, s, cfg, seat, card)
    return float(_greedy_score(action)) * 0.01


@njit(cache=True)
def playout_on(s, cfg, w, limit, out, best, shuffle, tmp, keys, values):  # type: ignore[no-untyped-def]
    """Up to ``limit`` actions by :func:`score` (ties at random) on ``s`` in place, on the
    caller's buffers (legal actions, ties, shuffle, scratch, the potential memo); the actions
    played."""
    played = 0
    while played < limit:
        n = legal_actions(s, cfg, out)
        if n == 0:
            break
        if n > MAX_ACTIONS:
            raise RuntimeError("more legal actions than the fast path's buffers hold")
        if n == 1:
            choice = out[0]
        else:
            top = -1e18
            m = 0
            base = mover_potential(w, s, tmp, keys, values)
            for i in range(n):
                value = score_from(w, s, cfg, out[i], tmp, base, keys, values)
                if value > top + 1e-12:
                    top = value
                    m = 0
                if value >= top - 1e-12:
                    best[m] = out[i]
                    m += 1
            choice = best[np.random.randint(0, m)]
        apply(s, cfg, choice, shuffle)
        played += 1
    return played


@njit(cache=True)
def heuristic_playout(s, cfg, w, max_actions):  # type: ignore[no-untyped-def]
    """Play by :func:`score` (ties at random) on ``s`` in place; the actions played."""
    out = np.empty(MAX_ACTIONS, np.int64)
    best = np.empty(MAX_ACTIONS, np.int64)
    shuffle = np.zeros(SHUFFLE_SIZE, np.int32)
    tmp = np.zeros((SCRATCH, 8), np.int64)
    keys = np.full(1 << 10, -1, np.int64)
    values = np.zeros(1 << 10, np.float64)
    return playout_on(s, cfg, w, max_actions, out, best, shuffle, tmp, keys, values)
