"""The design options the balance lab asks about: a Temporary Joker that may enter play as a
prestige card (``joker_prestige``) and tribute for an Oversum prestige result
(``oversum_tribute``). Both are off by default, where the rules texts' readings hold."""

from __future__ import annotations

import pytest

from fanfold.core.errors import ConfigError, IllegalActionError, NotationError
from fanfold.core.kinds import played_kind
from fanfold.games.fano import FanoConfig, PromotionMode, SpecialsMode, fast
from fanfold.games.fano.cards import TEMP_JOKER, card_text, parse_card
from fanfold.games.fano.rules import invariant_violations
from tests.games.fano.helpers import FANO, TRIONFEY, cards, legal_texts, play

CHOICE = FanoConfig(specials=SpecialsMode.CHOICE)
PRESTIGE_JOKER = CHOICE.replace(joker_prestige=True)
#: Player 1 holds a Temporary Joker with a 4 and a 5 in play, an 8 and a 10 beside them.
JOKER_SUM = "fano player=1 | specials=0:joker hand=TJ field=4H,5H,8H,TH | -"


# ------------------------------------------------------------------ joker_prestige
def test_by_default_the_temporary_joker_is_never_a_prestige_card() -> None:
    state = FANO.parse_position(JOKER_SUM, CHOICE)
    texts = legal_texts(state)
    assert not any("=TJ" in text for text in texts)  # 4 + 5 = 9 is no combat value
    with pytest.raises(IllegalActionError, match=r"only with joker_prestige=true"):
        FANO.apply_text(state, "4H+5H=TJ9")


def test_with_the_option_the_joker_enters_as_the_sum_and_promotes() -> None:
    state = FANO.parse_position(JOKER_SUM, PRESTIGE_JOKER)
    texts = legal_texts(state)
    assert "4H+5H=TJ9" in texts
    assert "4H+5H=TJ9 return 4H" in texts
    after = play(state, "4H+5H=TJ9")
    me = after.players[0]
    assert me.field == tuple(sorted((*cards("8H TH"), parse_card("TJ9"))))
    assert invariant_violations(after) == []
    kind = played_kind(FANO, state, FANO.parse_action("4H+5H=TJ9"))
    assert kind == "combine+prestige_joker"
    # The 8, the joker as a 9 and the 10 promote; the joker then leaves the game.
    promote = [text for text in legal_texts(after) if text.startswith("promote")]
    assert promote == ["promote 8H TJ9 TH"]
    promoted = play(after, "promote 8H TJ9 TH")
    me = promoted.players[0]
    assert me.level == 1
    assert me.temp_jokers == 0
    assert TEMP_JOKER not in me.up
    assert me.up == cards("4H 5H 8H TH")
    assert invariant_violations(promoted) == []


def test_a_prestige_joker_does_what_prestige_cards_do_and_no_more() -> None:
    # It is never played from hand as a prestige card, and as a prestige card in play it
    # neither attacks nor is attacked.
    hand = FANO.parse_position("fano player=1 | specials=0:joker hand=TJ | -", PRESTIGE_JOKER)
    assert [t for t in legal_texts(hand) if t.startswith("play")] == [
        f"play TJ{value}" for value in range(1, 8)
    ]
    played = FANO.parse_position(
        "fano player=2 | field=TJ9 specials=0:joker | hand=7C,5C field=2C,AC", PRESTIGE_JOKER
    )
    assert not any(">TJ9" in text for text in legal_texts(played))
    with pytest.raises(IllegalActionError, match="prestige cards can not be attacked"):
        FANO.apply_text(played, "2C>TJ9:7C")
    # Oversum may make it any lesser value; prestige_only keeps 8-10 alone.
    oversum = FANO.parse_position("fano player=1 | hand=TJ field=5H,6H | -", PRESTIGE_JOKER)
    texts = legal_texts(oversum)
    assert {f"5H+6H=TJ{v} oversum" for v in range(1, 11)} <= set(texts)
    strict = PRESTIGE_JOKER.replace(oversum_prestige_only=True)
    texts = legal_texts(FANO.parse_position("fano player=1 | hand=TJ field=5H,6H | -", strict))
    assert sorted(t for t in texts if "oversum" in t and "return" not in t) == [
        "5H+6H=TJ10 oversum",
        "5H+6H=TJ8 oversum",
        "5H+6H=TJ9 oversum",
    ]


def test_the_option_leaves_the_wild_joker_a_combat_card() -> None:
    config = PRESTIGE_JOKER.replace(jokers=True)
    state = FANO.parse_position("fano player=1 | hand=JK field=4H,5H | -", config)
    texts = legal_texts(state)
    assert "4H+5H=JK8 oversum" in texts or "4H+5H=JK3 oversum" in texts
    assert not any(f"=JK{value}" in text for value in (8, 9, 10) for text in texts)
    with pytest.raises(NotationError, match="JK with a value 1-7"):
        FANO.apply_text(state, "4H+5H=JK9")
    with pytest.raises(NotationError, match="JK with a value 1-7"):
        parse_card("JK9")
    assert card_text(parse_card("TJ10")) == "TJ10"


def test_hard_promotion_lets_the_joker_stand_for_the_missing_suit() -> None:
    config = FanoConfig(
        two_suit=True,
        promotion=PromotionMode.HARD,
        specials=SpecialsMode.CHOICE,
        joker_prestige=True,
    )
    state = FANO.parse_position("fano player=1 | specials=0:joker field=8H,TJ9,TH,9D | -", config)
    promotions = [text for text in legal_texts(state) if text.startswith("promote")]
    assert promotions == ["promote 8H TJ9 TH"]


def test_joker_prestige_needs_the_classic_specials() -> None:
    with pytest.raises(ConfigError, match="joker_prestige changes the classic Temporary Joker"):
        FanoConfig(joker_prestige=True)
    with pytest.raises(ConfigError, match="joker_prestige"):
        TRIONFEY.replace(tribute=True, suits="SH", joker_prestige=True)
    options = {"specials": "choice", "joker-prestige": "true"}
    assert FanoConfig().with_options(options) == PRESTIGE_JOKER


# ------------------------------------------------------------------ oversum_tribute
def tribute(suits: str, **options: object) -> FanoConfig:
    return TRIONFEY.replace(tribute=True, suits=suits, **options)


def test_oversum_prestige_result_earns_a_counter_only_with_the_option() -> None:
    text = "fano player=1 | tribute=3 hand=9C,3C field=5C,6C | -"
    plain = FANO.parse_position(text, tribute("CH"))
    assert play(plain, "5C+6C=9C oversum").players[0].tribute == 0
    assert play(plain, "5C+6C=3C oversum").players[0].tribute == 1
    paid = FANO.parse_position(text, tribute("CH", oversum_tribute=True))
    assert play(paid, "5C+6C=9C oversum").players[0].tribute == 1
    assert play(paid, "5C+6C=3C oversum").players[0].tribute == 1
    # A plain combine earns its counter either way.
    sums = "fano player=1 | tribute=0 hand=9C field=4C,5C | -"
    for config in (tribute("CH"), tribute("CH", oversum_tribute=True)):
        assert play(FANO.parse_position(sums, config), "4C+5C=9C").players[0].tribute == 1


def test_oversum_tribute_needs_tribute_counters() -> None:
    with pytest.raises(ConfigError, match="oversum_tribute changes what earns tribute"):
        TRIONFEY.replace(oversum_tribute=True)
    with pytest.raises(ConfigError, match="oversum_tribute"):
        FanoConfig(specials=SpecialsMode.CHOICE, oversum_tribute=True)


# ------------------------------------------------------------------ both
def test_records_without_the_options_read_as_before_and_the_fast_path_declines() -> None:
    assert "joker_prestige" not in CHOICE.to_json()
    assert "oversum_tribute" not in tribute("CH").to_json()
    assert PRESTIGE_JOKER.to_json()["joker_prestige"] is True
    assert FanoConfig.from_json(PRESTIGE_JOKER.to_json()) == PRESTIGE_JOKER
    assert FanoConfig.from_json(CHOICE.to_json()) == CHOICE
    assert fast.supports(CHOICE)
    assert not fast.supports(PRESTIGE_JOKER)
    assert not fast.supports(tribute("CH", oversum_tribute=True))
