"""Helpers shared by the Fano test modules."""

from __future__ import annotations

from fanfold.core.registry import get_game
from fanfold.games.fano import FanoState
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
