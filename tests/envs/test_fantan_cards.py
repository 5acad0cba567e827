"""Fan Tan card features: hand-set positions give the counts along each row, random games
agree with the rules (the cards a play opens) and with a walk along the row, and bad input is
refused."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fanfold.core.registry import get_game
from fanfold.envs.encodings import make_encoding
from fanfold.envs.fantan import FanTanEncoding
from fanfold.envs.fantan_cards import CARD_FEATURES, FEATURES, FanTanCardFeatures
from fanfold.games.fantan.cards import rank_order
from fanfold.games.fantan.rules import playable_mask
from tests.envs.conftest import playout


def card(text: str) -> int:
    """The action index of a card written rank then suit (``9C``, ``TD``, ``AH``)."""
    ranks = "A23456789TJQK"
    return "CDHS".index(text[1]) * 13 + ranks.index(text[0])


def encoding(variant: str | None = None) -> FanTanEncoding:
    found = make_encoding("fantan", variant)
    assert isinstance(found, FanTanEncoding)
    return found


def observation(
    enc: FanTanEncoding, mine: list[str], table: list[str], start: int, counts: list[int]
) -> np.ndarray:
    tensor = enc.layout.zeros()
    blocks = enc.layout.views(tensor)
    blocks["hand"][[card(c) for c in mine]] = 1.0
    blocks["layout"][[card(c) for c in table]] = 1.0
    blocks["start_rank"][start] = 1.0
    blocks["hand_counts"][:] = counts
    return tensor


def named(features: FanTanCardFeatures, values: np.ndarray) -> dict[str, float]:
    return {name: round(float(v), 4) for name, v in zip(features.names, values, strict=True)}


def test_a_set_position_gives_the_counts_along_each_row() -> None:
    enc = encoding()
    features = FanTanCardFeatures(enc)
    mine = ["9C", "JC", "KC", "7D", "6D", "9D", "AH"]
    table = ["7C", "8C", *[f"{r}H" for r in "789TJQK"]]
    values = features(observation(enc, mine, table, 7, [7, 10, 12, 13]))
    nine = named(features, values[card("9C")])
    # clubs: 7 8 on the table; mine 9 J K; the others' T Q A
    assert nine["start"] == 0
    assert nine["mine_beyond"] == round(2 / 6, 4)
    assert nine["others_beyond"] == round(3 / 6, 4)
    assert (nine["next_mine"], nine["next_others"]) == (0, 1)
    assert nine["others_to_mine"] == round(1 / 6, 4)
    assert nine["row_end"] == 0
    assert nine["mine_in_suit"] == round(3 / 13, 4)
    assert nine["others_in_suit"] == round(8 / 13, 4)
    seven = named(features, values[card("7D")])
    # diamonds: an empty row; mine 6 7 9, so beyond the seven: 6 and 9 mine, ten the others'
    assert seven["start"] == 1
    assert seven["mine_beyond"] == round(2 / 6, 4)
    assert seven["others_beyond"] == round(10 / 6, 4)
    assert (seven["next_mine"], seven["next_others"]) == (1, 1)
    assert seven["others_to_mine"] == 0  # the 6 is mine, next to it
    ace = named(features, values[card("AH")])
    assert ace["row_end"] == 1
    assert ace["mine_beyond"] == ace["others_beyond"] == ace["others_to_mine"] == 0
    # the later copies: 7 cards held of 13, and a seat holding 7 (none at 3 or fewer)
    assert nine["mine_beyond_late"] == round(2 / 6 * (1 - 7 / 13), 4)
    assert nine["mine_beyond_close"] == 0


def test_another_seat_near_going_out_turns_on_the_close_copies() -> None:
    enc = encoding()
    features = FanTanCardFeatures(enc)
    values = features(observation(enc, ["9C", "JC"], ["7C", "8C"], 7, [2, 9, 3, 11]))
    nine = named(features, values[card("9C")])
    assert nine["mine_beyond_close"] == nine["mine_beyond"] == round(1 / 6, 4)
    assert nine["others_to_mine_close"] == nine["others_to_mine"] == round(1 / 6, 4)


def test_ace_low_puts_the_ace_beyond_the_two() -> None:
    high, low = encoding(), encoding("ace-low")
    mine, table = ["2S", "AS"], [f"{r}S" for r in "34567"]
    at_high = FanTanCardFeatures(high)(observation(high, mine, table, 7, [2, 13, 13, 13]))
    at_low = FanTanCardFeatures(low)(observation(low, mine, table, 7, [2, 13, 13, 13]))
    names = FanTanCardFeatures(low).names
    two_high = dict(zip(names, at_high[card("2S")], strict=True))
    two_low = dict(zip(names, at_low[card("2S")], strict=True))
    assert (two_high["row_end"], two_high["next_mine"]) == (1, 0)
    assert (two_low["row_end"], two_low["next_mine"], two_low["mine_beyond"]) == (0, 1, 1 / 6)


def walk(
    order: tuple[int, ...], start: int, suit: int, rank: int, hand: int, laid: int
) -> tuple[int, int]:
    """My cards and the others' beyond a card, by walking its row outward one card at a time."""
    here, first = order.index(rank), order.index(start)
    sides = [1, -1] if here == first else [1 if here > first else -1]
    mine = others = 0
    for side in sides:
        position = here + side
        while 0 <= position < len(order):
            bit = 1 << (suit * 13 + order[position] - 1)
            if hand & bit:
                mine += 1
            elif not laid & bit:
                others += 1
            position += side
    return mine, others


@pytest.mark.parametrize(
    ("variant", "players"), [("standard", 4), ("ace-low", 3), ("ten-titans", 5)]
)
def test_random_games_agree_with_the_rules_and_a_walk_along_the_row(
    variant: str, players: int
) -> None:
    game = get_game("fantan")
    enc = make_encoding("fantan", variant, players=players)
    assert isinstance(enc, FanTanEncoding)
    config = enc.config
    features = FanTanCardFeatures(enc)
    order = rank_order(config.ace_high)
    index = {name: number for number, name in enumerate(features.names)}
    checked = 0
    for seed in range(3):
        for state in playout(game, config, seed, 200):
            if state.finished or state.start_rank is None:
                continue
            seat = state.to_move
            hand, laid = state.hands[seat], state.layout
            values = features(enc.observation(game.observe(state, seat)))
            playable = playable_mask(config, laid, state.start_rank)
            for number in range(52):
                if not hand & playable & (1 << number):
                    continue
                suit, rank = divmod(number, 13)
                row = values[number]
                opened = playable_mask(config, laid | 1 << number, state.start_rank) & ~playable
                opened &= ~(1 << number)
                assert row[index["next_mine"]] == bin(opened & hand).count("1")
                assert row[index["next_others"]] == bin(opened & ~hand).count("1")
                mine, others = walk(order, state.start_rank, suit, rank + 1, hand, laid)
                assert row[index["mine_beyond"]] == pytest.approx(mine / 6)
                assert row[index["others_beyond"]] == pytest.approx(others / 6)
                checked += 1
    assert checked > 100


def test_a_batch_gives_each_row_its_own_features() -> None:
    enc = encoding()
    features = FanTanCardFeatures(enc)
    first = observation(enc, ["9C"], ["7C", "8C"], 7, [1, 13, 13, 13])
    second = observation(enc, ["6H", "5H"], ["7H"], 7, [2, 13, 13, 12])
    batch = features(np.stack([first, second]))
    assert batch.shape == (2, 52, len(FEATURES))
    assert np.array_equal(batch[0], features(first))
    assert np.array_equal(batch[1], features(second))
    assert features.size == 3 * len(CARD_FEATURES)


def test_bad_input_is_refused() -> None:
    enc = encoding()
    features = FanTanCardFeatures(enc)
    with pytest.raises(ValueError, match="expected observations of 356 numbers"):
        features(np.zeros(355, dtype=np.float32))
    with pytest.raises(
        ValueError, match="card features are for Fan Tan's encoding, not MorrisEncoding"
    ):
        FanTanCardFeatures(make_encoding("morris"))  # type: ignore[arg-type]


def test_docs_list_every_card_feature() -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "envs" / "encodings.md").read_text()
    for name, meaning in CARD_FEATURES:
        assert f"| `{name}` | {meaning} |" in docs
    assert f"`(batch, 52, {len(FEATURES)})`" in docs
