"""Fano positions where the right move is clear by the rules, and the move ``hard`` (at a
small fixed budget, so that the answer is reproducible and quick) and the ladder's balanced
member play there: promotion races in the classic game, a declaration that must be real
against a bluff in Trionfey, and the promotions that win at once in both editions.

Each position is written in the game's notation (:mod:`fanfold.games.fano.notation`); the
seat to move is player 1 (seat 0) unless the moves listed after it hand the decision on.
"""

from __future__ import annotations

import dataclasses

import pytest

from fanfold.agents import create_agent, parse_agent
from fanfold.agents.base import AgentSpec
from fanfold.agents.ladder.agent import LadderConfig
from fanfold.agents.levels import level_agent
from fanfold.games.fano import FanoState
from tests.games.fano.helpers import FANO


def _hard() -> AgentSpec:
    """``hard`` as its level sets it, with a small fixed budget (4 deals) and no time cap."""
    spec = parse_agent(level_agent(FANO, "hard"))
    assert isinstance(spec.config, LadderConfig)
    return dataclasses.replace(spec, config=dataclasses.replace(spec.config, deals=4))


def _position(edition: str, text: str, *moves: str) -> FanoState:
    state = FANO.parse_position(text, FANO.preset(edition).config)
    for move in moves:
        state = FANO.apply_text(state, move)
    return state


def _choice(agent: str, state: FanoState, seed: int) -> str:
    seat = FANO.current_player(state)
    assert seat is not None
    player = create_agent(agent, FANO, seed=seed)
    return str(player.choose(FANO.observe(state, seat), FANO.legal_actions(state)))


#: (name, edition, position, what the right move starts with, why).
POSITIONS = [
    (
        "the third promotion wins (classic)",
        "classic",
        "fano player=1 | level=2 hand=2H field=8H,9H,TH | level=2 field=3C",
        ("promote 8H 9H TH",),
    ),
    (
        "the second promotion wins (Trionfey)",
        "trionfey",
        "fano player=1 | level=1 hand=2H field=8H,9H,TH | level=1 field=3C",
        ("promote 8H 9H TH",),
    ),
    (
        # 3 + 5 = 8 makes the third prestige card; promoting after it wins.
        "combine for the last prestige card, then promote (classic)",
        "classic",
        "fano player=1 | level=2 hand=8H field=3H,5H,9H,TH | level=2 field=3C",
        ("3H+5H=8H",),
    ),
    (
        "combine for the last prestige card, then promote (Trionfey)",
        "trionfey",
        "fano player=1 | level=1 hand=8H field=3H,5H,9H,TH | level=1 field=3C",
        ("3H+5H=8H",),
    ),
    (
        # The rival shows the 8 it holds: 2C + 6C = 8C next turn completes 8, 9, 10 and
        # wins. Only the 6C can be taken (4H attacks it, the 3H supports): the race is lost
        # otherwise.
        "stop the rival's winning promotion (classic)",
        "classic",
        "fano player=1 | level=2 hand=3H,5H field=4H,AH"
        " | level=2 hand=8C known=8C field=2C,6C,9C,TC",
        ("4H>6C:3H",),
    ),
    (
        # The same race in Trionfey: the declaration on the 6C is real (the 3H supports it)
        # and the rival can answer with no counter (a combine counter must make a combat
        # card, and its hand is the 8C); the bluff on the 2C would fail.
        "a real declaration, not a bluff, stops the rival's promotion (Trionfey)",
        "trionfey",
        "fano player=1 | level=1 hand=3H,5H field=4H,AH"
        " | level=1 hand=8C known=8C field=2C,6C,9C,TC",
        ("4H>6C",),
    ),
]


@pytest.mark.parametrize(
    ("edition", "text", "right"), [entry[1:] for entry in POSITIONS], ids=[e[0] for e in POSITIONS]
)
@pytest.mark.parametrize("agent", ["hard", "ladder"])
def test_the_right_move_is_played(
    edition: str, text: str, right: tuple[str, ...], agent: str
) -> None:
    state = _position(edition, text)
    legal = [str(action) for action in FANO.legal_actions(state)]
    assert any(move.startswith(right) for move in legal), legal
    chosen = _choice(str(_hard()) if agent == "hard" else agent, state, seed=3)
    assert chosen.startswith(right), (agent, chosen)


def test_the_answer_does_not_hang_on_the_seed() -> None:
    state = _position(*POSITIONS[-1][1:3])
    assert {_choice(str(_hard()), state, seed=seed) for seed in range(3)} == {"4H>6C"}
