"""The Fan Tan rules: rows, the deal, legal actions, applying them, scoring, the end.

Everything the rules decide is decided here, once (rules text: seeds/003; readings:
``docs/rules/fantan.md``). :func:`why_illegal` is the single source of legality:
:func:`is_legal` is ``why_illegal(...) is None`` and :func:`legal_actions` lists exactly the
actions it allows (tested).

Rows: the layout has one row per suit, built outwards from its starting card. A row is a run of
consecutive ranks in the suit order (``2..K A`` with the ace high, ``A 2..K`` with the ace low)
that contains the starting rank; it grows by one card at either end. A row whose starting rank
is at an end of the order grows one way only. :func:`suit_table` works out, once per variant,
which ranks every possible row can take next.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import fanfold.games.fantan.refusals  # noqa: F401  (registers the refusals' templates)
from fanfold.core.cards import rank_text
from fanfold.core.errors import Refusal, templates
from fanfold.core.game import Outcome, Termination
from fanfold.core.phrases import Phrase, PhraseParam, joined, phrases
from fanfold.core.rng import derive_rng
from fanfold.games.fantan.actions import PASS, PLAYS, FanTanAction, Pass
from fanfold.games.fantan.cards import (
    ALL_CARDS,
    CARDS,
    SUIT_BITS,
    SUIT_MASK,
    cards_of,
    face_points,
    indices_of,
    rank_order,
    row_ranks,
)
from fanfold.games.fantan.config import FanTanConfig, Scoring
from fanfold.games.fantan.state import FanTanState


# ------------------------------------------------------------------------------------- rows
@cache
def suit_table(start_rank: int, ace_high: bool, up_before_down: bool) -> tuple[int, ...]:
    """For every 13-bit mask of a suit's played ranks, the mask of the ranks playable next.

    Masks that no row can have map to ``-1``.

    >>> table = suit_table(7, True, False)
    >>> bin(table[0]), bin(table[1 << 6])  # empty row: the 7; then the 6 or the 8
    ('0b1000000', '0b10100000')
    >>> bin(suit_table(7, True, True)[1 << 6])  # the 8 before the 6
    '0b10000000'
    """
    order = rank_order(ace_high)
    start = order.index(start_rank)
    table = [-1] * (1 << SUIT_BITS)
    table[0] = 1 << (start_rank - 1)
    for low in range(start + 1):
        for high in range(start, len(order)):
            mask = 0
            for position in range(low, high + 1):
                mask |= 1 << (order[position] - 1)
            playable = 0
            if high + 1 < len(order):
                playable |= 1 << (order[high + 1] - 1)
            may_go_down = not up_before_down or high > start or start == len(order) - 1
            if low > 0 and may_go_down:
                playable |= 1 << (order[low - 1] - 1)
            table[mask] = playable
    return tuple(table)


def playable_cards(layout: int, table: tuple[int, ...]) -> int:
    """The 52-bit mask of cards that may be played to ``layout``."""
    return (
        table[layout & SUIT_MASK]
        | table[(layout >> 13) & SUIT_MASK] << 13
        | table[(layout >> 26) & SUIT_MASK] << 26
        | table[(layout >> 39) & SUIT_MASK] << 39
    )


def is_valid_layout(layout: int, table: tuple[int, ...]) -> bool:
    """True when every suit's played cards form a row the rules can build."""
    return all(table[(layout >> (13 * suit)) & SUIT_MASK] != -1 for suit in range(4))


# ------------------------------------------------------------------------------------- deal
CARDS_IN_PACK = 52


def first_dealer(players: int) -> int:
    """The seat that deals the first hand: the last seat, so that Player 1 plays first."""
    return players - 1


def dealer_of(players: int, hand_number: int) -> int:
    """The dealer of a hand: the deal passes to the left (the next seat) each hand."""
    return (first_dealer(players) + hand_number) % players


def deal_sizes(players: int, dealer: int) -> tuple[int, ...]:
    """Cards each seat is dealt: one at a time from the dealer's left, so the seats nearest
    the dealer's left get the extra cards."""
    base, extra = divmod(CARDS_IN_PACK, players)
    return tuple(
        base + (1 if (seat - dealer - 1) % players < extra else 0) for seat in range(players)
    )


def deal(config: FanTanConfig, seed: int, hand_number: int) -> tuple[int, ...]:
    """Shuffle from ``derive_rng(seed, "deal", hand_number)`` and deal one card at a time."""
    players = config.players
    dealer = dealer_of(players, hand_number)
    deck = list(range(CARDS_IN_PACK))
    derive_rng(seed, "deal", hand_number).shuffle(deck)
    hands = [0] * players
    for position, index in enumerate(deck):
        hands[(dealer + 1 + position) % players] |= 1 << index
    return tuple(hands)


def leader_of(config: FanTanConfig, dealer: int, hands: Sequence[int]) -> int:
    """Who plays first: the holder of the opening card, or the player to the dealer's left."""
    opening = config.opening
    if opening is not None:
        bit = 1 << opening.index
        for seat, hand in enumerate(hands):
            if hand & bit:
                return seat
    return (dealer + 1) % config.players


def start_hand(
    config: FanTanConfig,
    seed: int,
    hand_number: int,
    scores: tuple[int, ...],
    last_winner: int | None,
) -> FanTanState:
    """Deal a hand of the match; with chip scoring everyone antes to the pool."""
    players = config.players
    dealer = dealer_of(players, hand_number)
    hands = deal(config, seed, hand_number)
    pool = 0
    if config.scoring is Scoring.CHIPS:
        scores = tuple(score - config.ante for score in scores)
        pool = config.ante * players
    leader = leader_of(config, dealer, hands)
    return FanTanState(
        config=config,
        seed=seed,
        hand_number=hand_number,
        dealer=dealer,
        leader=leader,
        to_move=leader,
        hands=hands,
        layout=0,
        start_rank=config.start_rank,
        history=(),
        passes=(0,) * players,
        scores=scores,
        pool=pool,
        last_winner=last_winner,
        finished=False,
    )


def new_state(config: FanTanConfig, seed: int) -> FanTanState:
    """The first hand of a match, dealt from ``seed``."""
    return start_hand(config, seed, 0, (0,) * config.players, None)


# --------------------------------------------------------------------------------- legality
def playable_mask(config: FanTanConfig, layout: int, start_rank: int | None) -> int:
    """Every card that may be played to ``layout`` (held by anyone).

    Before the first card of a hand only the opening card may be played when the variant
    names one, and any card when the first player chooses the starting rank.
    """
    if layout == 0:
        opening = config.opening
        if opening is not None:
            return 1 << opening.index
    if start_rank is None:  # only before the first card of a chosen-rank hand
        return ALL_CARDS
    return playable_cards(layout, suit_table(start_rank, config.ace_high, config.up_before_down))


def state_playable(state: FanTanState) -> int:
    """Every card that may be played in ``state`` (held by anyone)."""
    return playable_mask(state.config, state.layout, state.start_rank)


def legal_actions(state: FanTanState) -> tuple[FanTanAction, ...]:
    """The plays of every playable card in hand, in index order; a pass only when there is
    none; nothing once the match is over."""
    if state.finished:
        return ()
    playable = state.hands[state.to_move] & state_playable(state)
    if not playable:
        return (PASS,)
    return tuple(PLAYS[index] for index in indices_of(playable))


def is_legal(state: FanTanState, action: FanTanAction) -> bool:
    """Whether ``action`` may be taken now."""
    return why_illegal(state, action) is None


def why_illegal(state: FanTanState, action: FanTanAction) -> Refusal | None:
    """A sentence telling the player why ``action`` breaks a rule here, or ``None`` when it is
    legal."""
    ended = outcome(state)
    if ended is not None:
        return Refusal("fantan.over", reason=ended.reason)
    hand = state.hands[state.to_move]
    playable = hand & state_playable(state)
    if isinstance(action, Pass):
        if not playable:
            return None
        options = " ".join(str(card) for card in cards_of(playable))
        return Refusal("fantan.must_play", cards=options)
    if playable >> action.index & 1:
        return None
    card = CARDS[action.index]
    if not hand >> action.index & 1:
        if state.layout >> action.index & 1:
            return Refusal("fantan.on_layout", card=str(card))
        return Refusal("fantan.not_held", card=str(card))
    config = state.config
    if not state.history and config.opening is not None:
        return Refusal("fantan.opening", card=str(config.opening))
    if state.start_rank is None:
        return Refusal("fantan.not_now", card=str(card))
    order = rank_order(config.ace_high)
    start = rank_text(state.start_rank)
    row = row_ranks(state.layout, card.suit.order, config.ace_high)
    if not row:
        return Refusal("fantan.row_start", suit=card.suit.name.lower(), rank=start)
    position = order.index(card.rank)
    if config.up_before_down and row[-1] == state.start_rank and position < order.index(row[0]):
        above = order[order.index(state.start_rank) + 1]
        return Refusal(
            "fantan.up_first", card=str(card), suit=card.suit.name.lower(), rank=rank_text(above)
        )
    ends = [rank_text(rank) + card.suit.value for rank in _row_ends(row, order)]
    suit = card.suit.name.lower()
    if len(ends) == 2:
        return Refusal(
            "fantan.not_at_end_two", card=str(card), suit=suit, low=ends[0], high=ends[1]
        )
    if ends:
        return Refusal("fantan.not_at_end_one", card=str(card), suit=suit, end=ends[0])
    return Refusal("fantan.not_at_end", card=str(card), suit=suit)


def _row_ends(row: list[int], order: tuple[int, ...]) -> list[int]:
    low, high = order.index(row[0]), order.index(row[-1])
    ends = []
    if low > 0:
        ends.append(order[low - 1])
    if high + 1 < len(order):
        ends.append(order[high + 1])
    return ends


# ---------------------------------------------------------------------------------- playing
def step(state: FanTanState, action: FanTanAction) -> FanTanState:
    """The state after a legal action, before the hand is scored if it just ended."""
    config = state.config
    player = state.to_move
    following = (player + 1) % config.players
    if isinstance(action, Pass):
        passes = list(state.passes)
        passes[player] += 1
        scores = state.scores
        pool = state.pool
        if config.scoring is Scoring.CHIPS:
            changed = list(scores)
            changed[player] -= config.pass_chips
            scores = tuple(changed)
            pool += config.pass_chips
        return FanTanState(
            config, state.seed, state.hand_number, state.dealer, state.leader, following,
            state.hands, state.layout, state.start_rank, (*state.history, action),
            tuple(passes), scores, pool, state.last_winner, False,
        )  # fmt: skip
    bit = 1 << action.index
    hands = list(state.hands)
    hands[player] ^= bit
    start_rank = state.start_rank
    if start_rank is None:
        start_rank = CARDS[action.index].rank
    return FanTanState(
        config, state.seed, state.hand_number, state.dealer, state.leader,
        following if hands[player] else player, tuple(hands), state.layout | bit, start_rank,
        (*state.history, action), state.passes, state.scores, state.pool, state.last_winner,
        False,
    )  # fmt: skip


def finish_hand(state: FanTanState, winner: int) -> FanTanState:
    """Score the hand ``winner`` just went out of; deal the next hand unless the match is over."""
    config = state.config
    scores, pool = settle(config, state.hands, winner, state.scores, state.pool)
    if is_match_over(config, state.hand_number, scores):
        return FanTanState(
            config, state.seed, state.hand_number, state.dealer, state.leader, winner,
            state.hands, state.layout, state.start_rank, state.history, state.passes, scores,
            pool, state.last_winner, True,
        )  # fmt: skip
    return start_hand(config, state.seed, state.hand_number + 1, scores, winner)


def apply(state: FanTanState, action: FanTanAction) -> FanTanState:
    """The state after a legal action (not checked): a hand that ends is scored at once, and
    the next hand is dealt unless the match is over."""
    player = state.to_move
    moved = step(state, action)
    if not moved.hands[player]:
        return finish_hand(moved, player)
    return moved


# ---------------------------------------------------------------------------------- scoring
def is_match_over(config: FanTanConfig, hand_number: int, scores: Sequence[int]) -> bool:
    """Whether the match ends after hand ``hand_number`` with these scores."""
    if config.hands and hand_number + 1 >= config.hands:
        return True
    return config.target is not None and max(scores) >= config.target


def match_termination(config: FanTanConfig, scores: Sequence[int]) -> Termination:
    """How a finished game ended: one hand is over when a player goes out; a match ends on its
    target when some score reached it (even in what was also its last hand), else after its
    last hand."""
    if not config.is_match:
        return Termination.WENT_OUT
    if config.target is not None and max(scores) >= config.target:
        return Termination.TARGET_REACHED
    return Termination.HANDS_PLAYED


def settle(
    config: FanTanConfig, hands: Sequence[int], winner: int, scores: Sequence[int], pool: int
) -> tuple[tuple[int, ...], int]:
    """Scores and pool after ``winner`` went out, the others holding ``hands``."""
    new = list(scores)
    if config.scoring is Scoring.PLAIN:
        new[winner] += 1
    elif config.scoring is Scoring.CHIPS:
        for seat, hand in enumerate(hands):
            if seat != winner:
                owed = config.card_chips * hand.bit_count()
                new[seat] -= owed
                new[winner] += owed
        new[winner] += pool
        pool = 0
    else:
        for seat, hand in enumerate(hands):
            if seat != winner:
                new[seat] += face_points(hand)
    return tuple(new), pool


def hand_winner(state: FanTanState) -> int | None:
    """The seat with no cards left, if any."""
    for seat, hand in enumerate(state.hands):
        if not hand:
            return seat
    return None


# ---------------------------------------------------------------------------------- history
def history_seats(leader: int, players: int, length: int) -> list[int]:
    """The seat of each action in a hand's history: everyone in turn from the leader."""
    return [(leader + number) % players for number in range(length)]


def pass_constraints(
    config: FanTanConfig, leader: int, history: Sequence[FanTanAction]
) -> list[int]:
    """For each seat, the cards it cannot hold: every card playable when it passed."""
    forbidden = [0] * config.players
    layout = 0
    start_rank = config.start_rank
    seat = leader
    for action in history:
        if isinstance(action, Pass):
            forbidden[seat] |= playable_mask(config, layout, start_rank)
        else:
            layout |= 1 << action.index
            if start_rank is None:
                start_rank = CARDS[action.index].rank
        seat = (seat + 1) % config.players
    return forbidden


# ---------------------------------------------------------------------------------- the end
phrases(
    {
        "fantan.seat": "Player {number}",
        "fantan.went_out": "{seat} went out",
        "fantan.the_end": "the end",
        "fantan.wins_hand": "{out} first and wins the hand",
        "fantan.most_hands": "{out}; after {hands} hands {tops} won the most hands ({best})",
        "fantan.the_hand": "the hand",
        "fantan.hands": "{hands} hands",
        "fantan.score": "{seat} {score}",
        "fantan.net_chips": "{out}; net chips after {what}: {table}",
        "fantan.penalty_points": "{out}; penalty points after {what}: {table}",
    }
)


def seat_name(seat: int) -> str:
    """How players call seat ``seat`` (from 0): ``Player 1``."""
    return f"Player {seat + 1}"


def seat_words(seat: int) -> Phrase:
    """:func:`seat_name` as a :class:`~fanfold.core.phrases.Phrase`, for a page to word."""
    return Phrase("fantan.seat", number=seat + 1)


def outcome(state: FanTanState) -> Outcome | None:
    """How the match ended, ``None`` while it goes on (see ``docs/rules/fantan.md``, "Scoring"
    and "Matches", for the returns)."""
    if not state.finished:
        return None
    config = state.config
    players = config.players
    scores = state.scores
    winner = hand_winner(state)
    termination = match_termination(config, state.scores)
    returns = _returns(config, scores)
    out = f"{seat_name(winner)} went out" if winner is not None else "the end"
    names = [seat_name(seat) for seat in range(players)]
    if config.scoring is Scoring.PLAIN:
        if not config.is_match:
            return Outcome(f"{out} first and wins the hand", returns, termination=termination)
        best = max(scores)
        tops = [names[seat] for seat in range(players) if scores[seat] == best]
        return Outcome(
            f"{out}; after {state.hand_number + 1} hands "
            f"{' and '.join(tops)} won the most hands ({best})",
            returns,
            termination=termination,
        )
    what = "the hand" if not config.is_match else f"{state.hand_number + 1} hands"
    if config.scoring is Scoring.CHIPS:
        table = ", ".join(f"{names[seat]} {scores[seat]:+d}" for seat in range(players))
        return Outcome(f"{out}; net chips after {what}: {table}", returns, termination=termination)
    table = ", ".join(f"{names[seat]} {scores[seat]}" for seat in range(players))
    return Outcome(f"{out}; penalty points after {what}: {table}", returns, termination=termination)


def _returns(config: FanTanConfig, scores: Sequence[int]) -> tuple[float, ...]:
    """Each seat's return at the end (``docs/rules/fantan.md``, "Scoring"): plain, +1 for the
    most hands won and -1 for the rest (0 for all when every seat has as many); chips, the net
    chips; penalty points, minus the points."""
    if config.scoring is Scoring.PLAIN:
        best = max(scores)
        if all(score == best for score in scores):
            return (0.0,) * len(scores)
        return tuple(1.0 if score == best else -1.0 for score in scores)
    if config.scoring is Scoring.CHIPS:
        return tuple(map(float, scores))
    return tuple(-float(score) for score in scores)


def ending_words(state: FanTanState) -> Phrase | None:
    """How the game ended, in words a page words in its language (a
    :class:`~fanfold.core.phrases.Phrase`, the English of :func:`outcome`'s reason);
    ``None`` while play goes on. Apart from :func:`outcome`, which the bots' playouts call:
    they never pay for the words."""
    if not state.finished:
        return None
    config = state.config
    players = config.players
    scores = state.scores
    winner = hand_winner(state)
    out = (
        Phrase("fantan.went_out", seat=seat_words(winner))
        if winner is not None
        else Phrase("fantan.the_end")
    )
    names = [seat_words(seat) for seat in range(players)]
    if config.scoring is Scoring.PLAIN:
        if not config.is_match:
            return Phrase("fantan.wins_hand", out=out)
        best = max(scores)
        tops = [names[seat] for seat in range(players) if scores[seat] == best]
        return Phrase(
            "fantan.most_hands",
            out=out,
            hands=state.hand_number + 1,
            tops=_each_and(tops),
            best=best,
        )
    what = (
        Phrase("fantan.the_hand")
        if not config.is_match
        else Phrase("fantan.hands", hands=state.hand_number + 1)
    )
    if config.scoring is Scoring.CHIPS:
        table = joined(
            [
                Phrase("fantan.score", seat=names[seat], score=f"{scores[seat]:+d}")
                for seat in range(players)
            ]
        )
        return Phrase("fantan.net_chips", out=out, what=what, table=table)
    table = joined(
        [Phrase("fantan.score", seat=names[seat], score=scores[seat]) for seat in range(players)]
    )
    return Phrase("fantan.penalty_points", out=out, what=what, table=table)


def _each_and(names: Sequence[PhraseParam]) -> PhraseParam:
    """``Player 1 and Player 2 and Player 3``: every name joined by "and"."""
    return joined(names, "words.and_also")


# ------------------------------------------------------------------------------- invariants
#: Each broken invariant's code and English template: a position read from text that breaks
#: one is refused with them (``game.impossible_position``), worded in the reader's language.
templates(
    {
        "fantan.inv_entries": "hands, passes and scores must have {players} entries",
        "fantan.inv_shared": "two seats hold the same card",
        "fantan.inv_held_laid": "a card is both held and on the layout",
        "fantan.inv_lost": "some cards are neither held nor on the layout",
        "fantan.inv_layout": "the layout is not the cards played this hand",
        "fantan.inv_passes": "the pass counts do not match this hand's passes",
        "fantan.inv_start_rank": "the starting rank should be {rank}",
        "fantan.inv_row": "a row of the layout is not a run from its starting card",
        "fantan.inv_dealer": "hand {hand} is dealt by another seat",
        "fantan.inv_deal": "the hands do not add up to the deal",
        "fantan.inv_leader": "the wrong seat leads this hand",
        "fantan.inv_hands": "the match has only {hands} hands",
        "fantan.inv_finished": "the match is over exactly when a seat has no cards",
        "fantan.inv_to_move": "seat {seat} should be to move",
        "fantan.inv_chips": "the chips in play do not add up",
        "fantan.inv_pool": "the pool should hold {chips} chips",
        "fantan.inv_pool_plain": "only chip scoring has a pool",
        "fantan.inv_negative": "scores cannot be negative",
        "fantan.inv_won": "{won} hands have been won, not {scores}",
        "fantan.inv_goes_on": "the match should go on to another hand",
        "fantan.inv_target": "the target was reached, so the match should be over",
        "fantan.inv_last_winner": "a later hand must name the previous hand's winner",
        "fantan.inv_first_winner": "the first hand has no previous winner",
    }
)


def invariant_violations(state: FanTanState) -> list[str]:
    """Every rule invariant ``state`` breaks (empty when all hold)."""
    config = state.config
    players = config.players
    problems: list[str] = []
    if not len(state.hands) == len(state.passes) == len(state.scores) == players:
        return [Refusal("fantan.inv_entries", players=players)]
    held = 0
    for hand in state.hands:
        if held & hand:
            problems.append(Refusal("fantan.inv_shared"))
        held |= hand
    if held & state.layout:
        problems.append(Refusal("fantan.inv_held_laid"))
    if held | state.layout != ALL_CARDS:
        problems.append(Refusal("fantan.inv_lost"))
    played = 0
    passes = [0] * players
    start_hands = list(state.hands)
    first_rank: int | None = None
    for seat, action in zip(
        history_seats(state.leader, players, len(state.history)), state.history, strict=True
    ):
        if isinstance(action, Pass):
            passes[seat] += 1
        else:
            played |= 1 << action.index
            start_hands[seat] |= 1 << action.index
            if first_rank is None:
                first_rank = CARDS[action.index].rank
    if played != state.layout:
        problems.append(Refusal("fantan.inv_layout"))
    if tuple(passes) != state.passes:
        problems.append(Refusal("fantan.inv_passes"))
    expected_rank = config.start_rank if config.start_rank is not None else first_rank
    if state.start_rank != expected_rank:
        wanted = "-" if expected_rank is None else rank_text(expected_rank)
        problems.append(Refusal("fantan.inv_start_rank", rank=wanted))
    if state.start_rank is not None and not is_valid_layout(
        state.layout, suit_table(state.start_rank, config.ace_high, config.up_before_down)
    ):
        problems.append(Refusal("fantan.inv_row"))
    if state.dealer != dealer_of(players, state.hand_number):
        problems.append(Refusal("fantan.inv_dealer", hand=state.hand_number + 1))
    if tuple(hand.bit_count() for hand in start_hands) != deal_sizes(players, state.dealer):
        problems.append(Refusal("fantan.inv_deal"))
    if state.leader != leader_of(config, state.dealer, start_hands):
        problems.append(Refusal("fantan.inv_leader"))
    if config.hands and state.hand_number >= config.hands:
        problems.append(Refusal("fantan.inv_hands", hands=config.hands))
    winner = hand_winner(state)
    if state.finished != (winner is not None):
        problems.append(Refusal("fantan.inv_finished"))
    expected_to_move = (state.leader + len(state.history) - (1 if state.finished else 0)) % players
    if state.to_move != expected_to_move:
        problems.append(Refusal("fantan.inv_to_move", seat=expected_to_move + 1))
    problems.extend(_score_problems(state))
    return problems


def _score_problems(state: FanTanState) -> list[Refusal]:
    config = state.config
    problems: list[Refusal] = []
    scores = state.scores
    if config.scoring is Scoring.CHIPS:
        if sum(scores) + state.pool != 0:
            problems.append(Refusal("fantan.inv_chips"))
        expected_pool = (
            0
            if state.finished
            else config.ante * config.players + config.pass_chips * sum(state.passes)
        )
        if state.pool != expected_pool:
            problems.append(Refusal("fantan.inv_pool", chips=expected_pool))
        before = [
            score + config.ante + config.pass_chips * passes
            for score, passes in zip(scores, state.passes, strict=True)
        ]
    else:
        if state.pool != 0:
            problems.append(Refusal("fantan.inv_pool_plain"))
        if any(score < 0 for score in scores):
            problems.append(Refusal("fantan.inv_negative"))
        before = list(scores)
        if config.scoring is Scoring.PLAIN:
            won = state.hand_number + (1 if state.finished else 0)
            if sum(scores) != won:
                problems.append(Refusal("fantan.inv_won", won=won, scores=sum(scores)))
    if state.finished and not is_match_over(config, state.hand_number, scores):
        problems.append(Refusal("fantan.inv_goes_on"))
    target = config.target
    if (
        not state.finished
        and state.hand_number > 0
        and target is not None
        and max(before) >= target
    ):
        problems.append(Refusal("fantan.inv_target"))
    if state.last_winner is None and state.hand_number > 0:
        problems.append(Refusal("fantan.inv_last_winner"))
    if state.last_winner is not None and state.hand_number == 0:
        problems.append(Refusal("fantan.inv_first_winner"))
    return problems
