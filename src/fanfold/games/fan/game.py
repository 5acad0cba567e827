"""Fan patience rules: state, actions, notation, views (rules text: seeds/004)."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from fanfold.core.cards import SUITS, Card, full_deck
from fanfold.core.config import GameConfig, JSONObject, JSONValue
from fanfold.core.errors import ConfigError, NotationError
from fanfold.core.game import Game, Outcome, Preset
from fanfold.games.fan.deals import deal_fans

#: Fans in a Fan layout: 17 of three cards and one of one.
NUM_FANS = 18
KING = 13
#: Foundation ranks as written in the position notation: ``-`` for an empty foundation.
FOUNDATION_LETTERS = "-A23456789TJQK"

Fans = tuple[tuple[Card, ...], ...]


@dataclass(frozen=True)
class FanConfig(GameConfig):
    """Variant options.

    Attributes:
        any_card_to_empty: any card may fill an empty fan (the rules text's relaxed house rule);
            by default only a king may.
        sequence_moves: a run of cards of one suit in descending order at the top of a fan
            moves as one unit (the other relaxed house rule); by default one card at a time.
    """

    any_card_to_empty: bool = False
    sequence_moves: bool = False


@dataclass(frozen=True, slots=True)
class FanMove:
    """Move the top ``count`` cards of fan ``source`` to fan ``target`` or the foundations.

    Fans are numbered 1..18; ``target`` is ``None`` for the foundations (one card at a time).
    """

    source: int
    target: int | None
    count: int = 1

    def __str__(self) -> str:
        target = "F" if self.target is None else str(self.target)
        suffix = f":{self.count}" if self.count != 1 else ""
        return f"{self.source}-{target}{suffix}"


@dataclass(frozen=True, slots=True)
class FanState:
    """A Fan position.

    Attributes:
        config: the variant.
        fans: the 18 fans, each a tuple of cards bottom to top (the last card is playable).
        foundations: the top rank on each foundation in suit order C, D, H, S (0 when empty).
        deal: the deal number the position came from (``None`` for a loaded position).
    """

    config: FanConfig
    fans: Fans
    foundations: tuple[int, int, int, int]
    deal: int | None = None

    @property
    def cards_on_foundations(self) -> int:
        """How many cards are home."""
        return sum(self.foundations)

    @property
    def is_won(self) -> bool:
        """True when every card is on its foundation."""
        return all(rank == KING for rank in self.foundations)


@dataclass(frozen=True)
class FanView:
    """Fan has no hidden information: the one seat sees the whole state."""

    player: int
    state: FanState

    def to_json(self) -> JSONObject:
        fans: list[JSONValue] = [[str(card) for card in fan] for fan in self.state.fans]
        foundations: dict[str, JSONValue] = {
            suit.value: rank for suit, rank in zip(SUITS, self.state.foundations, strict=True)
        }
        return {
            "player": self.player,
            "position": format_position(self.state),
            "fans": fans,
            "foundations": foundations,
            "deal": self.state.deal,
            "any_card_to_empty": self.state.config.any_card_to_empty,
            "sequence_moves": self.state.config.sequence_moves,
        }


# ---------------------------------------------------------------------- rules


def run_length(fan: Sequence[Card]) -> int:
    """How many cards at the top of ``fan`` form a run: one suit, each one rank below the last."""
    if not fan:
        return 0
    length = 1
    while length < len(fan):
        upper, lower = fan[-length], fan[-length - 1]
        if upper.suit is not lower.suit or upper.rank + 1 != lower.rank:
            break
        length += 1
    return length


def legal_moves(state: FanState) -> tuple[FanMove, ...]:
    """Every legal move, in a stable order: by source fan, foundation first, then by target."""
    if state.is_won:
        return ()
    config = state.config
    fans = state.fans
    moves: list[FanMove] = []
    for source, fan in enumerate(fans, start=1):
        if not fan:
            continue
        top = fan[-1]
        if state.foundations[top.suit.order] + 1 == top.rank:
            moves.append(FanMove(source, None))
        longest = run_length(fan) if config.sequence_moves else 1
        for count in range(1, longest + 1):
            head = fan[-count]
            for target, other in enumerate(fans, start=1):
                if target == source:
                    continue
                if other:
                    below = other[-1]
                    if below.suit is head.suit and below.rank == head.rank + 1:
                        moves.append(FanMove(source, target, count))
                elif count < len(fan) and (config.any_card_to_empty or head.rank == KING):
                    moves.append(FanMove(source, target, count))
    moves.sort(key=_move_order)
    return tuple(moves)


def _move_order(move: FanMove) -> tuple[int, int, int]:
    return (move.source, 0 if move.target is None else move.target, move.count)


def why_illegal(state: FanState, move: FanMove) -> str | None:
    """A sentence saying why ``move`` breaks a rule here, or ``None`` when it is legal."""
    if state.is_won:
        return "the game is over: every card is on its foundation"
    fans = state.fans
    for number in (move.source, move.target):
        if number is not None and not 1 <= number <= len(fans):
            return f"there is no fan {number}: the fans are numbered 1 to {len(fans)}"
    fan = fans[move.source - 1]
    if not fan:
        return f"fan {move.source} is empty"
    if move.count < 1:
        return "a move takes at least one card"
    if move.count > 1 and not state.config.sequence_moves:
        return "only one card moves at a time (sequence moves are a variant: --variant sequences)"
    if move.count > len(fan):
        return f"fan {move.source} holds only {len(fan)} card(s)"
    if move.count > run_length(fan):
        return (
            f"the top {move.count} cards of fan {move.source} are not one suit in descending "
            "order, so they cannot move together"
        )
    head = fan[-move.count]
    if move.target is None:
        if move.count != 1:
            return "cards go to the foundations one at a time"
        have = state.foundations[head.suit.order]
        if have + 1 != head.rank:
            needed = Card(have + 1, head.suit) if have < KING else None
            return (
                f"{head} cannot go to the foundations: the {head.suit.name.lower()} foundation "
                f"needs {needed} next"
            )
        return None
    if move.target == move.source:
        return "a card must move to another fan"
    target = fans[move.target - 1]
    if target:
        below = target[-1]
        if below.suit is not head.suit or below.rank != head.rank + 1:
            return f"{head} cannot go on {below}: fans are built down by suit"
        return None
    if not state.config.any_card_to_empty and head.rank != KING:
        return f"only a king may fill an empty fan, and {head} is not a king"
    if move.count == len(fan):
        return f"fan {move.source} would just move to another empty fan: that changes nothing"
    return None


def apply_move(state: FanState, move: FanMove) -> FanState:
    """The position after a legal move (not checked)."""
    fans = list(state.fans)
    source = fans[move.source - 1]
    moving = source[-move.count :]
    fans[move.source - 1] = source[: -move.count]
    foundations = state.foundations
    if move.target is None:
        card = moving[0]
        as_list = list(foundations)
        as_list[card.suit.order] = card.rank
        foundations = (as_list[0], as_list[1], as_list[2], as_list[3])
    else:
        fans[move.target - 1] = fans[move.target - 1] + moving
    return FanState(state.config, tuple(fans), foundations, state.deal)


# ------------------------------------------------------------------- notation

_MOVE = re.compile(r"^\s*(\d{1,2})\s*(?:-|>|->|\s)\s*(\d{1,2}|[fF])\s*(?::\s*(\d{1,2}))?\s*$")


def parse_move(text: str) -> FanMove:
    """Read ``3-7`` (fan 3 onto fan 7), ``3-F`` (to the foundations) or ``3-7:2`` (two cards)."""
    match = _MOVE.match(text)
    if not match:
        raise NotationError(
            f"{text!r} is not a Fan move: write source fan, '-', and a target fan or F for the "
            "foundations, e.g. 3-7 or 12-F (3-7:2 moves two cards where sequences may move)"
        )
    source = int(match.group(1))
    target = None if match.group(2) in "fF" else int(match.group(2))
    count = int(match.group(3)) if match.group(3) else 1
    for number in (source, target):
        if number is not None and not 1 <= number <= NUM_FANS:
            raise NotationError(f"there is no fan {number}: the fans are numbered 1 to {NUM_FANS}")
    if source == target:
        raise NotationError("a move goes from one fan to another")
    if count < 1:
        raise NotationError("a move takes at least one card")
    if target is None and count != 1:
        raise NotationError("cards go to the foundations one at a time")
    return FanMove(source, target, count)


def format_position(state: FanState) -> str:
    """The one-line position: fans bottom to top joined by ``/`` (``-`` for an empty fan),
    then the top rank of the C, D, H and S foundations (``-`` for none), e.g.
    ``4C2C4S/3D7CAD/.../3H ----``."""
    fans = "/".join("".join(str(card) for card in fan) or "-" for fan in state.fans)
    home = "".join(FOUNDATION_LETTERS[rank] for rank in state.foundations)
    return f"{fans} {home}"


def parse_position(text: str, config: FanConfig) -> FanState:
    """Read the one-line position notation (see :func:`format_position`)."""
    parts = text.split()
    if len(parts) < 2:
        raise NotationError(
            f"{text!r} is not a Fan position: write the 18 fans bottom to top joined by '/' "
            "('-' for an empty fan), a space, then the C, D, H, S foundation ranks ('-' for "
            "none), e.g. '4C2C4S/3D7CAD/.../3H ----'"
        )
    home_text = parts[-1]
    fans_text = "".join(parts[:-1])
    if len(home_text) != 4 or any(letter not in FOUNDATION_LETTERS for letter in home_text):
        raise NotationError(
            f"{home_text!r} is not four foundation ranks: one of -A23456789TJQK for each of "
            "C, D, H and S"
        )
    foundations = tuple(FOUNDATION_LETTERS.index(letter) for letter in home_text)
    fan_texts = fans_text.split("/")
    if len(fan_texts) != NUM_FANS:
        raise NotationError(f"a Fan position has {NUM_FANS} fans, not {len(fan_texts)}")
    fans: list[tuple[Card, ...]] = []
    for number, fan_text in enumerate(fan_texts, start=1):
        if fan_text == "-":
            fans.append(())
            continue
        if not fan_text or len(fan_text) % 2:
            raise NotationError(
                f"fan {number} ({fan_text!r}) must be cards of two characters each, such as "
                "4C2C4S, or '-' when empty"
            )
        fans.append(tuple(Card.parse(fan_text[i : i + 2]) for i in range(0, len(fan_text), 2)))
    return make_state(
        config, fans, (foundations[0], foundations[1], foundations[2], foundations[3])
    )


def make_state(
    config: FanConfig,
    fans: Sequence[Sequence[Card]],
    foundations: tuple[int, int, int, int] = (0, 0, 0, 0),
    deal: int | None = None,
) -> FanState:
    """A checked position: every card exactly once, either in a fan or on its foundation.

    Raises:
        NotationError: when a card is missing or appears twice.
    """
    if len(fans) != NUM_FANS:
        raise NotationError(f"a Fan position has {NUM_FANS} fans, not {len(fans)}")
    seen: set[Card] = set()
    for fan in fans:
        for card in fan:
            if card in seen:
                raise NotationError(f"{card} appears twice")
            seen.add(card)
    for suit, rank in zip(SUITS, foundations, strict=True):
        if not 0 <= rank <= KING:
            raise NotationError(f"foundation rank {rank} is out of range 0..13")
        for home in range(1, rank + 1):
            card = Card(home, suit)
            if card in seen:
                raise NotationError(f"{card} is both in a fan and on its foundation")
            seen.add(card)
    missing = [str(card) for card in full_deck() if card not in seen]
    if missing:
        raise NotationError("the position lacks " + " ".join(missing))
    return FanState(config, tuple(tuple(fan) for fan in fans), foundations, deal)


def render_state(state: FanState) -> str:
    """The layout as text: the foundations, then each fan bottom to top."""
    home = "  ".join(
        f"{suit.symbol} {FOUNDATION_LETTERS[rank]}"
        for suit, rank in zip(SUITS, state.foundations, strict=True)
    )
    lines = [f"Foundations: {home}"]
    for number, fan in enumerate(state.fans, start=1):
        cards = " ".join(str(card) for card in fan) if fan else "(empty)"
        lines.append(f"{number:2d}: {cards}")
    lines.append(f"position: {format_position(state)}")
    return "\n".join(lines)


# ----------------------------------------------------------------------- game


class FanGame(Game[FanConfig, FanState, FanMove, FanView]):
    """The Fan patience rules engine."""

    id: ClassVar[str] = "fan.v1"
    title: ClassVar[str] = "Fan"
    summary: ClassVar[str] = "patience with 18 fans built down by suit; 1 player, open deal"
    config_type: ClassVar[type[GameConfig]] = FanConfig

    def presets(self) -> Sequence[Preset[FanConfig]]:
        return _PRESETS

    def num_players(self, config: FanConfig) -> int:
        return 1

    def seat_name(self, config: FanConfig, seat: int) -> str:
        return "Player"

    def new_state(self, config: FanConfig, seed: int = 0) -> FanState:
        if seed < 0:
            raise ConfigError(f"deal numbers are 0 or more, not {seed}")
        return make_state(config, deal_fans(seed), deal=seed)

    def config_of(self, state: FanState) -> FanConfig:
        return state.config

    def current_player(self, state: FanState) -> int | None:
        return 0 if legal_moves(state) else None

    def legal_actions(self, state: FanState) -> Sequence[FanMove]:
        return legal_moves(state)

    def is_legal(self, state: FanState, action: FanMove) -> bool:
        return isinstance(action, FanMove) and why_illegal(state, action) is None

    def explain_illegal(self, state: FanState, action: FanMove) -> str:
        reason = why_illegal(state, action)
        if reason is None:
            return f"{action} is legal here"
        if not state.is_won and not legal_moves(state):
            return f"the game is over (no legal move is left): {reason}"
        return reason

    def apply_legal(self, state: FanState, action: FanMove) -> FanState:
        return apply_move(state, action)

    def outcome(self, state: FanState) -> Outcome | None:
        if state.is_won:
            return Outcome("won: all 52 cards are on the foundations", (1.0,))
        if not legal_moves(state):
            return Outcome(
                f"lost: no legal move is left with {state.cards_on_foundations} of 52 cards "
                "on the foundations",
                (0.0,),
            )
        return None

    def describe(self, state: FanState) -> str:
        outcome = self.outcome(state)
        if outcome is not None:
            return f"Game over: {outcome.reason}"
        deal = f"deal {state.deal}, " if state.deal is not None else ""
        return (
            f"Fan, {deal}{state.cards_on_foundations} of 52 cards on the foundations, "
            f"{len(legal_moves(state))} legal moves"
        )

    # ------------------------------------------------------------------ notation
    def parse_action(self, text: str) -> FanMove:
        return parse_move(text)

    def notation_help(self) -> str:
        return (
            "Fans are numbered 1 to 18; only the top (rightmost) card of a fan moves.\n"
            "Move the top card of fan 3 onto fan 7: 3-7. To its foundation: 3-F.\n"
            "Fans build down by suit (7S on 8S); only a king fills an empty fan unless the "
            "variant says any card.\nWhere sequences may move, 3-7:2 moves the top two cards "
            "of fan 3 together."
        )

    def format_position(self, state: FanState) -> str:
        return format_position(state)

    def parse_position(self, text: str, config: FanConfig | None = None) -> FanState:
        return parse_position(text, config or self.default_config())

    # ---------------------------------------------------------------- views
    def observe(self, state: FanState, player: int) -> FanView:
        return FanView(player, state)

    def sample_state(self, view: FanView, rng: random.Random) -> FanState:
        return view.state

    def render(self, view: FanView) -> str:
        return render_state(view.state)

    def invariant_violations(self, state: FanState) -> list[str]:
        try:
            make_state(state.config, state.fans, state.foundations)
        except NotationError as error:
            return [str(error)]
        return []


_PRESETS: tuple[Preset[FanConfig], ...] = (
    Preset(
        "classic",
        FanConfig(),
        "one card at a time; only a king fills an empty fan",
        aliases=("standard", "default"),
        player_counts=(1,),
    ),
    Preset(
        "any-to-empty",
        FanConfig(any_card_to_empty=True),
        "relaxed: any card may fill an empty fan",
        aliases=("any-card-to-empty", "relaxed-empty"),
        player_counts=(1,),
    ),
    Preset(
        "sequences",
        FanConfig(sequence_moves=True),
        "relaxed: runs of one suit in descending order move as a unit",
        aliases=("sequence-moves", "relaxed-sequences"),
        player_counts=(1,),
    ),
    Preset(
        "relaxed",
        FanConfig(any_card_to_empty=True, sequence_moves=True),
        "both relaxed rules: any card fills an empty fan and runs move as a unit",
        aliases=("relaxed-both",),
        player_counts=(1,),
    ),
)
