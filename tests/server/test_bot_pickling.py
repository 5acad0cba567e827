"""A bot decision goes to its worker process pickled by the pool's own pickler
(:func:`fanfold.server.bots.pickling.dumps`): the same bytes as multiprocessing's pickler
gives, made without looking up a slotted dataclass's fields for every card and move."""

from __future__ import annotations

import dataclasses
import pickle
import random
from multiprocessing.reduction import ForkingPickler
from typing import Any

import pytest

from fanfold.core.registry import get_game
from fanfold.play.setup import make_seats, new_table
from fanfold.server.bots import Decision, decide
from fanfold.server.bots.pickling import FIELDS, dumps


def _decision(game_id: str, steps: int) -> Decision:
    game = get_game(game_id)
    config = game.default_config()
    count = game.num_players(config)
    table = new_table(game, config, make_seats(game, ["human"] * count, 1), seed=11)
    rng = random.Random(3)
    for _ in range(steps):
        if table.decider is None:
            break
        table.submit(table.decider, rng.choice(table.legal_texts()))
    seat = table.decider
    assert seat is not None
    return Decision(
        "Xc3k9aP2qLmT.s1",
        seat,
        game.id,
        "random",
        5,
        table.view(seat),
        tuple(table.legal_actions()),
    )


@pytest.mark.parametrize("game_id", ["fano", "fantan", "morris", "fan"])
@pytest.mark.parametrize("steps", [0, 5])
def test_a_decision_pickles_to_the_same_bytes_and_reads_back_equal(
    game_id: str, steps: int
) -> None:
    decision = _decision(game_id, steps)
    call = (7, decide, (decision,))
    made = dumps(call)
    assert made == bytes(ForkingPickler.dumps(call))
    number, function, (read,) = pickle.loads(made)
    assert (number, function, read) == (7, decide, decision)
    assert read.view == decision.view
    assert read.legal == decision.legal
    # The pickler reduced the slotted dataclasses itself (the game's cards, moves or views).
    assert any(names is not None for names in FIELDS.values())


@dataclasses.dataclass(frozen=True, slots=True)
class _Plain:
    rank: int
    suit: str


@dataclasses.dataclass(frozen=True, slots=True)
class _OwnState:
    value: int

    def __getstate__(self) -> Any:
        return {"told": self.value}

    def __setstate__(self, state: Any) -> None:
        object.__setattr__(self, "value", state["told"] + 1)


def test_only_slotted_dataclasses_with_the_standard_state_are_reduced_by_the_pool() -> None:
    assert pickle.loads(dumps(_Plain(3, "S"))) == _Plain(3, "S")
    assert FIELDS[_Plain] == ("rank", "suit")
    # A class with its own state is pickled by its own methods, as multiprocessing would.
    assert pickle.loads(dumps(_OwnState(1))) == _OwnState(2)
    assert FIELDS[_OwnState] is None
