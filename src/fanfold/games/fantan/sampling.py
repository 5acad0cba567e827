"""Determinisation: deal the cards a seat cannot see, consistently with everything it saw.

:func:`sample_state` is ``FanTanGame.sample_state``: a full state that keeps everything the
view shows, with the unseen cards dealt by :func:`sample_hands`.

What a view tells about the other seats' hands:

* how many cards each holds;
* that none holds a card the viewer holds or one on the layout;
* that a seat which passed held no card playable at that moment (passing with a playable
  card is illegal), so it holds none of those cards now either (hands only shrink);
* in a variant with an opening card, that the leader holds it until it is played.

:func:`sample_hands` first tries plain rejection sampling (shuffle the unseen cards, deal
them by hand size, keep the deal if it breaks no constraint), which draws exactly uniformly
among the consistent deals. If a few tries all fail, it builds a deal card by card: each card
that some seat may not hold goes to a seat that may hold it, chosen with weight proportional to
that seat's open places, and only where Hall's condition shows that the rest can still be
completed. That always finishes (one seat always keeps the rest completable, since the deal
before the choice was completable) but is only approximately uniform.
"""

from __future__ import annotations

import random

from fanfold.core.errors import NotationError, Refusal, templates
from fanfold.games.fantan.cards import ALL_CARDS, indices_of
from fanfold.games.fantan.rules import pass_constraints
from fanfold.games.fantan.state import FanTanState
from fanfold.games.fantan.view import FanTanView

#: Uniform rejection tries before the constructive deal.
REJECTION_TRIES = 12

# A view no real game can produce (a bot's sampler meets one first): each reason a code.
templates(
    {
        "fantan.no_deal_fits": "no deal fits this view",
        "fantan.view_sizes": "the hand sizes in this view do not add up to the unseen cards",
    }
)


def sample_state(view: FanTanView, rng: random.Random) -> FanTanState:
    """A full state consistent with ``view`` (every hand shown once the match is over)."""
    hands = view.revealed if view.revealed is not None else sample_hands(view, rng)
    return FanTanState(
        config=view.config,
        seed=rng.getrandbits(63),
        hand_number=view.hand_number,
        dealer=view.dealer,
        leader=view.leader,
        to_move=view.to_move if view.to_move is not None else _last_actor(view),
        hands=hands,
        layout=view.layout,
        start_rank=view.start_rank,
        history=view.history,
        passes=view.passes,
        scores=view.scores,
        pool=view.pool,
        last_winner=view.last_winner,
        finished=view.to_move is None,
    )


def _last_actor(view: FanTanView) -> int:
    return (view.leader + len(view.history) - 1) % view.config.players


def hidden_constraints(view: FanTanView) -> tuple[int, list[int], list[int], list[int]]:
    """What the view implies about the unseen cards.

    Returns:
        ``(unseen, need, forbidden, required)``: the unseen cards, how many each seat must
        receive (0 for the viewer), the cards each seat may not hold, and the cards each seat
        must hold.
    """
    config = view.config
    players = config.players
    unseen = ALL_CARDS & ~view.hand & ~view.layout
    need = list(view.hand_counts)
    need[view.player] = 0
    forbidden = pass_constraints(config, view.leader, view.history)
    forbidden[view.player] = 0
    required = [0] * players
    opening = config.opening
    if opening is not None and view.layout == 0 and view.leader != view.player:
        required[view.leader] = 1 << opening.index
    return unseen, need, forbidden, required


def is_completable(cards: int, need: list[int], allowed: list[int]) -> bool:
    """Hall's condition: ``cards`` can go to the seats, each getting exactly ``need[seat]``
    of its ``allowed`` cards, iff every set of seats may hold at least as many of the cards
    as it needs in all (with the totals equal)."""
    seats = [seat for seat, count in enumerate(need) if count]
    if sum(need) != cards.bit_count():
        return False
    masks = [allowed[seat] & cards for seat in seats]
    counts = [need[seat] for seat in seats]
    union = [0] * (1 << len(seats))
    total = [0] * (1 << len(seats))
    for subset in range(1, 1 << len(seats)):
        low = subset & -subset
        position = low.bit_length() - 1
        rest = subset ^ low
        union[subset] = union[rest] | masks[position]
        total[subset] = total[rest] + counts[position]
        if union[subset].bit_count() < total[subset]:
            return False
    return True


def sample_hands(view: FanTanView, rng: random.Random) -> tuple[int, ...]:
    """Every seat's hand: the viewer's own, the others dealt consistently with the view.

    Raises:
        NotationError: when no deal fits the view (a view no real game can produce).
    """
    players = view.config.players
    unseen, need, forbidden, required = hidden_constraints(view)
    hands = [0] * players
    hands[view.player] = view.hand
    for seat in range(players):
        if required[seat]:
            if required[seat] & forbidden[seat] or not need[seat]:
                raise NotationError(Refusal("fantan.no_deal_fits"))
            hands[seat] |= required[seat]
            need[seat] -= required[seat].bit_count()
            unseen &= ~required[seat]
    cards = indices_of(unseen)
    if sum(need) != len(cards):
        raise NotationError(Refusal("fantan.view_sizes"))
    constrained = any(forbidden)
    for _ in range(REJECTION_TRIES if constrained else 1):
        rng.shuffle(cards)
        dealt = _deal_in_order(cards, need)
        if all(not dealt[seat] & forbidden[seat] for seat in range(players)):
            return tuple(hand | extra for hand, extra in zip(hands, dealt, strict=True))
    allowed = [ALL_CARDS & ~forbidden[seat] if need[seat] else 0 for seat in range(players)]
    if not is_completable(unseen, need, allowed):
        raise NotationError(Refusal("fantan.no_deal_fits"))
    limited = [index for index in cards if any(forbidden[seat] >> index & 1 for seat in
               range(players) if need[seat])]  # fmt: skip
    rng.shuffle(limited)
    remaining = unseen
    for index in limited:
        bit = 1 << index
        candidates = [seat for seat in range(players) if need[seat] and allowed[seat] & bit]
        while True:
            weights = [need[seat] for seat in candidates]
            seat = rng.choices(candidates, weights)[0]
            need[seat] -= 1
            if is_completable(remaining & ~bit, need, allowed):
                break
            need[seat] += 1
            candidates.remove(seat)
        hands[seat] |= bit
        remaining &= ~bit
    free = indices_of(remaining)
    rng.shuffle(free)
    for seat, extra in enumerate(_deal_in_order(free, need)):
        hands[seat] |= extra
    return tuple(hands)


def _deal_in_order(cards: list[int], need: list[int]) -> list[int]:
    dealt = []
    position = 0
    for count in need:
        mask = 0
        for index in cards[position : position + count]:
            mask |= 1 << index
        dealt.append(mask)
        position += count
    return dealt
