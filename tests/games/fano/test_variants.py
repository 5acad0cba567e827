"""Fano variants: multiplayer, 2-suit, Joker's wild and the four specials."""

from __future__ import annotations

import pytest

from fanfold.core.errors import ConfigError, IllegalActionError
from fanfold.core.registry import get_game
from fanfold.games.fano import (
    Attack,
    Combine,
    Defend,
    FanoConfig,
    FanoState,
    Phase,
    PromotionMode,
    Special,
    SpecialsMode,
)
from fanfold.games.fano.cards import TEMP_JOKER, WILD_JOKER, parse_card
from fanfold.games.fano.game import FanoGame
from fanfold.games.fano.rules import deck_of
from tests.games.fano.helpers import cards, legal_texts, play

GAME = get_game("fano")
assert isinstance(GAME, FanoGame)
FANO: FanoGame = GAME

TWO_SUIT = FanoConfig(two_suit=True)
JOKERS = FanoConfig(jokers=True)
CHOICE = FanoConfig(specials=SpecialsMode.CHOICE)
SUIT = FanoConfig(specials=SpecialsMode.SUIT)


def setup(text: str, config: FanoConfig) -> FanoState:
    return FANO.parse_position(text, config)


# ----------------------------------------------------------------------------- players
def test_player_counts_and_second_deck() -> None:
    assert FANO.with_players(FanoConfig(), 8).players == 8
    with pytest.raises(ConfigError):
        FanoConfig(players=9)
    with pytest.raises(ConfigError):
        FANO.with_players(TWO_SUIT, 3)
    eight = FanoConfig(players=8)
    assert deck_of(eight, 0) == deck_of(eight, 4)  # the second deck repeats the suits
    assert len({deck_of(eight, seat) for seat in range(4)}) == 4


def test_multiplayer_attacks_only_the_next_player() -> None:
    config = FanoConfig(players=4)
    state = setup("fano player=2 | field=6H | hand=3C field=4C | field=6S | field=6D", config)
    attacks = [str(a) for a in FANO.legal_actions(state) if isinstance(a, Attack)]
    assert attacks == ["4C>6S:3C"]


# ------------------------------------------------------------------------------ 2-suit
def test_two_suit_decks_are_red_against_black() -> None:
    assert len(deck_of(TWO_SUIT, 0)) == 20
    red = {card & 15 for card in deck_of(TWO_SUIT, 0)}
    black = {card & 15 for card in deck_of(TWO_SUIT, 1)}
    assert red == {1, 2}  # diamonds, hearts
    assert black == {0, 3}  # clubs, spades
    reduced = FanoConfig(two_suit=True, all_prestige=False)
    assert len(deck_of(reduced, 0)) == 17
    assert [card >> 4 for card in deck_of(reduced, 0)].count(8) == 1


def test_same_value_combination() -> None:
    state = setup("fano player=1 | hand=8H field=4H,4D | -", TWO_SUIT)
    assert "4D+4H=8H" in legal_texts(state)
    after = play(state, "4H+4D=8H return 4D")
    assert after.players[0].field == cards("8H")
    assert after.players[0].hand == cards("4D")


def test_same_values_do_not_attack_each_other() -> None:
    state = setup("fano player=1 | hand=3H field=4H | field=4S", TWO_SUIT)
    assert not any(isinstance(a, Attack) for a in FANO.legal_actions(state))


@pytest.mark.parametrize(
    ("mode", "field", "allowed"),
    [
        (PromotionMode.EASY, "8H,8D,TH", True),
        (PromotionMode.INTERMEDIATE, "8H,8D,TH", False),
        (PromotionMode.INTERMEDIATE, "8H,9D,TH", True),
        (PromotionMode.HARD, "8H,9D,TH", False),
        (PromotionMode.HARD, "8D,9D,TD", True),
    ],
)
def test_promotion_modes(mode: PromotionMode, field: str, allowed: bool) -> None:
    config = FanoConfig(two_suit=True, promotion=mode)
    state = setup(f"fano player=1 | field={field} | -", config)
    promote = "promote " + " ".join(f.strip() for f in sorted(field.split(","), key=parse_card))
    assert (promote in legal_texts(state)) is allowed


def test_easy_promotion_needs_six_prestige_cards() -> None:
    config = FanoConfig(promotion=PromotionMode.EASY)  # one suit: 8, 9, 10 anyway
    state = setup("fano player=1 | field=8H,9H,TH | -", config)
    assert "promote 8H 9H TH" in legal_texts(state)


# ------------------------------------------------------------------------------ jokers
def test_joker_as_attack_support_takes_the_value_and_becomes_wild_again() -> None:
    state = setup("fano player=1 | hand=JK,2H field=4H | field=6C", JOKERS)
    assert "4H>6C:JK3" in legal_texts(state)
    after = play(state, "4H>6C:JK3")
    assert after.players[0].field == (parse_card("JK3"),)
    later = setup("fano player=2 | field=JK3 | hand=5C field=2C", JOKERS)
    assert "2C>JK3:5C" in legal_texts(later)
    removed = play(later, "2C>JK3:5C")
    assert removed.players[0].up == (WILD_JOKER,)


def test_joker_combination_is_combat_only_and_never_returns() -> None:
    state = setup("fano player=1 | hand=JK field=3H,4H | -", JOKERS)
    texts = legal_texts(state)
    assert "3H+4H=JK7" in texts
    after = play(state, "3H+4H=JK7")
    assert after.players[0].field == (parse_card("JK7"),)
    high = setup("fano player=1 | hand=JK field=4H,5H | -", JOKERS)
    assert not any(isinstance(a, Combine) for a in FANO.legal_actions(high))
    back = setup("fano player=1 | hand=7H field=JK3,4H | -", JOKERS)
    texts = legal_texts(back)
    assert "JK3+4H=7H return 4H" in texts
    assert "JK3+4H=7H return JK3" not in texts
    with pytest.raises(ValueError, match="joker can not be returned"):
        FANO.parse_action("JK3+4H=7H return JK3")


def test_joker_is_declared_when_played() -> None:
    state = setup("fano player=1 | hand=JK | -", JOKERS)
    plays = [text for text in legal_texts(state) if text.startswith("play")]
    assert plays == [f"play JK{value}" for value in range(1, 8)]
    with pytest.raises(IllegalActionError, match="name the joker's value"):
        FANO.apply_text(state, "play JK")


# ---------------------------------------------------------------------------- specials
def test_reverse_fano_reverses_the_arrows_once_per_level() -> None:
    state = setup("fano player=1 | hand=4H,6H field=3H | field=6C,4C", CHOICE)
    texts = legal_texts(state)
    assert "3H>4C:6H" in texts
    assert "3H>6C:4H reverse" in texts
    after = play(state, "3H>6C:4H reverse")
    me = after.players[0]
    assert me.specials == ((0, Special.REVERSE),)
    again = setup("fano player=1 | hand=4H field=3H specials=- | field=6C", CHOICE)
    assert "3H>6C:4H reverse" in legal_texts(again)
    used = setup("fano player=1 | hand=4H field=3H specials=0:defend | field=6C", CHOICE)
    assert "3H>6C:4H reverse" not in legal_texts(used)
    with pytest.raises(IllegalActionError, match="Reverse Fano"):
        FANO.apply_text(used, "3H>6C:4H reverse")
    promoted = setup(
        "fano player=1 | level=1 hand=4H field=3H specials=0:defend | field=6C", CHOICE
    )
    assert "3H>6C:4H reverse" in legal_texts(promoted)


def test_specials_by_suit() -> None:
    hearts = setup("fano player=1 | hand=4H field=3H | field=6C", SUIT)
    assert "3H>6C:4H reverse" in legal_texts(hearts)
    clubs = setup("fano player=2 | field=6H | hand=2C field=5C,6C", SUIT)
    texts = legal_texts(clubs)
    assert "5C+6C=2C oversum" in texts
    assert not any(text.startswith("defend") for text in texts)
    no_specials = setup("fano player=1 | hand=4H field=3H | field=6C", FanoConfig())
    assert "3H>6C:4H reverse" not in legal_texts(no_specials)


def test_oversum_any_lesser_value_and_the_prestige_only_flag() -> None:
    state = setup("fano player=1 | hand=9H,2H field=5H,6H | -", CHOICE)
    texts = legal_texts(state)
    assert "5H+6H=9H oversum" in texts
    assert "5H+6H=2H oversum return 5H" in texts
    after = play(state, "5H+6H=9H oversum")
    assert after.players[0].field == cards("9H")
    assert after.players[0].specials == ((0, Special.OVERSUM),)
    strict = setup(
        "fano player=1 | hand=9H,2H field=5H,6H | -",
        FanoConfig(specials=SpecialsMode.CHOICE, oversum_prestige_only=True),
    )
    texts = legal_texts(strict)
    assert "5H+6H=9H oversum" in texts
    assert not any(text.startswith("5H+6H=2H") for text in texts)


def test_temporary_joker_is_offered_at_a_reshuffle_and_leaves_the_game_after_use() -> None:
    state = setup("fano player=2 | hand=AH,2H up=3H,4H,5H,6H,7H down=8H,9H,TH | hand=AC", CHOICE)
    asked = play(state, "pass")
    assert asked.phase is Phase.DRAW_SHUFFLE
    assert legal_texts(asked) == ["shuffle", "shuffle joker"]
    after = play(asked, "shuffle joker")
    me = after.players[0]
    assert me.temp_jokers == 1
    assert me.specials == ((0, Special.TEMP_JOKER),)
    assert len(me.hand) == 3
    assert len(me.draw) == 8  # eight discards and the joker, one drawn
    plain = play(asked, "shuffle")
    assert plain.players[0].temp_jokers == 0
    used = setup("fano player=1 | hand=TJ,3H field=4H specials=0:joker | field=6C", CHOICE)
    after_use = play(used, "4H>6C:TJ3")
    assert after_use.players[0].field == (parse_card("TJ3"),)
    gone = setup("fano player=2 | field=TJ3 specials=0:joker | hand=5C field=2C", CHOICE)
    removed = play(gone, "2C>TJ3:5C")
    assert removed.players[0].temp_jokers == 0
    assert TEMP_JOKER not in removed.players[0].up


def test_a_second_temporary_joker_joins_one_still_in_play() -> None:
    """The text sets no limit of one Temporary Joker at a time: once per promotion."""
    text = (
        "fano player=1 seed={seed} | level=1 specials=0:joker hand=3H field=TJ3,AH,2H "
        "up=4H,5H,6H,7H,8H,9H,TH | field=6C"
    )
    for seed in range(50):
        state = setup(text.format(seed=seed), CHOICE)
        asked = play(state, "AH+2H=3H")  # the hand empties and the draw pile is empty
        assert asked.phase is Phase.SHUFFLE
        assert legal_texts(asked) == ["shuffle", "shuffle joker"]
        after = play(asked, "shuffle joker")
        if TEMP_JOKER in after.players[0].hand:
            break
    else:  # pragma: no cover - a third of the shuffles deal the joker
        pytest.fail("no seed dealt the new joker")
    both = play(after, "play TJ5")
    me = both.players[0]
    assert me.field == cards("TJ3 3H TJ5")
    assert me.temp_jokers == 2
    assert me.specials == ((0, Special.TEMP_JOKER), (1, Special.TEMP_JOKER))
    assert FANO.invariant_violations(both) == []
    assert "Temporary Jokers in the game: 2" in FANO.render(FANO.observe(both, 1))
    # Each leaves the game on its own when removed.
    attacked = setup(
        "fano player=2 | level=1 specials=0:joker,1:joker field=TJ3,TJ5 | hand=5C field=2C",
        CHOICE,
    )
    after_attack = play(attacked, "2C>TJ3:5C")
    assert after_attack.players[0].field == cards("TJ5")
    assert after_attack.players[0].temp_jokers == 1


def test_perfect_defense_protects_a_card_until_it_leaves_play() -> None:
    state = setup("fano player=2 | hand=3H field=4H | field=6C hand=AC", CHOICE)
    defended = play(state, "defend 6C")
    assert defended.players[1].protected == cards("6C")
    assert isinstance(FANO.parse_action("defend 6C"), Defend)
    attacker = play(defended, "pass")
    assert "4H>6C:3H" not in legal_texts(attacker)
    with pytest.raises(IllegalActionError, match="Perfect defense"):
        FANO.apply_text(attacker, "4H>6C:3H")
