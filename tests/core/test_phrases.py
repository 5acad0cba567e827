"""The games' words as codes (:class:`fanfold.core.phrases.Phrase`): the English sentence is
the code's template with its params, a part inside keeps its own code, a part that starts a
sentence inside a template is written with a capital, and a phrase survives pickling (tables
are kept in worker processes). Every game's moves (told and offered), endings and seats are
phrases."""

from __future__ import annotations

import pickle
import random

import pytest

from fanfold.core.errors import Refusal
from fanfold.core.phrases import PHRASES, Phrase, joined, listed, ordinal, said
from fanfold.core.registry import get_game


def test_a_phrase_is_its_english_sentence_and_keeps_its_code_and_params() -> None:
    seat = Phrase("game.player", number=2)
    assert seat == "Player 2"
    assert seat.to_json() == {"code": "game.player", "params": {"number": 2}}
    ending = Phrase("words.sentence_end", words=seat, ending="the end of it")
    assert ending == "Player 2. The end of it."  # a sentence inside starts with a capital
    assert ending.to_json()["params"] == {
        "words": {"code": "game.player", "params": {"number": 2}},
        "ending": "the end of it",
    }
    kept = pickle.loads(pickle.dumps(ending))
    assert kept == ending
    assert kept.to_json() == ending.to_json()
    assert said(ending) == ending.to_json()
    assert said("plain words") is None


def test_a_phrase_is_read_back_from_its_json() -> None:
    ending = Phrase("words.sentence_end", words=Phrase("game.player", number=2), ending="gone")
    back = Phrase.from_json(ending.to_json())
    assert back == ending == "Player 2. Gone."
    assert back.to_json() == ending.to_json()
    assert isinstance(back.params["words"], Phrase)
    with pytest.raises(ValueError, match="params"):
        Phrase.from_json({"code": "game.player", "params": [2]})
    with pytest.raises(KeyError):
        Phrase.from_json({"code": "no.such.code", "params": {}})


def test_ordinals_and_a_capital_start() -> None:
    found = {n: ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 102, 111)}
    assert [str(value) for value in found.values()] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "102nd", "111th",
    ]  # fmt: skip
    # the first is a word of its own (French "1er", then "2e", "21e"), the others the number
    assert found[1].code == "words.ordinal_first"
    assert found[1].params == {}
    assert found[21].code == "words.ordinal_st"
    assert found[21].params == {"number": 21}
    capital = Phrase("words.capital", words=Phrase("words.won", why="all home"))
    assert capital == "Won: all home"
    assert capital.params["words"] == "won: all home"


def test_lists_in_words() -> None:
    assert listed(["A♥"]) == "A♥"
    assert listed(["A♥", "2♠"]) == "A♥ and 2♠"
    three = listed(["A♥", "2♠", "3♣"])
    assert three == "A♥, 2♠ and 3♣"
    assert isinstance(three, Phrase)
    assert three.code == "words.list"
    assert joined(["a", "b", "c"], "words.and_also") == "a and b and c"


def test_a_wrong_code_or_wrong_params_are_refused() -> None:
    with pytest.raises(KeyError):
        Phrase("no.such.code")
    with pytest.raises(ValueError, match="takes"):
        Phrase("game.player")
    with pytest.raises(ValueError, match="takes"):
        Phrase("game.player", number=1, extra="x")


def test_a_refusal_carries_a_phrase_among_its_params_as_its_code() -> None:
    refusal = Refusal("game.not_legal", action=Phrase("game.player", number=3))
    assert refusal.startswith("Player 3 is not a legal move")
    assert refusal.to_json()["params"]["action"] == {
        "code": "game.player",
        "params": {"number": 3},
    }


def _coded(text: str) -> None:
    """``text`` is a phrase all the way down: every part a phrase, a number or a word."""
    assert isinstance(text, Phrase), text
    assert text.code in PHRASES
    for value in text.params.values():
        if isinstance(value, Phrase):
            _coded(value)


@pytest.mark.parametrize(
    ("name", "players"), [("morris", 2), ("fano", 2), ("fano", 3), ("fantan", 3), ("fan", 1)]
)
def test_every_move_ending_and_seat_of_a_game_is_a_phrase(name: str, players: int) -> None:
    """A game played out at random: each legal move's label, each move told to each seat and
    to a spectator, the ending (its words the outcome's reason) and the seats' names are
    phrases."""
    game = get_game(name)
    config = game.with_players(game.default_config(), players)
    state = game.new_state(config, seed=7)
    rng = random.Random(7)
    for seat in range(players):
        _coded(game.seat_name(config, seat))
    for _ in range(400):
        if game.outcome(state) is not None:
            break
        for choice in game.choices(state):
            _coded(choice.label)
        action = rng.choice(list(game.legal_actions(state)))
        after = game.apply(state, action)
        for observer in [*range(players), None]:
            told = game.describe_action(state, action, observer, after)
            if told:
                _coded(told)
        state = after
    ended = game.outcome(state)
    words = game.ending_words(state)
    if ended is None:
        assert words is None
    else:
        assert words is not None
        _coded(words)
        assert words == ended.reason  # the outcome keeps the plain sentence, cheap for bots
        assert type(ended.reason) is str
