"""The Fano variant configuration and presets.

Two editions share one engine: ``classic`` (rules text seeds/000_20e0e87f70a9328e.txt) and
``trionfey`` ("The battle for Trionfey", seeds/001_4b741ffe6572c987.txt).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Self

from fanfold.core.config import GameConfig, JSONObject, ranged
from fanfold.core.errors import ConfigError, Refusal, templates
from fanfold.core.game import Preset

#: The refusals of options that do not go together (:meth:`FanoConfig.validate`) and of the
#: renamed ``turn_limit``, worded in the terminal's and the page's language.
templates(
    {
        "fano.config_turn_limit_renamed": "option turn_limit (turns of all players together) was "
        "replaced by turns_per_player (each player's turns; the game ends drawn after "
        "turns_per_player * players turns): e.g. turn_limit=200 with 2 players is "
        "turns_per_player=100",
        "fano.config_turn_limit_both": "give turns_per_player only: turn_limit is its old name",
        "fano.config_turn_limit_uneven": "this config's turn_limit={limit} (turns of all players "
        "together, an earlier version's option) is not a whole number of turns for each of "
        "{players} players, which turns_per_player, its replacement, counts; give "
        "turns_per_player instead",
        "fano.config_two_suit_players": "the 2-suit variant is for exactly 2 players",
        "fano.config_two_suit_suits": "the 2-suit variant fixes the suits (red against black)",
        "fano.config_suits_letters": "suits names one suit letter (C, D, H, S) per seat: {count} "
        "letters, not {suits}",
        "fano.config_suits_own": "with up to four players each seat has its own suit",
        "fano.config_trionfey_variants": "the Trionfey edition has no 2-suit, Joker's wild or "
        "classic specials variants (its specials are the tribute specials: tribute=true)",
        "fano.config_trionfey_players": "the Trionfey edition is for {counts} players, not "
        "{players}",
        "fano.config_trionfey_teams": "Trionfey with 4, 6 or 8 players is played in two "
        "partnerships (teams=all-for-one or teams=one-for-all), and only then",
        "fano.config_trionfey_only": "tribute counters and partnerships belong to the Trionfey "
        "edition (edition=trionfey)",
        "fano.config_joker_prestige": "joker_prestige changes the classic Temporary Joker "
        "special: it needs the classic edition with specials (specials=suit or specials=choice)",
        "fano.config_oversum_tribute": "oversum_tribute changes what earns tribute counters: it "
        "needs the Trionfey tribute specials (edition=trionfey, tribute=true)",
    }
)


class Edition(enum.Enum):
    """Which rules text the engine follows.

    ``classic``: "How to play Fano". ``trionfey``: "The battle for Trionfey" (declared attacks
    with bluffs and the defender's counters, recruit, the 8-9-10 redraw, tribute specials,
    three-player target choice).
    """

    CLASSIC = "classic"
    TRIONFEY = "trionfey"


class Teams(enum.Enum):
    """Trionfey partnerships (4, 6 or 8 players; odd seats against even seats).

    ``none``: no partnerships (2 or 3 players). ``all-for-one``: partners take their turns
    together but each player wins alone. ``one-for-all``: a partnership shares one commander,
    promoted with an 8, 9 and 10 from any partners' fields.
    """

    NONE = "none"
    ALL_FOR_ONE = "all-for-one"
    ONE_FOR_ALL = "one-for-all"


class PromotionMode(enum.Enum):
    """What three prestige cards a promotion needs (2-suit game with all six prestige cards).

    ``easy``: any three prestige cards; ``intermediate``: an 8, a 9 and a 10 of any suits;
    ``hard``: an 8, a 9 and a 10 of one suit. With one suit per player all three read the same
    except ``easy``, which is only offered where duplicates exist.
    """

    EASY = "easy"
    INTERMEDIATE = "intermediate"
    HARD = "hard"


class SpecialsMode(enum.Enum):
    """Whether the once-per-promotion specials are in play, and who may use which.

    ``off``: no specials. ``suit``: each suit has its own special (hearts Reverse Fano, clubs
    Oversum, spades Temporary Joker, diamonds Perfect defense). ``choice``: every player may
    use any special, a different one at each commander level.
    """

    OFF = "off"
    SUIT = "suit"
    CHOICE = "choice"


class Special(enum.Enum):
    """The four classic specials."""

    REVERSE = "reverse"
    OVERSUM = "oversum"
    TEMP_JOKER = "joker"
    DEFENSE = "defend"


#: The special of each suit (index: clubs, diamonds, hearts, spades).
SUIT_SPECIALS: tuple[Special, ...] = (
    Special.OVERSUM,
    Special.DEFENSE,
    Special.REVERSE,
    Special.TEMP_JOKER,
)

MIN_PLAYERS = 2
MAX_PLAYERS = 8
#: The default turn limit per player: games between reasonable players almost never reach it
#: (``docs/rules/fano.md`` gives the measured rates).
TURNS_PER_PLAYER = 400
#: The most turns per player an option may set (25 times the default).
MAX_TURNS_PER_PLAYER = 10_000


def _refuse_renamed(options: Mapping[str, Any]) -> None:
    """Explain an option that was renamed: ``turn_limit`` counted all players' turns together."""
    if "turn_limit" in options:
        raise ConfigError(Refusal("fano.config_turn_limit_renamed"))


def _upgrade(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """A config written before ``turn_limit`` was replaced (records of earlier versions), in
    today's options: ``turn_limit`` turns in all become ``turn_limit / players`` turns each,
    the same last turn, so the game replays the same. A limit that is not a whole number of
    turns each cannot be written today and is refused, saying so."""
    if "turn_limit" not in data:
        return data
    limit, players = data["turn_limit"], data.get("players", 2)
    if "turns_per_player" in data:
        raise ConfigError(Refusal("fano.config_turn_limit_both"))
    if (
        isinstance(limit, int)
        and isinstance(players, int)
        and not isinstance(limit, bool)
        and players >= 1
        and limit >= players
        and limit % players == 0
    ):
        upgraded = {name: value for name, value in data.items() if name != "turn_limit"}
        upgraded["turns_per_player"] = limit // players
        return upgraded
    raise ConfigError(
        Refusal("fano.config_turn_limit_uneven", limit=repr(limit), players=repr(players))
    )


@dataclass(frozen=True)
class FanoConfig(GameConfig):
    """Variant options for Fano.

    Attributes:
        edition: the rules edition, ``classic`` or ``trionfey``.
        players: 2 to 8 (5 or more use a second deck: suits repeat).
        two_suit: the 2-suit 2-player game: red (hearts and diamonds) against black (spades
            and clubs), 20 cards each.
        all_prestige: in the 2-suit game, keep all six prestige cards (False removes the 8, 9
            and 10 of each player's second suit).
        promotion: what a promotion needs when a player has six prestige cards.
        jokers: Joker's wild: one wild joker in each player's deck.
        specials: the specials, once per commander level.
        oversum_prestige_only: Oversum may only produce a prestige card.
        joker_prestige: the classic Temporary Joker special may enter play as a prestige card
            (8, 9 or 10) by combination and count for a promotion (the rules text forbids it
            "to balance the specials"; a design question, off by default).
        mulligan: allow the optional all-prestige redraw in the draw phase.
        promotion_ends_main: promoting ends the main phase (only the end action is left).
        promotions_to_win: promotions that win the game (3: Jack, Queen, King, win), 1 to 9.
        turns_per_player: turns each player gets before the game ends drawn (the texts have no
            draw: a safety limit that games between reasonable players almost never reach;
            the table plays ``turns_per_player * players`` turns in all), 1 to 10,000.
        tribute: Trionfey specials: tribute counters buy each suit's special.
        oversum_tribute: with tribute counters, an Oversum combine that makes a prestige card
            earns a counter like any other combine (the Trionfey text gives none for it; a
            design question, off by default).
        teams: Trionfey partnerships for 4, 6 or 8 players.
        suits: the suit each seat commands, one letter per seat in turn order (``HD``: hearts
            against diamonds); empty for the usual order hearts, clubs, spades, diamonds.
    """

    edition: Edition = Edition.CLASSIC
    players: int = ranged(2, MIN_PLAYERS, MAX_PLAYERS, players_of="Fano")
    two_suit: bool = False
    all_prestige: bool = True
    promotion: PromotionMode = PromotionMode.INTERMEDIATE
    jokers: bool = False
    specials: SpecialsMode = SpecialsMode.OFF
    oversum_prestige_only: bool = False
    mulligan: bool = True
    promotion_ends_main: bool = False
    promotions_to_win: int = ranged(3, 1, 9)
    turns_per_player: int = ranged(TURNS_PER_PLAYER, 1, MAX_TURNS_PER_PLAYER)
    tribute: bool = False
    teams: Teams = Teams.NONE
    suits: str = ""
    joker_prestige: bool = False
    oversum_tribute: bool = False

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        return super().from_json(_upgrade(data))

    def to_json(self) -> JSONObject:
        """Every option, except the design options added later (:data:`LATER_OPTIONS`)
        while they are off: records and digests of games without them read as before."""
        data = super().to_json()
        for name in LATER_OPTIONS:
            if not data[name]:
                del data[name]
        return data

    def with_options(self, options: Mapping[str, str]) -> Self:
        _refuse_renamed({name.replace("-", "_"): text for name, text in options.items()})
        return super().with_options(options)

    @property
    def last_turn(self) -> int:
        """The last turn of the game, counting every player's turns: ``turns_per_player``
        rounds of the table."""
        return self.turns_per_player * self.players

    @property
    def trionfey(self) -> bool:
        """True for "The battle for Trionfey" edition."""
        return self.edition is Edition.TRIONFEY

    def validate(self) -> None:
        # players, promotions_to_win and turns_per_player: their ranges (declared above)
        if self.two_suit and self.players != 2:
            raise ConfigError(Refusal("fano.config_two_suit_players"))
        if self.suits:
            if self.two_suit:
                raise ConfigError(Refusal("fano.config_two_suit_suits"))
            if len(self.suits) != self.players or any(s not in "CDHS" for s in self.suits):
                shown = repr(self.suits)
                raise ConfigError(
                    Refusal("fano.config_suits_letters", count=self.players, suits=shown)
                )
            if self.players <= 4 and len(set(self.suits)) != self.players:
                raise ConfigError(Refusal("fano.config_suits_own"))
        if self.trionfey:
            if self.two_suit or self.jokers or self.specials is not SpecialsMode.OFF:
                raise ConfigError(Refusal("fano.config_trionfey_variants"))
            if self.players not in TRIONFEY_PLAYERS:
                counts = ", ".join(map(str, TRIONFEY_PLAYERS))
                raise ConfigError(
                    Refusal("fano.config_trionfey_players", counts=counts, players=self.players)
                )
            if (self.players in TEAM_PLAYERS) != (self.teams is not Teams.NONE):
                raise ConfigError(Refusal("fano.config_trionfey_teams"))
        elif self.tribute or self.teams is not Teams.NONE:
            raise ConfigError(Refusal("fano.config_trionfey_only"))
        if self.joker_prestige and (self.trionfey or self.specials is SpecialsMode.OFF):
            raise ConfigError(Refusal("fano.config_joker_prestige"))
        if self.oversum_tribute and not self.tribute:
            raise ConfigError(Refusal("fano.config_oversum_tribute"))

    def suits_of(self, seat: int) -> tuple[int, ...]:
        """The suits (0 clubs .. 3 spades) that ``seat`` commands."""
        if self.two_suit:
            return (2, 1) if seat == 0 else (3, 0)
        if self.suits:
            return ("CDHS".index(self.suits[seat]),)
        return (SEAT_SUITS[seat % 4],)

    @property
    def six_prestige(self) -> bool:
        """True when each player owns two of each prestige value."""
        return self.two_suit and self.all_prestige


#: Player counts of the Trionfey edition: 2, 3, and partnerships of 4, 6 or 8.
TRIONFEY_PLAYERS: tuple[int, ...] = (2, 3, 4, 6, 8)
#: Options added after records of the first version were written: a config leaves them out
#: of its JSON while they are off.
LATER_OPTIONS: tuple[str, ...] = ("joker_prestige", "oversum_tribute")

#: Trionfey player counts played in two partnerships.
TEAM_PLAYERS: tuple[int, ...] = (4, 6, 8)

#: The order seats take suits (as the rules text lists them): hearts, clubs, spades, diamonds.
SEAT_SUITS: tuple[int, ...] = (2, 0, 3, 1)

_ALL = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))

#: The Trionfey edition's standard game: two promotions win.
TRIONFEY = FanoConfig(edition=Edition.TRIONFEY, promotions_to_win=2)

PRESETS: tuple[Preset[FanoConfig], ...] = (
    Preset(
        "classic",
        FanoConfig(),
        "One suit each, each player attacks the next in turn order; 2 to 8 players",
        ("standard", "fano-classic"),
        _ALL,
    ),
    Preset(
        "four-players",
        FanoConfig(players=4),
        "One suit each, 4 players, each attacks the next player",
        ("4p",),
        _ALL,
    ),
    Preset(
        "eight-players",
        FanoConfig(players=8),
        "One suit each from two decks, 8 players",
        ("8p",),
        _ALL,
    ),
    Preset(
        "two-suit",
        FanoConfig(two_suit=True),
        "Red against black, all six prestige cards, intermediate promotion (8, 9, 10 any suits)",
        ("2-suit", "red-black", "two-suit-intermediate"),
        (2,),
    ),
    Preset(
        "two-suit-easy",
        FanoConfig(two_suit=True, promotion=PromotionMode.EASY),
        "Red against black, promote with any three prestige cards",
        (),
        (2,),
    ),
    Preset(
        "two-suit-hard",
        FanoConfig(two_suit=True, promotion=PromotionMode.HARD),
        "Red against black, promote with 8, 9 and 10 of one suit",
        (),
        (2,),
    ),
    Preset(
        "two-suit-three-prestige",
        FanoConfig(two_suit=True, all_prestige=False),
        "Red against black with the second suit's 8, 9 and 10 removed",
        ("two-suit-reduced",),
        (2,),
    ),
    Preset(
        "jokers-wild",
        FanoConfig(jokers=True),
        "Joker's wild: a wild joker in each deck",
        ("jokers",),
        _ALL,
    ),
    Preset(
        "specials",
        FanoConfig(specials=SpecialsMode.SUIT, players=4),
        "Specials by suit (hearts Reverse Fano, clubs Oversum, spades Temporary Joker, "
        "diamonds Perfect defense), once per promotion, 4 players",
        ("suit-specials",),
        _ALL,
    ),
    Preset(
        "specials-choice",
        FanoConfig(specials=SpecialsMode.CHOICE),
        "Any special once per promotion, chosen at will",
        ("choice-specials",),
        _ALL,
    ),
    Preset(
        "everything",
        FanoConfig(
            two_suit=True,
            jokers=True,
            specials=SpecialsMode.CHOICE,
            oversum_prestige_only=True,
        ),
        "Two suits, jokers wild and specials by choice (Oversum for prestige results only)",
        ("all-variants",),
        (2,),
    ),
    Preset(
        "trionfey",
        TRIONFEY,
        '"The battle for Trionfey": two promotions win (King), declared attacks and counters, '
        "recruit",
        ("battle-for-trionfey", "fano-trionfey"),
        TRIONFEY_PLAYERS,
    ),
    Preset(
        "trionfey-all-for-one",
        TRIONFEY.replace(players=4, teams=Teams.ALL_FOR_ONE),
        'Trionfey partnerships, "All for one": partners play their turns together in priority '
        "order, each wins alone (4, 6 or 8 players)",
        ("all-for-one",),
        TEAM_PLAYERS,
    ),
    Preset(
        "trionfey-one-for-all",
        TRIONFEY.replace(players=4, teams=Teams.ONE_FOR_ALL),
        'Trionfey partnerships, "One for all": one shared commander per partnership, '
        "promotions paid from several partners' fields (4, 6 or 8 players)",
        ("one-for-all",),
        TEAM_PLAYERS,
    ),
    Preset(
        "trionfey-specials",
        TRIONFEY.replace(tribute=True, suits="HD"),
        "Trionfey with tribute counters and the suit specials (Spades joker, Hearts Reverse "
        "Fano, Clubs Oversum, Diamonds face-down Perfect defense); hearts against diamonds",
        ("tribute", "trionfey-tribute"),
        TRIONFEY_PLAYERS,
    ),
    Preset(
        "trionfey-queen",
        TRIONFEY.replace(promotions_to_win=1),
        "Trionfey, the shorter game: stop at Queen (one promotion wins)",
        ("stop-at-queen",),
        TRIONFEY_PLAYERS,
    ),
    Preset(
        "trionfey-tournament",
        TRIONFEY.replace(promotions_to_win=3),
        "Trionfey, tournament game: three promotions win",
        ("tournament",),
        TRIONFEY_PLAYERS,
    ),
)
