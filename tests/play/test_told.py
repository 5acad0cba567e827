"""What a watcher is told of each action: notation, a sentence in words, what it moved."""

from __future__ import annotations

import re

from fanfold.core.registry import get_game
from fanfold.play.setup import new_table


def test_a_fan_tan_play_and_pass_in_words_for_each_side() -> None:
    game = get_game("fantan")
    table = new_table(game, seats=["random"] * 4, seed=3)
    table.play_agents()
    first = table.played[1]  # seat 1 starts the clubs row (seed 3)
    assert first.text == "7C"
    told = table.told(first, None)
    assert told is not None
    assert told.words == "Player 2 played 7♣, starting the ♣ row."
    assert told.highlight == ("7C",)
    mine = table.told(first, 1)
    assert mine is not None
    assert mine.words.startswith("You played 7♣")
    passed = table.told(table.played[0], None)
    assert passed is not None
    assert passed.words.startswith("Player 1 passed")
    last = table.told(table.played[-1], None)
    assert last is not None
    assert "goes out" in last.words


def test_a_morris_move_names_the_point_and_the_covered_piece() -> None:
    game = get_game("morris")
    table = new_table(game, seats=["human", "human"], seed=0)
    table.submit(0, "C1")
    table.submit(1, "T1")
    told = table.told(table.played[1], 0)
    assert told is not None
    assert told.words == "Black placed a triangle on point 1, onto your circle."
    assert told.highlight == ("point:1",)


def test_a_fan_move_names_its_cards_with_suit_symbols() -> None:
    game = get_game("fan")
    table = new_table(game, seats=["random"], seed=3)
    table.play_agents()
    told = table.told(table.played[0], 0)
    assert told is not None
    assert told.words == "You moved A♥ from fan 11 onto 2♥ on fan 12."
    assert told.highlight == ("fan:11", "fan:12")
    assert table.told(table.played[-1], 0) is not None


def test_fano_attacks_and_discards_in_words_from_each_side() -> None:
    game = get_game("fano")
    config = game.preset("classic").config
    table = new_table(game, config, ["random", "random"], seed=5)
    table.play_agents()
    attack = next(p for p in table.played if ">" in p.text)
    defender = 1 - attack.seat
    told = table.told(attack, defender)
    assert told is not None
    assert "attacked your" in told.words
    assert "support" in told.words
    assert "♣" in told.words or "♥" in told.words
    discard = next(p for p in table.played if p.text.startswith("discard"))
    mine = table.told(discard, discard.seat)
    theirs = table.told(discard, 1 - discard.seat)
    assert mine is not None
    assert theirs is not None
    assert mine.words.startswith("You discarded")
    # the other side hears how many, never which
    assert re.match(r"Player \d \([♣♦♥♠]+\) discarded \d cards? face down", theirs.words)
    assert theirs.highlight == ()


def test_told_is_kept_and_follows_undo() -> None:
    game = get_game("morris")
    table = new_table(game, seats=["human", "human"], seed=0)
    played = table.submit(0, "C1")
    assert table.told(played, None) is table.told(played, None)
    assert table.undo()
    again = table.submit(0, "T2")
    told = table.told(again, None)
    assert told is not None
    assert told.words == "White placed a triangle on point 2."
