"""The turn planner honours the table's restrictions in its search (an experiment's
``forbid=``, told through :meth:`Agent.restrict`): the seat's own turn, the opponent's answers
and the value of a position use only the kinds each seat may choose; without restrictions its
moves are exactly those it made before restrictions reached it."""

from __future__ import annotations

import hashlib
import random
from collections import Counter

import pytest

from fanfold.agents import create_agent
from fanfold.agents.planner import PlannerAgent
from fanfold.agents.strategy.fano_knowledge import FanoKnowledge
from fanfold.agents.strategy.fano_planner import plan, turn_value
from fanfold.core.kinds import action_kind, allowed
from fanfold.games.fano import FanoConfig, FanoState
from fanfold.games.fano.actions import FanoAction
from fanfold.games.fano.config import SpecialsMode
from fanfold.games.fano.state import Phase
from tests.games.fano.helpers import FANO, play

#: Every special for every seat. Seat 1 to move: its attacks take the 2C, Oversum combines of
#: AH and 7H are open to it now and later in its turn, and the opponent's 3C can hit back with
#: Reverse Fano.
CHOICE = FanoConfig(specials=SpecialsMode.CHOICE)
EXPOSED = "fano player=1 | hand=4H,6H field=AH,7H | hand=6C field=2C,3C known=6C"
SAFE = "7H>2C:6H"

Restrictions = tuple[tuple[str, ...], ...]
Applied = Counter[tuple[int, str]]


def _searched(
    monkeypatch: pytest.MonkeyPatch, rules: Restrictions, told: bool, replies: int = 0
) -> tuple[list[str], list[float], Applied]:
    """The planner's values of what the table offers seat 1 in :data:`EXPOSED` under the
    restrictions ``rules`` (told to the search or not), and how often its search applied each
    (seat, kind) beyond those first actions."""
    state = FANO.parse_position(EXPOSED, CHOICE)
    offered = allowed(FANO, state, FANO.legal_actions(state), rules[0])
    first = {id(action) for action in offered}
    applied: Applied = Counter()
    original = FANO.apply_legal

    def recording(position: FanoState, action: FanoAction) -> FanoState:
        seat = FANO.current_player(position)
        if id(action) not in first and seat is not None:
            applied[(seat, action_kind(action))] += 1
        return original(position, action)

    monkeypatch.setattr(FANO, "apply_legal", recording)
    values = plan(
        FANO,
        FanoKnowledge(FANO),
        FANO.observe(state, 0),
        offered,
        random.Random(1),
        2,
        60,
        replies=replies,
        reply_nodes=40,
        forbidden=rules if told else (),
    )
    monkeypatch.undo()
    return [str(action) for action in offered], values, applied


def test_a_forbidden_kind_never_enters_the_seats_own_planned_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rules = (("oversum",), ())
    # Offered no Oversum first, a search not told of the restriction still plans Oversum
    # combines later in the turn; told, it never does.
    _, _, before = _searched(monkeypatch, rules, told=False)
    _, _, after = _searched(monkeypatch, rules, told=True)
    assert before[(0, "combine+oversum")] > 0
    assert after[(0, "combine+oversum")] == 0
    assert sum(after.values()) > 0


#: A position of a ``specials-choice`` game (seat 1 to move, Oversum unused): the best turn
#: attacks first and combines with Oversum later; without Oversum a plain combine is best.
LATER = (
    "fano turn=11 player=1 phase=main | level=0 hand=3H,7H,TH field=2H,5H,6H,9H draw=AH,8H "
    "up=4H | level=0 hand=8C,TC field=AC,2C,3C,9C draw=4C,5C,6C up=7C"
)


def test_a_forbidden_oversum_later_in_the_turn_changes_the_first_action() -> None:
    state = FANO.parse_position(LATER, FANO.preset("specials-choice").config)
    offered = allowed(FANO, state, FANO.legal_actions(state), ("oversum",))
    view = FANO.observe(state, 0)
    best = []
    for rules in ((), (("oversum",), ())):
        values = plan(
            FANO, FanoKnowledge(FANO), view, offered, random.Random(1), 1, 40, forbidden=rules
        )
        best.append(str(offered[values.index(max(values))]))
    assert best == ["5H>2C:3H", "2H+5H=7H return 5H"]


def test_the_opponents_turn_uses_only_its_allowed_kinds(monkeypatch: pytest.MonkeyPatch) -> None:
    # With replies the opponent's answering turn is searched: unrestricted it reaches for
    # Reverse Fano; forbidden it, never.
    rules = ((), ("reverse",))
    _, _, before = _searched(monkeypatch, rules, told=False, replies=2)
    _, _, after = _searched(monkeypatch, rules, told=True, replies=2)
    assert before[(1, "attack+reverse")] > 0
    assert after[(1, "attack+reverse")] == 0
    assert sum(count for (seat, _), count in after.items() if seat == 1) > 0


def test_an_opponent_forbidden_reverse_fano_is_not_feared() -> None:
    state = FANO.parse_position(EXPOSED, CHOICE)
    left = play(state, SAFE, "pass")
    feared = turn_value(left, 0)
    # The 3C's only way at the seat's cards is reversed: forbidden it, or every attack, the
    # position is worth more; a restriction of the seat's own changes nothing here.
    assert turn_value(left, 0, ((), ("reverse",))) > feared + 0.3
    assert turn_value(left, 0, ((), ("attack",))) >= turn_value(left, 0, ((), ("reverse",)))
    assert turn_value(left, 0, (("defend",), ())) == feared
    assert turn_value(left, 0, ((), ())) == feared


def test_an_opponents_restriction_changes_the_planners_values(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    texts, feared, _ = _searched(monkeypatch, ((), ("reverse",)), told=False)
    same, relieved, _ = _searched(monkeypatch, ((), ("reverse",)), told=True)
    assert texts == same
    # Several turns (playing the 6H most) leave cards the 3C could hit only with Reverse
    # Fano: feared unless the opponent is forbidden it. No value falls.
    assert relieved[texts.index("play 6H")] > feared[texts.index("play 6H")] + 1
    assert all(after >= before for before, after in zip(feared, relieved, strict=True))


# ------------------------------------------------------------- unchanged without restrictions
def _game(config: FanoConfig, agents: list[str], seed: int, rules: Restrictions | None) -> str:
    """The SHA-256 of the first 60 action texts of a game between ``agents``, each told the
    restrictions ``rules`` (``None``: told nothing)."""
    agents = (agents * config.players)[: config.players]
    players = [create_agent(name, FANO, seed=seed + seat) for seat, name in enumerate(agents)]
    if rules is not None:
        for player in players:
            player.restrict(rules)
    state = FANO.new_state(config, seed)
    actions: list[str] = []
    while (seat := FANO.current_player(state)) is not None and len(actions) < 60:
        action = players[seat].choose(FANO.observe(state, seat), FANO.legal_actions(state))
        actions.append(str(action))
        state = FANO.apply_legal(state, action)
    return hashlib.sha256("\n".join(actions).encode()).hexdigest()


PLANNERS = ["planner(deals=1, nodes=40)", "planner(deals=2, nodes=40, replies=2, reply_nodes=20)"]
#: The planners' first 60 actions (``specials`` seed 21, ``trionfey-specials`` seed 22) as
#: they were before restrictions reached the search: without restrictions they never change.
BEFORE = {
    ("specials", 21): "017a0f4e4b914c2805e47716bb032a302bb3cd964ae6550f17972a3487ebb5dc",
    ("trionfey-specials", 22): "84144d84458fe211ba7a76d8fa2de8a9b27659779d806117329ba35a3e0f2dc9",
}


@pytest.mark.parametrize(("name", "seed"), sorted(BEFORE))
def test_without_restrictions_the_planner_plays_as_before(name: str, seed: int) -> None:
    config = FANO.preset(name).config
    assert _game(config, PLANNERS, seed, None) == BEFORE[(name, seed)]
    empty = tuple(() for _ in range(config.players))
    assert _game(config, PLANNERS, seed, empty) == BEFORE[(name, seed)]


def test_the_planner_keeps_what_it_is_told() -> None:
    agent = create_agent("planner(deals=1, nodes=40)", FANO)
    assert isinstance(agent, PlannerAgent)
    assert not agent.forbidden
    agent.restrict([("oversum",), ("reverse", "joker")])
    assert agent.forbidden == (("oversum",), ("reverse", "joker"))


#: A two-promotion Trionfey position (seat 1 to move): in the planner's search the opponent
#: answers some of its declarations with a combine counter.
DECLARING = (
    "fano turn=9 player=1 phase=main seed=3 attack=- foe=- support=- | level=0 hand=6H,8H,TH "
    "field=AH,5H,7H,9H draw=3H up=2H,4H down=- known=- specials=- protected=- shuffles=0 "
    "tribute=0 hidden=- | level=0 hand=8C,TC field=2C,4C,7C draw=5C,6C,AC,9C up=3C down=- "
    "known=- specials=- protected=- shuffles=0 tribute=0 hidden=-"
)


def _answers(monkeypatch: pytest.MonkeyPatch, rules: Restrictions) -> Applied:
    """The kinds the opponent answered seat 1's declarations with in the planner's search of
    :data:`DECLARING` under ``rules``."""
    state = FANO.parse_position(DECLARING, FANO.preset("trionfey").config)
    answers: Applied = Counter()
    original = FANO.apply_legal

    def recording(position: FanoState, action: FanoAction) -> FanoState:
        seat = FANO.current_player(position)
        if seat == 1 and position.phase is Phase.REACT:
            answers[(seat, action_kind(action))] += 1
        return original(position, action)

    monkeypatch.setattr(FANO, "apply_legal", recording)
    legal = FANO.legal_actions(state)
    view = FANO.observe(state, 0)
    plan(FANO, FanoKnowledge(FANO), view, legal, random.Random(1), 1, 40, forbidden=rules)
    monkeypatch.undo()
    return answers


def test_the_opponents_answer_to_a_declaration_uses_only_its_allowed_kinds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    free = _answers(monkeypatch, ((), ()))
    assert free[(1, "counter")] > 0
    restricted = _answers(monkeypatch, ((), ("counter",)))
    assert restricted[(1, "counter")] == 0
    assert restricted[(1, "allow")] > free[(1, "allow")]
