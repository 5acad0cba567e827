"""The Fan Tan rules engine (rules text: seeds/003)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from fanfold.core.cards import Card, rank_text
from fanfold.core.config import GameConfig
from fanfold.core.errors import NotationError
from fanfold.core.game import Game, Outcome, Preset
from fanfold.core.rng import derive_rng
from fanfold.games.fantan.config import FanTanConfig, Scoring
from fanfold.games.fantan.layout import (
    ALL_CARDS,
    CARDS,
    cards_of,
    face_points,
    indices_of,
    playable_cards,
    rank_order,
    row_ranks,
    suit_table,
)
from fanfold.games.fantan.state import (
    PASS,
    PLAYS,
    FanTanAction,
    FanTanState,
    FanTanView,
    Pass,
)

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


def is_match_over(config: FanTanConfig, hand_number: int, scores: Sequence[int]) -> bool:
    """Whether the match ends after hand ``hand_number`` with these scores."""
    if config.hands and hand_number + 1 >= config.hands:
        return True
    return config.target is not None and max(scores) >= config.target


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


def hand_winner(state: FanTanState) -> int | None:
    """The seat with no cards left, if any."""
    for seat, hand in enumerate(state.hands):
        if not hand:
            return seat
    return None


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


def _scores_text(scores: Sequence[int]) -> str:
    return ",".join(str(score) for score in scores)


def _hand_text(mask: int) -> str:
    return " ".join(str(card) for card in cards_of(mask)) or "-"


_PRESETS: tuple[Preset[FanTanConfig], ...] = (
    Preset(
        "standard",
        FanTanConfig(),
        "one hand: sevens start the rows, ace high, the first player out wins",
        aliases=("fan-tan", "sevens", "parliament", "default"),
        player_counts=tuple(range(3, 9)),
    ),
    Preset(
        "chips",
        FanTanConfig(scoring=Scoring.CHIPS),
        "chip pool: everyone antes a chip, a pass pays a chip, the winner takes the pool and "
        "a chip per card left in each opponent's hand",
        aliases=("chip-pool", "pool"),
        player_counts=tuple(range(3, 9)),
    ),
    Preset(
        "seven-of-diamonds",
        FanTanConfig(opening_card="7D"),
        "the holder of the seven of diamonds opens with it",
        aliases=("7d", "7d-opens"),
        player_counts=tuple(range(3, 9)),
    ),
    Preset(
        "ace-low",
        FanTanConfig(ace_high=False),
        "the ace ranks below the 2, so the rows run from ace to king",
        aliases=("ace-below-two",),
        player_counts=tuple(range(3, 9)),
    ),
    Preset(
        "sevens-online",
        FanTanConfig(opening_card="7H", up_before_down=True, scoring=Scoring.PENALTY),
        "the online Sevens: seven of hearts first, each suit's 8 before its 6, penalty points "
        "at face value (aces 1, pictures 10) for the others when one goes out",
        aliases=("online", "fwend"),
        player_counts=tuple(range(3, 9)),
    ),
    Preset(
        "domino",
        FanTanConfig(start_rank=None),
        "the French Domino: the first player opens with a rank of their choice and every "
        "suit's row must start with that rank",
        aliases=("french", "chosen-rank"),
        player_counts=tuple(range(3, 9)),
    ),
    Preset(
        "ten-titans",
        FanTanConfig(start_rank=10, scoring=Scoring.PENALTY),
        "Ten Titans: every suit starts at the ten; when one goes out the others score "
        "penalty points for the cards they hold",
        aliases=("titans", "tens"),
        player_counts=tuple(range(3, 9)),
    ),
    Preset(
        "chips-match",
        FanTanConfig(scoring=Scoring.CHIPS, hands=4),
        "a match of four hands with a chip pool; net chips decide it",
        aliases=("chip-match",),
        player_counts=tuple(range(3, 9)),
    ),
    Preset(
        "sevens-match",
        FanTanConfig(
            opening_card="7H", up_before_down=True, scoring=Scoring.PENALTY, hands=0, target=100
        ),
        "online Sevens played as a match until someone has 100 penalty points; the fewest "
        "points wins",
        aliases=("penalty-match", "sevens-100"),
        player_counts=tuple(range(3, 9)),
    ),
)


class FanTanGame(Game[FanTanConfig, FanTanState, FanTanAction, FanTanView]):
    """The Fan Tan rules engine: one hand, or a match of hands, of any variant."""

    id: ClassVar[str] = "fantan.v1"
    title: ClassVar[str] = "Fan Tan"
    summary: ClassVar[str] = "Sevens and its variants (seeds/003); 3-8 players, hidden hands"
    config_type: ClassVar[type[GameConfig]] = FanTanConfig
    has_hidden_information: ClassVar[bool] = True

    def presets(self) -> Sequence[Preset[FanTanConfig]]:
        return _PRESETS

    def num_players(self, config: FanTanConfig) -> int:
        return config.players

    def with_players(self, config: FanTanConfig, players: int) -> FanTanConfig:
        return config.replace(players=players)

    # ------------------------------------------------------------------ playing
    def new_state(self, config: FanTanConfig, seed: int = 0) -> FanTanState:
        return start_hand(config, seed, 0, (0,) * config.players, None)

    def config_of(self, state: FanTanState) -> FanTanConfig:
        return state.config

    def current_player(self, state: FanTanState) -> int | None:
        return None if state.finished else state.to_move

    def legal_actions(self, state: FanTanState) -> Sequence[FanTanAction]:
        if state.finished:
            return ()
        playable = state.hands[state.to_move] & state_playable(state)
        if not playable:
            return (PASS,)
        return tuple(PLAYS[index] for index in indices_of(playable))

    def is_legal(self, state: FanTanState, action: FanTanAction) -> bool:
        if state.finished:
            return False
        playable = state.hands[state.to_move] & state_playable(state)
        if isinstance(action, Pass):
            return not playable
        return bool(playable >> action.index & 1)

    def explain_illegal(self, state: FanTanState, action: FanTanAction) -> str:
        outcome = self.outcome(state)
        if outcome is not None:
            return f"the game is over ({outcome.reason})"
        hand = state.hands[state.to_move]
        playable = hand & state_playable(state)
        if isinstance(action, Pass):
            options = " ".join(str(card) for card in cards_of(playable))
            return f"you may not pass while you can play a card: you can play {options}"
        card = CARDS[action.index]
        if not hand >> action.index & 1:
            if state.layout >> action.index & 1:
                return f"{card} is already on the layout"
            return f"you do not hold {card}"
        config = state.config
        if not state.history and config.opening is not None:
            return f"the first card of the hand must be the {config.opening}"
        if state.start_rank is None:
            return f"{card} cannot be played now"
        order = rank_order(config.ace_high)
        start = rank_text(state.start_rank)
        row = row_ranks(state.layout, card.suit.order, config.ace_high)
        if not row:
            return f"the {card.suit.name.lower()} row must start with its {start}"
        position = order.index(card.rank)
        if config.up_before_down and row[-1] == state.start_rank and position < order.index(row[0]):
            above = order[order.index(state.start_rank) + 1]
            return (
                f"{card} cannot be played yet: the {card.suit.name.lower()} row must gain its "
                f"{rank_text(above)} before it can go down"
            )
        ends = " and ".join(
            rank_text(rank) + card.suit.value for rank in self._row_ends(row, order)
        )
        return (
            f"{card} cannot be played: it must be next to the end of the "
            f"{card.suit.name.lower()} row" + (f" (playable there: {ends})" if ends else "")
        )

    @staticmethod
    def _row_ends(row: list[int], order: tuple[int, ...]) -> list[int]:
        low, high = order.index(row[0]), order.index(row[-1])
        ends = []
        if low > 0:
            ends.append(order[low - 1])
        if high + 1 < len(order):
            ends.append(order[high + 1])
        return ends

    def apply_legal(self, state: FanTanState, action: FanTanAction) -> FanTanState:
        player = state.to_move
        moved = step(state, action)
        if not moved.hands[player]:
            return finish_hand(moved, player)
        return moved

    def outcome(self, state: FanTanState) -> Outcome | None:
        if not state.finished:
            return None
        config = state.config
        players = config.players
        scores = state.scores
        winner = hand_winner(state)
        out = f"{self.seat_name(config, winner)} went out" if winner is not None else "the end"
        names = [self.seat_name(config, seat) for seat in range(players)]
        if config.scoring is Scoring.PLAIN:
            best = max(scores)
            if all(score == best for score in scores):
                returns = (0.0,) * players
            else:
                returns = tuple(1.0 if score == best else -1.0 for score in scores)
            if not config.is_match:
                return Outcome(f"{out} first and wins the hand", returns)
            tops = [names[seat] for seat in range(players) if scores[seat] == best]
            return Outcome(
                f"{out}; after {state.hand_number + 1} hands "
                f"{' and '.join(tops)} won the most hands ({best})",
                returns,
            )
        if config.scoring is Scoring.CHIPS:
            table = ", ".join(f"{names[seat]} {scores[seat]:+d}" for seat in range(players))
            what = "the hand" if not config.is_match else f"{state.hand_number + 1} hands"
            return Outcome(f"{out}; net chips after {what}: {table}", tuple(map(float, scores)))
        table = ", ".join(f"{names[seat]} {scores[seat]}" for seat in range(players))
        what = "the hand" if not config.is_match else f"{state.hand_number + 1} hands"
        return Outcome(
            f"{out}; penalty points after {what}: {table}",
            tuple(-float(score) for score in scores),
        )

    # ----------------------------------------------------------------- notation
    def parse_action(self, text: str) -> FanTanAction:
        key = text.strip().lower()
        if key in ("pass", "p", "knock"):
            return PASS
        try:
            return PLAYS[Card.parse(text).index]
        except NotationError:
            raise NotationError(
                f"{text!r} is not a Fan Tan move: write a card, rank then suit (7D, TH or 10H, "
                "AS), or 'pass'"
            ) from None

    def notation_help(self) -> str:
        return (
            "Play a card by writing it rank then suit: 7D (seven of diamonds), TH or 10H, QS, "
            "AC. Ranks A 2-9 T J Q K, suits C D H S.\n"
            "Write 'pass' (or 'knock') when you cannot play; you may not pass while you hold a "
            "playable card.\n"
            "Playable: a card of the starting rank (7 unless the variant says otherwise) starts "
            "its suit's row; any other card must be next in rank to an end of its suit's row."
        )

    def format_position(self, state: FanTanState) -> str:
        header = (
            f"hand={state.hand_number + 1} leader={state.leader + 1} "
            f"scores={_scores_text(state.scores)} pool={state.pool} "
            f"last={'-' if state.last_winner is None else state.last_winner + 1} "
            f"seed={state.seed}"
        )
        hands = " / ".join(_hand_text(hand) for hand in state.hands)
        history = " ".join(str(action) for action in state.history) or "-"
        return f"{header} | {hands} | {history}"

    def parse_position(self, text: str, config: FanTanConfig | None = None) -> FanTanState:
        from fanfold.games.fantan.notation import parse_position

        return parse_position(self, text, config)

    # ------------------------------------------------------ hidden information
    def observe(self, state: FanTanState, player: int) -> FanTanView:
        return FanTanView(
            player=player,
            config=state.config,
            hand_number=state.hand_number,
            dealer=state.dealer,
            leader=state.leader,
            to_move=None if state.finished else state.to_move,
            hand=state.hands[player],
            hand_counts=tuple(hand.bit_count() for hand in state.hands),
            layout=state.layout,
            start_rank=state.start_rank,
            history=state.history,
            passes=state.passes,
            scores=state.scores,
            pool=state.pool,
            last_winner=state.last_winner,
            revealed=state.hands if state.finished else None,
        )

    def sample_state(self, view: FanTanView, rng: random.Random) -> FanTanState:
        from fanfold.games.fantan.sampling import sample_hands

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

    # --------------------------------------------------------------- rendering
    def render(self, view: FanTanView) -> str:
        from fanfold.games.fantan.text import render_view

        return render_view(self, view)

    def describe(self, state: FanTanState) -> str:
        outcome = self.outcome(state)
        if outcome is not None:
            return f"Game over: {outcome.reason}"
        config = state.config
        name = self.seat_name(config, state.to_move)
        hand = f"hand {state.hand_number + 1}" + (f" of {config.hands}" if config.hands > 1 else "")
        if not state.history and config.opening is not None:
            return f"{name} holds the {config.opening} and must open with it ({hand})"
        if state.start_rank is None:
            return f"{name} to open with a card of any rank; every row will start with it ({hand})"
        can_play = self.legal_actions(state)[0] != PASS
        return f"{name} to {'play' if can_play else 'pass (no playable card)'} ({hand})"

    # ---------------------------------------------------------------- testing
    def invariant_violations(self, state: FanTanState) -> list[str]:
        from fanfold.games.fantan.notation import state_problems

        return state_problems(state)


def _last_actor(view: FanTanView) -> int:
    return (view.leader + len(view.history) - 1) % view.config.players
