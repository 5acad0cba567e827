"""What the ladder's evaluation reads of a position at the end of the deciding seat's turn.

Every feature is read from what the deciding seat may know: its own cards (hand, field, the
values left in its draw pile), and of every opponent only the public part (cards in play,
level, tribute) with the chance that it holds each value at its next turn (:func:`holds`,
from the copies not in sight among its hidden cards). :func:`features` is the Python twin of
the compiled :func:`fanfold.agents.ladder.kernels.features`: the same loops in the same order,
so that both give the same floating-point numbers (the tests compare them).

The features (:data:`NAMES`), ``m_`` for the deciding seat and ``o_`` for its main rival (the
opponent furthest along: level, then prestige values in play):

* ``lt1``/``lt2``: one promotion to go, two to go (three or more: neither);
* ``pr1``/``pr2``: one, two (or more) distinct prestige values in play;
* ``m_ready``: pairs in play that sum to a missing prestige value held in hand (the
  combination is ready for the next turn); ``m_ready_safe`` the same, each weighted by the
  chance that neither card is attacked first; ``m_ready_p2`` that again with two prestige
  values in play (a promotion in waiting);
* ``m_pair``: pairs for a missing value not in hand, weighted by the chance of drawing it;
  ``m_pin``: a missing prestige card in hand without its pair; ``m_half``: one card of a
  pair in play and its partner in hand, with a free slot;
* ``m_combat``/``m_useful``: combat cards in play, and those that could pair towards a
  missing value; ``m_hand`` and ``m_free``: cards in hand, empty slots;
* ``m_exp``: the expected number of the seat's exposed combat cards hit at the opponents'
  next turn (each attack needs its support in the attacker's hand); ``m_exp_pair`` the same
  over the cards of its pairs;
* ``m_threat``: the expected number of the attacked players' combat cards the seat can hit
  at its next turn (its hand and draws); ``m_threat_pair`` over their pairs' cards;
* ``m_draw_prest``: missing prestige values still in the seat's draw pile;
* ``tribute`` (thirds of a special), ``m_joker`` (jokers in hand);
* ``o_ready``: the rival's pairs for missing values, each weighted by the chance it holds
  the prestige card; ``o_ready_p2`` with two prestige values in play; ``o_pin`` its missing
  prestige cards it may hold without a pair; ``o_combat``/``o_useful`` its combat cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fanfold.games.fano.cards import ATTACK_SUPPORT, LINE_THIRD, MAX_COMBAT, is_joker

NAMES = (
    "bias",
    "m_lt1",
    "m_lt2",
    "m_pr1",
    "m_pr2",
    "m_ready",
    "m_ready_safe",
    "m_ready_p2",
    "m_pair",
    "m_pin",
    "m_half",
    "m_combat",
    "m_useful",
    "m_hand",
    "m_exp",
    "m_exp_pair",
    "m_threat",
    "m_threat_pair",
    "m_draw_prest",
    "m_free",
    "m_tribute",
    "m_joker",
    "o_lt1",
    "o_lt2",
    "o_pr1",
    "o_pr2",
    "o_ready",
    "o_ready_p2",
    "o_combat",
    "o_useful",
    "o_pin",
    "o_tribute",
)
SIZE = len(NAMES)
(
    BIAS,
    M_LT1,
    M_LT2,
    M_PR1,
    M_PR2,
    M_READY,
    M_READY_SAFE,
    M_READY_P2,
    M_PAIR,
    M_PIN,
    M_HALF,
    M_COMBAT,
    M_USEFUL,
    M_HAND,
    M_EXP,
    M_EXP_PAIR,
    M_THREAT,
    M_THREAT_PAIR,
    M_DRAW_PREST,
    M_FREE,
    M_TRIBUTE,
    M_JOKER,
    O_LT1,
    O_LT2,
    O_PR1,
    O_PR2,
    O_READY,
    O_READY_P2,
    O_COMBAT,
    O_USEFUL,
    O_PIN,
    O_TRIBUTE,
) = range(SIZE)

#: The prestige values, in the order the features visit them.
PRESTIGE = (8, 9, 10)
#: Cards in hand after the draw.
HAND = 3
#: Field slots.
SLOTS = 4


def comb(n: int, k: int) -> int:
    """``n`` choose ``k`` (0 when ``k`` is out of range), by the loop the kernels use."""
    if k < 0 or k > n:
        return 0
    result = 1
    for i in range(k):
        result = result * (n - i) // (i + 1)
    return result


def hyper(pool: int, copies: int, draws: int) -> float:
    """The chance that ``draws`` cards taken from ``pool`` include one of ``copies``."""
    if copies <= 0 or draws <= 0 or pool <= 0:
        return 0.0
    if pool - copies < draws:
        return 1.0
    return 1.0 - comb(pool - copies, draws) / comb(pool, draws)


@dataclass(frozen=True, slots=True)
class Seen:
    """What everyone sees of one player, for :func:`holds`: how many suits it commands,
    how many cards it holds, has in its draw pile, face down in its discards and face down in
    play, and its hand cards known to all, its face-up cards in play and its face-up
    discards."""

    suits: int
    hand: int
    draw: int
    down: int
    hidden: int
    known: tuple[int, ...]
    field: tuple[int, ...]
    up: tuple[int, ...]


def holds(seen: Seen, value: int, later: bool) -> float:
    """The chance that the player holds a card of ``value`` (or a joker), from what everyone
    sees: certain when a hand card known to all is one; else its unknown hand cards (three
    less the known ones once it has drawn, when ``later``; else its hand now) come from the
    copies not in sight among all its hidden cards (hand, draw pile, face-down discards and
    cards in play)."""
    for card in seen.known:
        if card >> 4 == value or is_joker(card):
            return 1.0
    known = len(seen.known)
    unknown = (HAND if later else seen.hand) - known
    if unknown <= 0:
        return 0.0
    copies = seen.suits
    for zone in (seen.field, seen.up, seen.known):
        for card in zone:
            if card >> 4 == value and not is_joker(card):
                copies -= 1
    pool = seen.hand - known + seen.draw + seen.down + seen.hidden
    return hyper(pool, copies, unknown)


@dataclass(frozen=True, slots=True)
class Foe:
    """What the deciding seat knows of one opponent at the end of its turn.

    Attributes:
        level: promotions so far.
        field: its face-up cards in play.
        protected: those under classic Perfect defense.
        hidden: how many cards it has in play face down.
        tribute: its tribute counters.
        chance: ``chance[v]``: it holds a card of value ``v`` at its next turn (0..10).
        reverse: it may use Reverse Fano at its next turn.
        attacks_me: it may attack the deciding seat.
        attacked: the deciding seat may attack it.
    """

    level: int
    field: tuple[int, ...]
    protected: tuple[int, ...]
    hidden: int
    tribute: int
    chance: tuple[float, ...]
    reverse: bool
    attacks_me: bool
    attacked: bool


def match_pairs(
    combat: Sequence[int], missing: Sequence[int], order: Sequence[float]
) -> list[tuple[int, int, int]]:
    """Disjoint pairs of ``combat`` values, each summing to a ``missing`` prestige value,
    each value at most once; the values are taken by decreasing ``order[value]`` (ties: the
    smaller first), each with the first pair found: ``(value, a, b)`` rows."""
    rest = list(combat)
    values = list(missing)
    # selection order: highest order first, the smaller value on ties (as the kernels do)
    for i in range(len(values)):
        best = i
        for j in range(i + 1, len(values)):
            if order[values[j]] > order[values[best]]:
                best = j
        values[i], values[best] = values[best], values[i]
    found: list[tuple[int, int, int]] = []
    for m in values:
        hit_i = -1
        hit_j = -1
        for i in range(len(rest)):
            for j in range(i + 1, len(rest)):
                if rest[i] + rest[j] == m:
                    hit_i, hit_j = i, j
                    break
            if hit_i >= 0:
                break
        if hit_i >= 0:
            found.append((m, rest[hit_i], rest[hit_j]))
            del rest[hit_j]
            del rest[hit_i]
    return found


def _own(value: int, held: Sequence[int], jokers: int, draws: int, pool: Sequence[int]) -> float:
    """The chance that the deciding seat holds ``value`` at its next turn."""
    if jokers:
        return 1.0
    for v in held:
        if v == value:
            return 1.0
    if draws <= 0:
        return 0.0
    copies = 0
    for v in pool:
        if v == value or v == 0:
            copies += 1
    n = len(pool)
    return hyper(n, copies, draws if draws < n else n)


def _prestige_count(field: Sequence[int]) -> int:
    count = 0
    for m in PRESTIGE:
        for card in field:
            if card >> 4 == m:
                count += 1
                break
    return count


def features(
    goal: int,
    level: int,
    field: Sequence[int],
    hand: Sequence[int],
    hidden: Sequence[int],
    protected: Sequence[int],
    tribute: int,
    pool: Sequence[int],
    foes: Sequence[Foe],
) -> list[float]:
    """The feature vector (:data:`NAMES`) of the deciding seat's cards against ``foes``:
    ``field`` (sorted, its face-down cards among them, also listed in ``hidden``), ``hand``,
    and ``pool``, the values left in its draw pile (0 for a joker)."""
    f = [0.0] * SIZE
    f[BIAS] = 1.0
    lt = goal - level
    if lt == 1:
        f[M_LT1] = 1.0
    elif lt == 2:
        f[M_LT2] = 1.0
    held: list[int] = []
    jokers = 0
    for card in hand:
        if is_joker(card):
            jokers += 1
        else:
            held.append(card >> 4)
    draws = HAND - len(hand)
    pr = _prestige_count(field)
    if pr == 1:
        f[M_PR1] = 1.0
    elif pr >= 2:
        f[M_PR2] = 1.0
    missing = [m for m in PRESTIGE if not any(card >> 4 == m for card in field)]
    combat: list[int] = []
    for card in field:
        if 1 <= card >> 4 <= MAX_COMBAT and card not in hidden:
            combat.append(card >> 4)
    # exposure: each attackable combat card, in field order
    hit_values: list[int] = []
    hit_chances: list[float] = []
    for card in field:
        value = card >> 4
        if value > MAX_COMBAT or card in protected or card in hidden:
            continue
        safe = 1.0
        for foe in foes:
            if not foe.attacks_me:
                continue
            need = [False] * (MAX_COMBAT + 1)
            for attacker in foe.field:
                s = attacker >> 4
                if s > MAX_COMBAT or s == 0:
                    continue
                support = ATTACK_SUPPORT[s][value]
                if support:
                    need[support] = True
                if foe.reverse and ATTACK_SUPPORT[value][s]:
                    need[LINE_THIRD[s][value]] = True
            for v in range(1, MAX_COMBAT + 1):
                if need[v]:
                    safe *= 1.0 - foe.chance[v]
        hit_values.append(value)
        hit_chances.append(1.0 - safe)
        f[M_EXP] += 1.0 - safe
    order = [0.0] * 11
    for m in missing:
        order[m] = 2.0 if m in held else _own(m, held, jokers, draws, pool)
    pairs = match_pairs(combat, missing, order)
    for m, a, b in pairs:
        hit_a = _first(hit_values, hit_chances, a)
        hit_b = _first(hit_values, hit_chances, b)
        f[M_EXP_PAIR] += hit_a + hit_b
        if jokers or m in held:
            survive = (1.0 - hit_a) * (1.0 - hit_b)
            f[M_READY] += 1.0
            f[M_READY_SAFE] += survive
            if pr == 2:
                f[M_READY_P2] += survive
        else:
            f[M_PAIR] += order[m]
    free = SLOTS - len(field)
    for m in missing:
        if any(row[0] == m for row in pairs):
            continue
        if m in held:
            f[M_PIN] += 1.0
        if free > 0:
            for v in combat:
                partner = m - v
                if 1 <= partner <= MAX_COMBAT and partner != v and (jokers or partner in held):
                    f[M_HALF] += 1.0
                    break
        if m not in held and m in pool:
            f[M_DRAW_PREST] += 1.0
    f[M_COMBAT] = float(len(combat))
    for v in combat:
        if _useful(v, missing):
            f[M_USEFUL] += 1.0
    f[M_HAND] = float(len(hand))
    f[M_FREE] = float(free)
    f[M_TRIBUTE] = tribute / 3.0
    f[M_JOKER] = float(jokers)
    rival = -1
    best = -1
    for index, foe in enumerate(foes):
        score = foe.level * 4 + _prestige_count(foe.field)
        if score > best:
            best, rival = score, index
    for foe in foes:
        if not foe.attacked:
            continue
        fmissing = [m for m in PRESTIGE if not any(card >> 4 == m for card in foe.field)]
        fcombat = [card >> 4 for card in foe.field if 1 <= card >> 4 <= MAX_COMBAT]
        fpairs = match_pairs(fcombat, fmissing, foe.chance)
        for card in foe.field:
            value = card >> 4
            if value > MAX_COMBAT or value == 0 or card in foe.protected:
                continue
            need = [False] * (MAX_COMBAT + 1)
            for s in combat:
                if s == 0:
                    continue
                support = ATTACK_SUPPORT[s][value]
                if support:
                    need[support] = True
            safe = 1.0
            for v in range(1, MAX_COMBAT + 1):
                if need[v]:
                    safe *= 1.0 - _own(v, held, jokers, draws, pool)
            f[M_THREAT] += 1.0 - safe
            if any(row[1] == value or row[2] == value for row in fpairs):
                f[M_THREAT_PAIR] += 1.0 - safe
    if rival >= 0:
        foe = foes[rival]
        flt = goal - foe.level
        if flt == 1:
            f[O_LT1] = 1.0
        elif flt == 2:
            f[O_LT2] = 1.0
        fpr = _prestige_count(foe.field)
        if fpr == 1:
            f[O_PR1] = 1.0
        elif fpr >= 2:
            f[O_PR2] = 1.0
        fmissing = [m for m in PRESTIGE if not any(card >> 4 == m for card in foe.field)]
        fcombat = [card >> 4 for card in foe.field if 1 <= card >> 4 <= MAX_COMBAT]
        fpairs = match_pairs(fcombat, fmissing, foe.chance)
        for m, _, _ in fpairs:
            f[O_READY] += foe.chance[m]
            if fpr == 2:
                f[O_READY_P2] += foe.chance[m]
        for m in fmissing:
            if not any(row[0] == m for row in fpairs):
                f[O_PIN] += foe.chance[m]
        f[O_COMBAT] = float(len(fcombat) + foe.hidden)
        for v in fcombat:
            if _useful(v, fmissing):
                f[O_USEFUL] += 1.0
        f[O_TRIBUTE] = foe.tribute / 3.0
    return f


def _first(values: Sequence[int], chances: Sequence[float], value: int) -> float:
    for v, chance in zip(values, chances, strict=True):
        if v == value:
            return chance
    return 0.0


def _useful(value: int, missing: Sequence[int]) -> bool:
    for m in missing:
        partner = m - value
        if 1 <= partner <= MAX_COMBAT and partner != value:
            return True
    return False


def dot(weights: Sequence[float], values: Sequence[float]) -> float:
    """The evaluation: the weights times the features, summed in order."""
    total = 0.0
    for w, v in zip(weights, values, strict=True):
        total += w * v
    return total
