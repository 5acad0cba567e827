"""Converting between the reference's values and the fast path's arrays and action ids.

Pure Python and NumPy (no Numba): a :class:`~fanfold.games.fano.state.FanoState` encodes to
one ``int32`` array and decodes back to an equal state; a
:data:`~fanfold.games.fano.actions.FanoAction` packs to one ``int64`` and unpacks back.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

from fanfold.core.rng import derive_rng
from fanfold.games.fano import actions as fa
from fanfold.games.fano.config import FanoConfig, PromotionMode, Special, SpecialsMode, Teams
from fanfold.games.fano.fast import layout
from fanfold.games.fano.rules import deck_of, specials_of
from fanfold.games.fano.rules.specials import suit_specials
from fanfold.games.fano.state import FanoState, Pending, Phase, PlayerState

StateArray = npt.NDArray[np.int32]

PHASES: tuple[Phase, ...] = tuple(Phase)
SPECIALS: tuple[Special, ...] = tuple(Special)
_PHASE_CODES = {phase: code for code, phase in enumerate(PHASES)}
_SPECIAL_CODES = {special: code for code, special in enumerate(SPECIALS)}
#: The zones in the order of ``PlayerState``'s fields: hand, field, draw, up, down, known,
#: protected, hidden.
_ZONES = tuple(layout.ZONES.values())


def size(config: FanoConfig) -> int:
    """The length of a state array for ``config``."""
    return layout.HEADER + config.players * layout.PLAYER_WIDTH


def encode_config(config: FanoConfig) -> StateArray:
    """The options the kernels read, as an ``int32`` array."""
    cfg = np.zeros(layout.CFG_SIZE, np.int32)
    cfg[layout.C_PLAYERS] = config.players
    cfg[layout.C_LAST_TURN] = config.last_turn
    cfg[layout.C_PROMOTIONS_TO_WIN] = config.promotions_to_win
    cfg[layout.C_MULLIGAN] = int(config.mulligan)
    cfg[layout.C_PROMOTION_ENDS_MAIN] = int(config.promotion_ends_main)
    cfg[layout.C_EASY] = int(config.promotion is PromotionMode.EASY and config.six_prestige)
    cfg[layout.C_HARD] = int(config.promotion is PromotionMode.HARD)
    cfg[layout.C_TRIONFEY] = int(config.trionfey)
    cfg[layout.C_SPECIALS] = tuple(SpecialsMode).index(config.specials)
    cfg[layout.C_OVERSUM_PRESTIGE_ONLY] = int(config.oversum_prestige_only)
    cfg[layout.C_TRIBUTE] = int(config.tribute)
    cfg[layout.C_TEAMS] = tuple(Teams).index(config.teams)
    for seat in range(config.players):
        if config.trionfey:
            usable = suit_specials(config.suits_of(seat)) if config.tribute else frozenset()
        else:
            usable = specials_of(config, seat)
        mask = 0
        for special in usable:
            mask |= 1 << _SPECIAL_CODES[special]
        cfg[layout.C_SEAT_SPECIALS + seat] = mask
    return cfg


def decks(config: FanoConfig) -> StateArray:
    """Each seat's starting deck (count, then the cards), for the compiled deal."""
    rows = np.zeros((config.players, 1 + layout.PILE_CAP), np.int32)
    for seat in range(config.players):
        cards = deck_of(config, seat)
        rows[seat, 0] = len(cards)
        rows[seat, 1 : 1 + len(cards)] = cards
    return rows


def encode_state(state: FanoState) -> StateArray:
    """``state`` as an array (raises ValueError when a zone is over the layout's capacity)."""
    v = [0] * size(state.config)
    v[layout.TURN_PLAYER] = state.turn_player
    v[layout.PHASE] = _PHASE_CODES[state.phase]
    v[layout.TURN] = state.turn
    pending = state.pending
    if pending is not None:
        v[layout.PENDING_ATTACKER] = pending.attacker
        v[layout.PENDING_TARGET] = pending.target
        v[layout.PENDING_DEFENDER] = pending.defender
        v[layout.PENDING_REVERSE] = int(pending.reverse)
        v[layout.PENDING_SUPPORT] = pending.support
    v[layout.TARGET_SEAT] = -1 if state.target_seat is None else state.target_seat
    v[layout.PRIORITY] = state.priority
    for seat, player in enumerate(state.players):
        p = layout.HEADER + seat * layout.PLAYER_WIDTH
        zones = (
            player.hand,
            player.field,
            player.draw,
            player.up,
            player.down,
            player.known,
            player.protected,
            player.hidden,
        )
        for cards, (offset, capacity) in zip(zones, _ZONES, strict=True):
            if len(cards) > capacity:
                raise ValueError(f"a zone holds {len(cards)} cards, over the layout's {capacity}")
            v[p + offset] = len(cards)
            v[p + offset + 1 : p + offset + 1 + len(cards)] = cards
        if len(player.specials) > layout.SPECIALS_CAP:
            raise ValueError("too many specials used for the fast layout")
        at = p + layout.SPECIALS
        v[at] = len(player.specials)
        for index, (level, special) in enumerate(player.specials):
            v[at + 1 + index] = level * 4 + _SPECIAL_CODES[special]
        v[p + layout.LEVEL] = player.level
        v[p + layout.SHUFFLES] = player.shuffles
        v[p + layout.TEMP_JOKERS] = player.temp_jokers
        v[p + layout.TRIBUTE] = player.tribute
    return np.array(v, np.int32)


def decode_state(s: StateArray, config: FanoConfig, seed: int) -> FanoState:
    """The reference state an array stands for."""
    v: list[int] = s.tolist()
    players = []
    for seat in range(config.players):
        p = layout.HEADER + seat * layout.PLAYER_WIDTH
        hand, field, draw, up, down, known, protected, hidden = (
            tuple(v[p + offset + 1 : p + offset + 1 + v[p + offset]]) for offset, _ in _ZONES
        )
        at = p + layout.SPECIALS
        specials = tuple((code // 4, SPECIALS[code % 4]) for code in v[at + 1 : at + 1 + v[at]])
        players.append(
            PlayerState(
                hand,
                field,
                draw,
                up,
                down,
                known,
                v[p + layout.LEVEL],
                specials,
                protected,
                v[p + layout.SHUFFLES],
                v[p + layout.TEMP_JOKERS],
                v[p + layout.TRIBUTE],
                hidden,
            )
        )
    pending = None
    if v[layout.PENDING_ATTACKER]:
        pending = Pending(
            v[layout.PENDING_ATTACKER],
            v[layout.PENDING_TARGET],
            v[layout.PENDING_DEFENDER],
            bool(v[layout.PENDING_REVERSE]),
            v[layout.PENDING_SUPPORT],
        )
    target = v[layout.TARGET_SEAT]
    return FanoState(
        config,
        seed,
        tuple(players),
        v[layout.TURN_PLAYER],
        PHASES[v[layout.PHASE]],
        v[layout.TURN],
        pending,
        None if target < 0 else target,
        v[layout.PRIORITY],
    )


def reshuffle_permutation(seed: int, seat: int, shuffles: int, count: int) -> list[int]:
    """The reference reshuffle of ``count`` sorted cards as a permutation: the new draw pile
    is ``[sorted_cards[i] for i in permutation]`` (``random.shuffle`` swaps by position only,
    so shuffling the indices gives the same order as shuffling the cards)."""
    order = list(range(count))
    derive_rng(seed, "reshuffle", seat, shuffles).shuffle(order)
    return order


# ------------------------------------------------------------------------------- actions
def _pack(
    kind: int, a: int = 0, b: int = 0, c: int = 0, d: int = 0, flags: int = 0, e: int = 0
) -> int:
    return (
        kind
        | a << layout.SHIFT_A
        | b << layout.SHIFT_B
        | c << layout.SHIFT_C
        | d << layout.SHIFT_D
        | flags << layout.SHIFT_FLAGS
        | e << layout.SHIFT_E
    )


def _seat_code(seat: int | None) -> int:
    return 0 if seat is None else seat + 1


def action_id(action: fa.FanoAction) -> int:
    """The packed ``int64`` id of ``action`` (raises ValueError for a kind the fast path does
    not cover)."""
    if isinstance(action, fa.Attack):
        return _pack(
            layout.K_ATTACK, action.attacker, action.target, action.support, 0, action.reverse
        )
    if isinstance(action, fa.Combine):
        return _pack(
            layout.K_COMBINE,
            action.first,
            action.second,
            action.result,
            action.returned,
            action.oversum,
        )
    if isinstance(action, fa.Promote):
        owners = [_seat_code(owner) for owner in action.owners or (None, None, None)]
        return _pack(layout.K_PROMOTE, *action.cards, owners[0] | owners[1] << 4, e=owners[2])
    if isinstance(action, fa.Declare):
        return _pack(
            layout.K_DECLARE,
            action.attacker,
            action.target,
            _seat_code(action.seat),
            flags=action.reverse,
        )
    if isinstance(action, fa.Recruit):
        return _pack(layout.K_RECRUIT, action.card, action.first, action.second)
    if isinstance(action, fa.CombineCounter):
        first, second = action.recruiters or (0, 0)
        return _pack(
            layout.K_COUNTER,
            action.first,
            action.second,
            action.result,
            action.returned,
            first,
            action.recruited,
        ) | (second << 56)
    if isinstance(action, fa.Allow):
        return _pack(layout.K_ALLOW)
    if isinstance(action, fa.Flip):
        return _pack(layout.K_FLIP, action.card)
    if isinstance(action, fa.Sacrifice):
        return _pack(layout.K_SACRIFICE, action.card)
    if isinstance(action, fa.PlaceJoker):
        return _pack(layout.K_PLACE_JOKER)
    if isinstance(action, fa.Defend):
        return _pack(layout.K_DEFEND, action.card)
    if isinstance(action, fa.Play):
        return _pack(layout.K_PLAY, action.card, flags=action.face_down)
    if isinstance(action, fa.Substitute):
        return _pack(layout.K_SUBSTITUTE, action.removed, action.card, flags=action.face_down)
    if isinstance(action, fa.Discard):
        if len(action.cards) > 3:
            raise ValueError("a discard of more than three cards")
        return _pack(layout.K_DISCARD, *action.cards)
    if isinstance(action, fa.Pass):
        return _pack(layout.K_PASS)
    if isinstance(action, fa.Mulligan):
        return _pack(layout.K_MULLIGAN, flags=action.take)
    if isinstance(action, fa.Shuffle):
        return _pack(layout.K_SHUFFLE, flags=action.joker)
    raise ValueError(f"{action} is not covered by the fast path")


@lru_cache(maxsize=1 << 16)
def to_action(packed: int) -> fa.FanoAction:
    """The reference action a packed id stands for."""
    kind = packed & 255
    a = (packed >> layout.SHIFT_A) & 255
    b = (packed >> layout.SHIFT_B) & 255
    c = (packed >> layout.SHIFT_C) & 255
    d = (packed >> layout.SHIFT_D) & 255
    flags = (packed >> layout.SHIFT_FLAGS) & 255
    flag = bool(flags)
    e = (packed >> layout.SHIFT_E) & 255
    if kind == layout.K_ATTACK:
        return fa.Attack(a, b, c, flag)
    if kind == layout.K_COMBINE:
        return fa.Combine(a, b, c, d, flag)
    if kind == layout.K_PROMOTE:
        codes = (d & 15, d >> 4, e)
        owners = tuple(None if code == 0 else code - 1 for code in codes)
        return fa.Promote((a, b, c), () if not any(codes) else owners)
    if kind == layout.K_DECLARE:
        return fa.Declare(a, b, None if c == 0 else c - 1, flag)
    if kind == layout.K_RECRUIT:
        return fa.Recruit(a, b, c)
    if kind == layout.K_COUNTER:
        second = (packed >> 56) & 255
        recruiters = (flags, second) if e else ()
        return fa.CombineCounter(a, b, c, d, e, recruiters)
    if kind == layout.K_ALLOW:
        return fa.Allow()
    if kind == layout.K_FLIP:
        return fa.Flip(a)
    if kind == layout.K_SACRIFICE:
        return fa.Sacrifice(a)
    if kind == layout.K_PLACE_JOKER:
        return fa.PlaceJoker()
    if kind == layout.K_DEFEND:
        return fa.Defend(a)
    if kind == layout.K_PLAY:
        return fa.Play(a, flag)
    if kind == layout.K_SUBSTITUTE:
        return fa.Substitute(a, b, flag)
    if kind == layout.K_DISCARD:
        return fa.Discard(tuple(card for card in (a, b, c) if card))
    if kind == layout.K_PASS:
        return fa.Pass()
    if kind == layout.K_MULLIGAN:
        return fa.Mulligan(flag)
    if kind == layout.K_SHUFFLE:
        return fa.Shuffle(flag)
    raise ValueError(f"{packed:#x} is not a packed Fano action")
