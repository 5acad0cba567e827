"""Fan Tan rules and variants (rules text: seeds/003), one test per rule that could fail."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from fanfold.core.errors import ConfigError, IllegalActionError
from fanfold.core.game import Termination
from fanfold.core.registry import get_game
from fanfold.core.rng import derive_rng
from fanfold.games.fantan import (
    GAME,
    PASS,
    PLAYS,
    FanTanAction,
    FanTanConfig,
    FanTanState,
    Scoring,
)
from fanfold.games.fantan.cards import CARDS, cards_of
from fanfold.games.fantan.rules import (
    deal_sizes,
    dealer_of,
    match_termination,
    state_playable,
    why_illegal,
)

ALL = [str(card) for card in CARDS]


def suit(letter: str, ranks: str = "A23456789TJQK") -> str:
    """Cards of one suit: ``suit("C", "789")`` -> ``"7C 8C 9C"``."""
    return " ".join(rank + letter for rank in ranks)


def position(
    config: FanTanConfig,
    hands: list[str],
    history: str = "-",
    *,
    hand: int = 1,
    leader: int = 1,
    scores: str | None = None,
    pool: int | None = None,
    last: str = "-",
) -> FanTanState:
    """A state from the cards each seat was dealt (``*`` for every card not listed elsewhere)
    and this hand's actions, which are replayed under the rules."""
    listed = {card for text in hands if text != "*" for card in text.split()}
    rest = " ".join(card for card in ALL if card not in listed)
    dealt = [rest if text == "*" else text for text in hands]
    players = config.players
    if scores is None:
        scores = ",".join("-1" if config.scoring is Scoring.CHIPS else "0" for _ in range(players))
    if pool is None:
        pool = config.ante * players if config.scoring is Scoring.CHIPS else 0
    header = f"hand={hand} leader={leader} scores={scores} pool={pool} last={last} seed=5"
    start = GAME.parse_position(f"{header} | {' / '.join(dealt)} | -", config)
    state = start
    for text in history.split():
        if text != "-":
            state = GAME.apply_text(state, text)
    return state


def texts(actions: object) -> list[str]:
    return [str(action) for action in actions]  # type: ignore[attr-defined]


FOUR = FanTanConfig()
#: Seat 1 holds clubs 7-A and diamonds 2-6; seat 2 clubs 2-6 and diamonds 7-A; seat 3 every
#: heart; seat 4 every spade.
SPLIT = [
    suit("C", "789TJQKA") + " " + suit("D", "23456"),
    suit("C", "23456") + " " + suit("D", "789TJQKA"),
    suit("H"),
    suit("S"),
]


# ----------------------------------------------------------------- players, cards, deal
def test_the_game_is_registered_under_its_names() -> None:
    for name in ("fantan", "fantan.v1", "sevens", "fan-tan", "parliament", "domino"):
        assert get_game(name) is GAME


@pytest.mark.parametrize("players", range(3, 9))
def test_every_card_is_dealt_one_at_a_time_from_the_dealers_left(players: int) -> None:
    config = FOUR.replace(players=players)
    state = GAME.new_state(config, seed=11)
    dealer = players - 1
    assert state.dealer == dealer
    deck = list(range(52))
    derive_rng(11, "deal", 0).shuffle(deck)
    for position_in_deck, index in enumerate(deck):
        assert state.hands[(dealer + 1 + position_in_deck) % players] >> index & 1
    counts = [hand.bit_count() for hand in state.hands]
    assert sum(counts) == 52
    assert max(counts) - min(counts) <= (0 if 52 % players == 0 else 1)
    # the seats nearest the dealer's left get the extra cards
    assert counts == sorted(counts, reverse=True)


def test_deal_sizes_give_the_extra_cards_from_the_dealers_left() -> None:
    assert deal_sizes(3, 2) == (18, 17, 17)
    assert deal_sizes(3, 0) == (17, 18, 17)
    assert deal_sizes(4, 3) == (13, 13, 13, 13)
    assert deal_sizes(5, 4) == (11, 11, 10, 10, 10)
    assert deal_sizes(8, 7) == (7, 7, 7, 7, 6, 6, 6, 6)


def test_players_three_to_eight_only() -> None:
    for players in (2, 9):
        with pytest.raises(ConfigError, match=f"Fan Tan is for 3 to 8 players, not {players}"):
            GAME.with_players(FOUR, players)
    assert GAME.num_players(GAME.with_players(FOUR, 7)) == 7
    assert all(preset.player_counts == tuple(range(3, 9)) for preset in GAME.presets())


def test_the_player_to_the_dealers_left_begins() -> None:
    state = GAME.new_state(FOUR, seed=3)
    assert GAME.current_player(state) == 0 == (state.dealer + 1) % 4


# ----------------------------------------------------------------------- the layout
def test_only_a_seven_can_start_a_row() -> None:
    state = position(FOUR, SPLIT)
    assert texts(GAME.legal_actions(state)) == ["7C"]
    state = GAME.apply_text(state, "7C")
    assert texts(GAME.legal_actions(state)) == ["6C", "7D"]


def test_rows_build_down_to_the_two_and_up_to_the_ace() -> None:
    state = position(FOUR, SPLIT, "7C 6C 7H 7S 8C 5C")
    assert texts(GAME.legal_actions(state)) == ["6H", "8H"]  # seat 3: hearts only
    state = position(FOUR, SPLIT, "7C 6C 7H 7S 8C 5C 8H 8S 9C 4C")
    assert GAME.is_legal(state, GAME.parse_action("9H"))
    assert not GAME.is_legal(state, GAME.parse_action("TH"))  # must be next in sequence


def test_the_ace_is_high_by_default_so_it_goes_on_the_king() -> None:
    hearts_up = "7C 7D 7H 7S 8C 8D 8H 8S 9C 9D 9H 9S TC TD TH TS JC JD JH JS QC QD QH QS"
    config = FOUR.replace(players=4)
    hands = [suit("C"), suit("D"), suit("H"), suit("S")]
    state = position(config, hands, hearts_up)
    assert texts(GAME.legal_actions(state)) == ["6C", "KC"]
    state = GAME.apply_text(state, "KC")
    state = position(config, hands, hearts_up + " KC KD KH KS")
    assert texts(GAME.legal_actions(state)) == ["AC", "6C"]


def test_ace_low_puts_the_ace_below_the_two() -> None:
    config = FOUR.replace(ace_high=False)
    hands = [suit("C"), suit("D"), suit("H"), suit("S")]
    downs = "7C 7D 7H 7S 6C 6D 6H 6S 5C 5D 5H 5S 4C 4D 4H 4S 3C 3D 3H 3S 2C 2D 2H 2S"
    state = position(config, hands, downs)
    assert texts(GAME.legal_actions(state)) == ["AC", "8C"]
    up = "7C 7D 7H 7S 8C 8D 8H 8S 9C 9D 9H 9S TC TD TH TS JC JD JH JS QC QD QH QS KC KD KH KS"
    state = position(config, hands, up)
    assert texts(GAME.legal_actions(state)) == ["6C"]  # nothing above the king


def test_you_must_play_if_you_can_and_a_pass_is_then_illegal() -> None:
    state = position(FOUR, SPLIT, "7C")
    before = GAME.format_position(state)
    with pytest.raises(IllegalActionError, match=r"may not pass.*6C 7D"):
        GAME.apply(state, PASS)
    assert GAME.format_position(state) == before
    assert PASS not in GAME.legal_actions(state)


def test_a_player_with_nothing_playable_must_pass() -> None:
    hands = [suit("C", "234568") + " " + suit("D", "89TJQKA"), "*", suit("H"), suit("S")]
    state = position(FOUR, hands)
    assert GAME.legal_actions(state) == (PASS,)
    state = GAME.apply(state, PASS)
    assert state.passes == (1, 0, 0, 0)
    assert GAME.current_player(state) == 1


def test_illegal_plays_are_explained_and_change_nothing() -> None:
    state = position(FOUR, SPLIT, "7C 6C 7H 7S")
    cases = {
        "AS": "you do not hold AS",
        "7C": "7C is already on the layout",
        "TC": "next to the end of the clubs row",
        "3D": "the diamonds row must start with its 7",
    }
    for text, message in cases.items():
        with pytest.raises(IllegalActionError, match=message):
            GAME.apply_text(state, text)
    assert GAME.format_position(state) == GAME.format_position(position(FOUR, SPLIT, "7C 6C 7H 7S"))


@pytest.mark.parametrize("preset", [preset.name for preset in GAME.presets()])
def test_why_illegal_allows_exactly_the_legal_actions(preset: str) -> None:
    rng = random.Random(3)
    state = GAME.new_state(GAME.preset(preset).config, seed=3)
    while True:
        legal = GAME.legal_actions(state)
        every: list[FanTanAction] = [*PLAYS, PASS]
        allowed = [action for action in every if why_illegal(state, action) is None]
        assert sorted(map(str, allowed)) == sorted(map(str, legal))
        if not legal:
            break
        state = GAME.apply(state, legal[rng.randrange(len(legal))])
    assert GAME.outcome(state) is not None


def test_the_first_player_out_wins_the_hand() -> None:
    config = FOUR.replace(players=4)
    hands = [suit("C"), suit("D"), suit("H"), suit("S")]
    ups = " ".join(f"{rank}C {rank}D {rank}H {rank}S" for rank in "789TJQKA")
    downs = " ".join(f"{rank}C {rank}D {rank}H {rank}S" for rank in "65432")
    state = position(config, hands, ups + " " + downs[:-12])
    assert GAME.outcome(state) is None
    state = GAME.apply_text(state, "2C")
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.returns == (1.0, -1.0, -1.0, -1.0)
    assert "Player 1 went out first" in outcome.reason
    assert outcome.termination is Termination.WENT_OUT
    assert GAME.current_player(state) is None
    assert GAME.legal_actions(state) == ()


# ------------------------------------------------------------------------ chip pool
def test_chip_pool_ante_pass_and_settlement() -> None:
    config = FOUR.replace(scoring=Scoring.CHIPS)
    state = GAME.new_state(config, seed=2)
    assert state.scores == (-1, -1, -1, -1)
    assert state.pool == 4
    hands = [suit("C", "234568") + " " + suit("D", "89TJQKA"), "*", suit("H"), suit("S")]
    state = GAME.apply(position(config, hands), PASS)
    assert state.scores == (-2, -1, -1, -1)
    assert state.pool == 5
    # play on until someone goes out, then check the pool and card chips
    rng = random.Random(0)
    while GAME.outcome(state) is None:
        legal = GAME.legal_actions(state)
        before = state
        state = GAME.apply(state, legal[rng.randrange(len(legal))])
    winner = GAME.outcome(state).winners[0]  # type: ignore[union-attr]
    left = [hand.bit_count() for hand in state.hands]
    for seat in range(4):
        if seat != winner:
            assert state.scores[seat] == before.scores[seat] - left[seat]
    assert state.scores[winner] == before.scores[winner] + before.pool + sum(left)
    assert state.pool == 0
    assert sum(state.scores) == 0
    assert GAME.outcome(state).returns == tuple(map(float, state.scores))  # type: ignore[union-attr]


# --------------------------------------------------------------- seven of diamonds
def test_the_holder_of_the_seven_of_diamonds_opens_with_it() -> None:
    config = FOUR.replace(opening_card="7D")
    hands = [suit("C"), suit("S"), suit("D"), suit("H")]
    state = position(config, hands, leader=3)
    assert GAME.current_player(state) == 2
    assert texts(GAME.legal_actions(state)) == ["7D"]
    with pytest.raises(IllegalActionError, match="must be the 7D"):
        GAME.apply_text(state, "8D")
    state = GAME.apply_text(state, "7D")
    assert texts(GAME.legal_actions(state)) == ["7H"]
    for seed in range(10):
        dealt = GAME.new_state(config, seed)
        assert dealt.hands[dealt.leader] >> CARDS.index(CARDS[13 + 6]) & 1


# ----------------------------------------------------------------- online sevens
def test_online_sevens_seven_of_hearts_first_and_eight_before_six() -> None:
    config = GAME.preset("sevens-online").config
    hands = [suit("C"), suit("H"), suit("D"), suit("S")]
    state = position(config, hands, leader=2)
    assert texts(GAME.legal_actions(state)) == ["7H"]
    state = position(config, hands, "7H 7D 7S", leader=2)
    assert GAME.current_player(state) == 0
    assert texts(GAME.legal_actions(state)) == ["7C"]
    state = GAME.apply_text(state, "7C")
    assert texts(GAME.legal_actions(state)) == ["8H"]  # not 6H: the 8 comes first
    with pytest.raises(IllegalActionError, match="must gain its 8 before it can go down"):
        GAME.apply_text(state, "6H")
    state = position(config, hands, "7H 7D 7S 7C 8H 8D 8S 8C", leader=2)
    assert texts(GAME.legal_actions(state)) == ["6H", "9H"]


def test_penalty_points_at_face_value_for_the_others() -> None:
    config = GAME.preset("sevens-online").config
    hands = [suit("C"), suit("H"), suit("D"), suit("S")]
    ups = " ".join(f"{rank}H {rank}D {rank}S {rank}C" for rank in "789TJQKA")
    downs = " ".join(f"{rank}H {rank}D {rank}S {rank}C" for rank in "65432")
    state = position(config, hands, ups + " " + downs[:-12], leader=2)
    assert GAME.outcome(state) is None
    state = GAME.apply_text(state, "2H")
    outcome = GAME.outcome(state)
    assert outcome is not None
    # seat 2 went out; clubs, diamonds and spades each hold their 2: 2 points apiece
    assert state.scores == (2, 0, 2, 2)
    assert outcome.returns == (-2.0, 0.0, -2.0, -2.0)
    assert outcome.winners == (1,)


def test_face_values_aces_one_pictures_ten() -> None:
    from fanfold.games.fantan.cards import face_points

    def mask(text: str) -> int:
        return sum(1 << ALL.index(card) for card in text.split())

    assert face_points(mask("AC KD QH JS TC 9D 2S")) == 1 + 10 + 10 + 10 + 10 + 9 + 2


# -------------------------------------------------------------------------- domino
def test_domino_first_player_chooses_the_rank_for_every_suit() -> None:
    config = GAME.preset("domino").config
    state = position(config, SPLIT)
    assert len(GAME.legal_actions(state)) == 13  # any card of the hand
    state = GAME.apply_text(state, "JC")
    assert state.start_rank == 11
    # seat 2 holds no jack of its own but... JD is a jack: it starts the diamonds row
    assert texts(GAME.legal_actions(state)) == ["JD"]
    state = GAME.apply_text(state, "JD")
    assert texts(GAME.legal_actions(state)) == ["JH"]
    state = GAME.apply_text(state, "JH")
    state = GAME.apply_text(state, "JS")
    # rows build both ways from the jack: QC or TC
    assert texts(GAME.legal_actions(state)) == ["TC", "QC"]


def test_domino_rows_started_at_the_ace_only_build_down() -> None:
    config = GAME.preset("domino").config
    hands = [suit("C"), suit("D"), suit("H"), suit("S")]
    state = position(config, hands, "AC AD AH AS")
    assert texts(GAME.legal_actions(state)) == ["KC"]
    low = GAME.preset("domino").config.replace(ace_high=False)
    state = position(low, hands, "AC AD AH AS")
    assert texts(GAME.legal_actions(state)) == ["2C"]


def test_domino_an_opening_pass_is_impossible() -> None:
    config = GAME.preset("domino").config
    for seed in range(5):
        state = GAME.new_state(config, seed)
        assert PASS not in GAME.legal_actions(state)
        assert len(GAME.legal_actions(state)) == state.hands[state.to_move].bit_count()


# --------------------------------------------------------------------- ten titans
def test_ten_titans_rows_start_at_the_ten() -> None:
    config = GAME.preset("ten-titans").config
    state = position(config, SPLIT)
    assert texts(GAME.legal_actions(state)) == ["TC"]
    state = GAME.apply_text(state, "TC")
    assert texts(GAME.legal_actions(state)) == ["TD"]
    assert cards_of(state_playable(state)) == [CARDS[index] for index in (8, 10, 22, 35, 48)]
    assert config.scoring is Scoring.PENALTY


# -------------------------------------------------------------------------- matches
def test_a_match_deals_the_next_hand_and_passes_the_deal_left() -> None:
    config = FOUR.replace(hands=3)
    hands = [suit("C"), suit("D"), suit("H"), suit("S")]
    ups = " ".join(f"{rank}C {rank}D {rank}H {rank}S" for rank in "789TJQKA")
    downs = " ".join(f"{rank}C {rank}D {rank}H {rank}S" for rank in "65432")
    state = position(config, hands, ups + " " + downs[:-12])
    state = GAME.apply_text(state, "2C")
    assert GAME.outcome(state) is None
    assert state.hand_number == 1
    assert state.dealer == dealer_of(4, 1) == 0
    assert state.leader == GAME.current_player(state) == 1
    assert state.scores == (1, 0, 0, 0)
    assert state.last_winner == 0
    assert state.history == ()
    fresh = GAME.new_state(config, seed=5)
    from fanfold.games.fantan.rules import deal

    assert state.hands == deal(config, 5, 1) != fresh.hands


def test_a_match_ends_after_its_hands_and_the_most_hands_won_wins() -> None:
    config = FOUR.replace(players=3, hands=4)
    rng = random.Random(4)
    state = GAME.new_state(config, seed=9)
    hands_seen = {0}
    while GAME.outcome(state) is None:
        legal = GAME.legal_actions(state)
        state = GAME.apply(state, legal[rng.randrange(len(legal))])
        hands_seen.add(state.hand_number)
    assert hands_seen == {0, 1, 2, 3}
    assert sum(state.scores) == 4
    outcome = GAME.outcome(state)
    assert outcome is not None
    best = max(state.scores)
    assert outcome.returns == tuple(1.0 if s == best else -1.0 for s in state.scores)
    assert "after 4 hands" in outcome.reason
    assert outcome.termination is Termination.HANDS_PLAYED


def test_a_penalty_match_ends_when_someone_reaches_the_target() -> None:
    config = GAME.preset("sevens-match").config
    rng = random.Random(1)
    state = GAME.new_state(config, seed=1)
    previous_max = 0
    while GAME.outcome(state) is None:
        assert previous_max < 100
        legal = GAME.legal_actions(state)
        state = GAME.apply(state, legal[rng.randrange(len(legal))])
        previous_max = max(state.scores)
    assert max(state.scores) >= 100
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.returns == tuple(-float(s) for s in state.scores)
    assert outcome.termination is Termination.TARGET_REACHED


#: The match numbers fanfold chose where the text sets none, as docs/rules/fantan.md and the
#: README state them (marked there as readings).
CHIPS_MATCH_HANDS = 4
SEVENS_MATCH_TARGET = 100
REPOSITORY = Path(__file__).resolve().parents[3]


def test_the_match_presets_have_the_documented_lengths() -> None:
    chips = GAME.preset("chips-match")
    assert (chips.config.scoring, chips.config.hands, chips.config.target) == (
        Scoring.CHIPS,
        CHIPS_MATCH_HANDS,
        None,
    )
    sevens = GAME.preset("sevens-match")
    assert (sevens.config.scoring, sevens.config.hands, sevens.config.target) == (
        Scoring.PENALTY,
        0,
        SEVENS_MATCH_TARGET,
    )
    assert "four hands" in chips.description
    assert f"{SEVENS_MATCH_TARGET} penalty points" in sevens.description
    rules = (REPOSITORY / "docs" / "rules" / "fantan.md").read_text(encoding="utf-8")
    assert f"`chips-match` lasts **{CHIPS_MATCH_HANDS} hands**" in rules
    assert f"someone reaches **{SEVENS_MATCH_TARGET} penalty points**" in rules
    readme = " ".join((REPOSITORY / "README.md").read_text(encoding="utf-8").split())
    assert f"`chips-match` lasts {CHIPS_MATCH_HANDS} hands" in readme
    assert f"`sevens-match` runs until someone has {SEVENS_MATCH_TARGET} penalty points" in readme


@pytest.mark.parametrize(
    ("scores", "returns"),
    [
        ((2, 1, 0), (1.0, -1.0, -1.0)),
        ((2, 2, 0), (1.0, 1.0, -1.0)),
        ((0, 3, 1), (-1.0, 1.0, -1.0)),
        ((1, 1, 1), (0.0, 0.0, 0.0)),
        ((2, 2, 2), (0.0, 0.0, 0.0)),
    ],
)
def test_a_plain_match_gives_plus_one_to_the_most_hands_won_and_minus_one_to_the_rest(
    scores: tuple[int, int, int], returns: tuple[float, float, float]
) -> None:
    config = FOUR.replace(players=3, hands=sum(scores))
    rng = random.Random(sum(scores))
    state = GAME.new_state(config, seed=1)
    while GAME.outcome(state) is None:
        legal = GAME.legal_actions(state)
        state = GAME.apply(state, legal[rng.randrange(len(legal))])
    state = dataclasses.replace(state, scores=scores)
    assert GAME.invariant_violations(state) == []
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.returns == returns
    assert f"after {sum(scores)} hands" in outcome.reason


def test_a_plain_match_target_counts_hands_won() -> None:
    config = FOUR.replace(hands=0, target=2)
    rng = random.Random(2)
    state = GAME.new_state(config, seed=2)
    while GAME.outcome(state) is None:
        legal = GAME.legal_actions(state)
        state = GAME.apply(state, legal[rng.randrange(len(legal))])
    assert max(state.scores) == 2
    assert 2 <= sum(state.scores) <= 5
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.termination is Termination.TARGET_REACHED


def test_a_target_reached_in_the_last_hand_is_told_as_the_target() -> None:
    config = FOUR.replace(hands=3, target=2)
    assert match_termination(config, (2, 1, 0, 0)) is Termination.TARGET_REACHED
    assert match_termination(config, (1, 1, 1, 0)) is Termination.HANDS_PLAYED
    assert match_termination(FOUR, (1, 0, 0, 0)) is Termination.WENT_OUT


# ------------------------------------------------------------------------ config
@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"players": 2}, "Fan Tan is for 3 to 8 players, not 2"),
        ({"start_rank": 0}, "start_rank must be"),
        ({"opening_card": "ZZ"}, "opening_card"),
        ({"opening_card": "7d"}, "write the opening card as '7D'"),
        ({"opening_card": "7D", "start_rank": None}, "first player's choice"),
        ({"opening_card": "7D", "start_rank": 10}, "rows start with rank 10"),
        ({"ante": 2}, "only applies to chip scoring"),
        ({"scoring": Scoring.CHIPS, "ante": -1}, "ante must be from 0 to 100, not -1"),
        ({"hands": -1}, "hands must be"),
        ({"hands": 0}, "needs a target"),
        ({"hands": 0, "target": 5, "scoring": Scoring.CHIPS}, "chip match needs"),
        ({"hands": 3, "target": 0}, "target must be from 1 to 10000, not 0"),
        ({"target": 10}, "more than one hand"),
    ],
)
def test_nonsense_configs_are_refused(changes: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        FOUR.replace(**changes)


def test_options_combine_where_sensible() -> None:
    config = GAME.preset("domino").config.with_options(
        {"ace_high": "false", "scoring": "chips", "hands": "3"}
    )
    assert config.start_rank is None
    assert not config.ace_high
    assert config.scoring is Scoring.CHIPS
    titans = GAME.preset("ten-titans").config.with_options({"up_before_down": "true"})
    state = position(titans, SPLIT, "TC")
    assert "9C" not in texts(cards_of(state_playable(state)))  # the 9C waits for the JC
    assert "JC" in texts(cards_of(state_playable(state)))
    assert FanTanConfig.from_json(config.to_json()) == config


# --------------------------------------------------------------------------- views
def test_views_hide_other_hands_and_show_everything_public() -> None:
    state = position(FOUR.replace(scoring=Scoring.CHIPS), SPLIT, "7C 6C 7H 7S")
    view = GAME.observe(state, 1)
    assert view.hand == state.hands[1]
    assert view.hand_counts == (12, 12, 12, 12)
    assert texts(view.history) == ["7C", "6C", "7H", "7S"]
    data = view.to_json()
    assert data["hand"] == [str(card) for card in cards_of(state.hands[1])]
    assert data["layout"] == {"C": ["6C", "7C"], "D": [], "H": ["7H"], "S": ["7S"]}
    assert data["revealed"] is None
    assert data["pool"] == 4
    others = {card for seat in (0, 2, 3) for card in cards_of(state.hands[seat])}
    text = str(data)
    assert not any(f"'{card}'" in text for card in others)


def test_views_do_not_change_when_other_hidden_hands_are_swapped() -> None:
    import dataclasses

    state = GAME.new_state(FOUR, seed=8)
    hands = list(state.hands)
    a = hands[2] & -hands[2]
    b = hands[3] & -hands[3]
    hands[2] ^= a | b
    hands[3] ^= a | b
    other = dataclasses.replace(state, hands=tuple(hands))
    assert GAME.observe(state, 0) == GAME.observe(other, 0)
    assert GAME.observe(state, 1) == GAME.observe(other, 1)
    assert GAME.observe(state, 2) != GAME.observe(other, 2)


def test_render_and_describe_show_hand_layout_counts_and_scores() -> None:
    state = position(FOUR.replace(scoring=Scoring.CHIPS), SPLIT, "7C 6C 7H 7S")
    text = GAME.render(GAME.observe(state, 0))
    assert "Your hand: 8C 9C TC JC QC KC AC  2D 3D 4D 5D 6D" in text
    assert "Player 2: 12 cards, 0 passes, chips -1" in text
    assert "Pool: 4 chips" in text
    assert "♣ C  .  .  .  .  6  7  .  ." in text
    assert GAME.describe(state) == "Player 1 to play (hand 1)"
    assert "holds the 7H" in GAME.describe(GAME.new_state(GAME.preset("sevens-online").config))
