"""Fan Tan variant configuration and presets (rules text: seeds/003)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from fanfold.core.cards import Card
from fanfold.core.config import GameConfig, ranged
from fanfold.core.errors import ConfigError, NotationError, Refusal, reason_of, templates
from fanfold.core.game import Preset

#: The refusals of options that do not go together (:meth:`FanTanConfig.validate`), worded in
#: the terminal's and the page's language.
templates(
    {
        "fantan.config_opening_card": "opening_card: {reason}",
        "fantan.config_opening_written": "write the opening card as {card}, not {given}",
        "fantan.config_opening_no_rank": "an opening card fixes the starting rank, so it cannot "
        "be combined with the first player's choice of rank (start_rank=none)",
        "fantan.config_opening_rank": "the opening card {card} cannot start a row: rows start "
        "with rank {rank}",
        "fantan.config_chips_only": "{name} only applies to chip scoring (scoring=chips)",
        "fantan.config_no_limit_target": "a match with no hand limit (hands=0) needs a target",
        "fantan.config_chips_hands": "a chip match needs a number of hands: net chips can go up "
        "and down forever",
        "fantan.config_target_one_hand": "a target only makes sense in a match of more than one "
        "hand",
    }
)

MIN_PLAYERS = 3
MAX_PLAYERS = 8
#: The most chips an ante, a pass or a card left in hand may cost.
MAX_CHIPS = 100
#: The most hands a match may last, and the highest target it may set.
MAX_HANDS, MAX_TARGET = 1000, 10_000


class Scoring(enum.Enum):
    """How a hand is scored.

    * ``plain``: the first player out wins the hand; in a match, hands won are counted.
    * ``chips``: everyone antes to a pool, a pass pays into it, and the winner takes the pool
      plus chips for every card left in each opponent's hand.
    * ``penalty``: when one player goes out, every other player scores penalty points for the
      cards they still hold, at face value (aces 1, pictures 10); fewer is better.
    """

    PLAIN = "plain"
    CHIPS = "chips"
    PENALTY = "penalty"


@dataclass(frozen=True)
class FanTanConfig(GameConfig):
    """Variant options for Fan Tan.

    Attributes:
        players: 3 to 8 seats.
        ace_high: the ace ranks above the king (the standard game); false puts it below the 2.
        start_rank: the rank that starts every suit's row (7 in the standard game, 10 in Ten
            Titans, 1 for an ace, 11-13 for pictures); ``None`` lets the first player choose it
            by playing any card (the French Domino), and every other suit must start with that
            rank.
        opening_card: a card (``7D``, ``7H``) whose holder leads the hand and must play it as
            the first card; ``None`` has the player to the dealer's left lead.
        up_before_down: a row must gain the card above its starting card before the card
            below (the 8 of a suit before its 6, as in the online Sevens).
        scoring: ``plain``, ``chips`` or ``penalty`` (see :class:`Scoring`).
        ante: chips each player pays to the pool before a hand (chip scoring only), 0 to 100.
        pass_chips: chips a player pays to the pool for each pass (chip scoring only), 0 to
            100.
        card_chips: chips the winner collects from each opponent per card left in their hand
            (chip scoring only), 0 to 100.
        hands: how many hands the match lasts at most, 1 to 1,000; 0 means no limit (a target
            is then needed).
        target: ends the match after the hand in which some player reaches it: hands won
            (plain), net chips won (chips) or penalty points (penalty), 1 to 10,000; ``None``
            for no target.
    """

    players: int = ranged(4, MIN_PLAYERS, MAX_PLAYERS, players_of="Fan Tan")
    ace_high: bool = True
    start_rank: int | None = ranged(7, 1, 13)
    opening_card: str | None = None
    up_before_down: bool = False
    scoring: Scoring = Scoring.PLAIN
    ante: int = ranged(1, 0, MAX_CHIPS)
    pass_chips: int = ranged(1, 0, MAX_CHIPS)
    card_chips: int = ranged(1, 0, MAX_CHIPS)
    hands: int = ranged(1, 0, MAX_HANDS)
    target: int | None = ranged(None, 1, MAX_TARGET)

    def validate(self) -> None:
        """Refuse combinations that make no sense (each number's range is declared above)."""
        if self.opening_card is not None:
            try:
                card = Card.parse(self.opening_card)
            except NotationError as error:
                raise ConfigError(
                    Refusal("fantan.config_opening_card", reason=reason_of(error))
                ) from None
            if str(card) != self.opening_card:
                written, given = repr(str(card)), repr(self.opening_card)
                raise ConfigError(
                    Refusal("fantan.config_opening_written", card=written, given=given)
                )
            if self.start_rank is None:
                raise ConfigError(Refusal("fantan.config_opening_no_rank"))
            if card.rank != self.start_rank:
                raise ConfigError(
                    Refusal("fantan.config_opening_rank", card=str(card), rank=self.start_rank)
                )
        for name in ("ante", "pass_chips", "card_chips"):
            if self.scoring is not Scoring.CHIPS and getattr(self, name) != 1:
                raise ConfigError(Refusal("fantan.config_chips_only", name=name))
        if self.hands == 0 and self.target is None:
            raise ConfigError(Refusal("fantan.config_no_limit_target"))
        if self.hands == 0 and self.scoring is Scoring.CHIPS:
            raise ConfigError(Refusal("fantan.config_chips_hands"))
        if self.hands == 1 and self.target is not None:
            raise ConfigError(Refusal("fantan.config_target_one_hand"))

    @property
    def opening(self) -> Card | None:
        """The opening card, parsed."""
        return None if self.opening_card is None else Card.parse(self.opening_card)

    @property
    def is_match(self) -> bool:
        """True when more than one hand may be played."""
        return self.hands != 1


#: The named variants, the default first.
PRESETS: tuple[Preset[FanTanConfig], ...] = (
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
