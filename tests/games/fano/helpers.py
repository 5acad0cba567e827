"""Helpers shared by the Fano test modules."""

from __future__ import annotations

from fanfold.core.registry import get_game
from fanfold.games.fano import PRESETS, FanoConfig, FanoState
from fanfold.games.fano.cards import parse_card
from fanfold.games.fano.game import FanoGame

_GAME = get_game("fano")
assert isinstance(_GAME, FanoGame)
FANO: FanoGame = _GAME


def play(state: FanoState, *moves: str) -> FanoState:
    """The state after the moves, each written in the notation."""
    for move in moves:
        state = FANO.apply_text(state, move)
    return state


def cards(text: str) -> tuple[int, ...]:
    """Card codes of space-separated card texts, in canonical order."""
    return tuple(sorted(parse_card(word) for word in text.split()))


def legal_texts(state: FanoState) -> list[str]:
    """The legal actions' texts."""
    return [str(action) for action in FANO.legal_actions(state)]


TRIONFEY = FANO.preset("trionfey").config
TRIONFEY_PRESETS = [preset for preset in PRESETS if preset.config.trionfey]
#: Trionfey with tribute counters: hearts (Player 1) against diamonds.
SPECIALS = FANO.preset("trionfey-specials").config


def trionfey_position(text: str, config: FanoConfig = TRIONFEY) -> FanoState:
    """A Trionfey position: players given as '|' sections after a header."""
    return FANO.parse_position(text, config.replace(players=text.count("|")))


def tribute_config(suits: str) -> FanoConfig:
    """Trionfey with tribute counters, the seats commanding ``suits`` (e.g. ``DH``)."""
    return TRIONFEY.replace(tribute=True, suits=suits)


#: Turns in all that random games played out in tests get (they run to the turn limit).
SHORT_GAME_TURNS = 200


def short_games(config: FanoConfig) -> FanoConfig:
    """``config`` with the turn limit the tests' random games had before it became one per
    player: 200 turns in all, whatever the table size (400 each by default would make them
    up to 16 times longer)."""
    return config.replace(turns_per_player=max(1, SHORT_GAME_TURNS // config.players))
