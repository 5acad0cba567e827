"""Fano's agents beside the strategy: ``heuristic-v1`` (the fixed reference), ``greedy`` (the
view-only yardstick) and ``planner`` (whole turns searched): legal and reproducible in every
preset, the planner's time cap, and the pieces of their judgement."""

from __future__ import annotations

import dataclasses
import hashlib
import random
from collections.abc import Callable

import pytest

from fanfold.agents import create_agent, registered_agent
from fanfold.agents import planner as planner_module
from fanfold.agents.fano_greedy import GreedyAgent, _Scorer, chance_held
from fanfold.agents.planner import PlannerAgent, PlannerConfig
from fanfold.agents.strategy import fano_planner
from fanfold.agents.strategy.fano_knowledge import FanoKnowledge
from fanfold.agents.strategy.fano_planner import WIN, holds_chance, plan, turn_value
from fanfold.core.errors import ConfigError
from fanfold.games.fano import FanoConfig, FanoState
from fanfold.games.fano.actions import FanoAction
from fanfold.games.fano.view import FanoView
from tests.games.fano.helpers import FANO, play

PRESETS = [preset.name for preset in FANO.presets()]
AGENTS = ("heuristic-v1", "greedy", "planner")


def _game(config: FanoConfig, agents: list[str], seed: int) -> list[str]:
    """The action texts of a game between ``agents`` (one a seat, in turn order), each action
    checked legal."""
    players = [create_agent(name, FANO, seed=seed + seat) for seat, name in enumerate(agents)]
    state = FANO.new_state(config, seed)
    actions = []
    while (seat := FANO.current_player(state)) is not None:
        legal = FANO.legal_actions(state)
        action = players[seat].choose(FANO.observe(state, seat), legal)
        assert action in legal, f"{action} is not legal in {FANO.format_position(state)}"
        actions.append(str(action))
        state = FANO.apply_legal(state, action)
    return actions


def _short(name: str, turns: int) -> FanoConfig:
    config: FanoConfig = FANO.preset(name).config
    return config.replace(turns_per_player=turns)


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("agent", ["greedy", "planner"])
def test_the_new_agents_play_legal_reproducible_games_in_every_preset(
    name: str, agent: str
) -> None:
    config = _short(name, 6)
    seats = [agent, *["heuristic-v1"] * (config.players - 1)]
    first = _game(config, seats, 3)
    assert first == _game(config, seats, 3)
    # Every seat the same agent too (partnerships, three or more players).
    assert _game(config, [agent] * config.players, 4)


@pytest.mark.parametrize("name", PRESETS)
def test_the_planner_with_replies_plays_legal_reproducible_games_in_every_preset(
    name: str,
) -> None:
    config = _short(name, 3)
    seats = ["planner(deals=2, replies=2, reply_nodes=20)"]
    seats += ["heuristic-v1"] * (config.players - 1)
    assert _game(config, seats, 5) == _game(config, seats, 5)


@pytest.mark.parametrize("players", [3, 4])
def test_the_planner_chooses_whom_to_attack_in_trionfey(players: int) -> None:
    config = FANO.with_players(_short("trionfey", 8), players)
    assert _game(config, ["planner", "greedy", *["heuristic-v1"] * (players - 2)], 1)


#: The first 40 actions of two heuristic-v1 games (classic seed 11, Trionfey seed 12), as the
#: SHA-256 of their texts joined by newlines: the reference must never change its moves.
HEURISTIC_V1_GAMES = {
    ("classic", 11): "084b14916e98bb1431c2f4e7eebd995ac75c895523c32e610a1af327eb9c6273",
    ("trionfey", 12): "4fc0707d85c9b66ca95394745ebd4b2a57f5cd006cfde3e28b2ba772e2633467",
}


@pytest.mark.parametrize(("name", "seed"), sorted(HEURISTIC_V1_GAMES))
def test_heuristic_v1_never_changes_its_moves(name: str, seed: int) -> None:
    actions = _game(FANO.preset(name).config, ["heuristic-v1", "heuristic-v1"], seed)
    digest = hashlib.sha256("\n".join(actions[:40]).encode()).hexdigest()
    assert digest == HEURISTIC_V1_GAMES[(name, seed)]


def test_the_agents_are_registered_for_fano_only() -> None:
    for name in AGENTS:
        assert registered_agent(name).supports(FANO)
        morris = __import__("fanfold.core.registry", fromlist=["get_game"]).get_game("morris")
        assert not registered_agent(name).supports(morris)
    assert isinstance(create_agent("greedy", FANO), GreedyAgent)
    assert isinstance(create_agent("planner(deals=2, nodes=40)", FANO), PlannerAgent)


@pytest.mark.parametrize(
    "text",
    [
        "planner(deals=0)",
        "planner(nodes=-1)",
        "planner(seconds=0)",
        "planner(replies=-1)",
        "planner(reply_nodes=-1)",
        "planner(turn_seconds=0)",
    ],
)
def test_planner_settings_are_checked(text: str) -> None:
    with pytest.raises(ConfigError):
        create_agent(text, FANO)


# ---------------------------------------------------------------- the judgement's pieces
#: Seat 1 to move. Both of its attacks take the 2C. ``AH>2C:4H`` leaves 4H and 7H in play,
#: each of which the opponent's 3C hits back (4H with the 6C it is known to hold); ``7H>2C:6H``
#: leaves AH and 6H, which nothing of the opponent's attacks.
EXPOSED = "fano player=1 | hand=4H,6H field=AH,7H | hand=6C field=2C,3C known=6C"
RISKY, SAFE = "AH>2C:4H", "7H>2C:6H"


def _position() -> tuple[FanoState, FanoView, list[FanoAction]]:
    state = FANO.parse_position(EXPOSED)
    view = FANO.observe(state, 0)
    return state, view, list(FANO.legal_actions(state))


def test_a_card_left_to_a_free_counter_attack_lowers_the_turn_value() -> None:
    state, _, _ = _position()
    risky = turn_value(play(state, RISKY, "pass"), 0)
    safe = turn_value(play(state, SAFE, "pass"), 0)
    assert safe > risky + 0.5


def test_the_planner_prefers_the_safe_attack() -> None:
    _, view, legal = _position()
    texts = [str(action) for action in legal]
    values = plan(FANO, FanoKnowledge(FANO), view, legal, random.Random(1), 2, 60)
    assert values[texts.index(SAFE)] == max(values)
    assert values[texts.index(SAFE)] > values[texts.index(RISKY)]


def test_the_greedy_player_prefers_the_safe_attack() -> None:
    _, view, legal = _position()
    texts = [str(action) for action in legal]
    scores = _Scorer(view).scores(legal)
    assert scores[texts.index(SAFE)] > scores[texts.index(RISKY)]


def test_the_chance_of_a_support_reads_only_what_is_in_sight() -> None:
    state, view, _ = _position()
    opponent = state.players[1]
    # Known in hand: certain. The 5C: one copy among the 7 hidden cards (its draw pile), of
    # which it will hold 2 beside the 6C once it has drawn to three.
    assert holds_chance(state.config, opponent, 1, 6) == 1.0
    assert chance_held(view, 1, 6) == 1.0
    expected = 1 - (6 * 5) / (7 * 6)
    assert holds_chance(state.config, opponent, 1, 5) == pytest.approx(expected)
    assert chance_held(view, 1, 5) == pytest.approx(expected)
    # The 2C and 3C are in play: no other copy.
    assert holds_chance(state.config, opponent, 1, 2) == 0.0
    # The dealt hand is never read: another deal of the same view gives the same chances.
    dealt = FANO.sample_state(view, random.Random(5))
    assert holds_chance(dealt.config, dealt.players[1], 1, 5) == pytest.approx(expected)


def test_a_decided_game_is_worth_more_than_any_position() -> None:
    state = FANO.parse_position("fano player=1 | level=2 field=8H,9H,TH | field=2C,3C")
    won = play(state, "promote 8H 9H TH")
    assert turn_value(won, 0) == WIN
    assert turn_value(won, 1) == -WIN


class _Clock:
    """A clock that moves on by ``step`` each time it is read."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def _counting(calls: list[int]) -> Callable[[FanoView, random.Random], FanoState]:
    original = FANO.sample_state

    def deal(view: FanoView, rng: random.Random) -> FanoState:
        calls.append(1)
        return original(view, rng)

    return deal


def test_the_time_cap_stops_dealing_and_searching(monkeypatch: pytest.MonkeyPatch) -> None:
    _, view, legal = _position()
    calls: list[int] = []
    monkeypatch.setattr(FANO, "sample_state", _counting(calls))
    # Each clock reading takes 10 s: the 1 s cap has passed before any search starts.
    capped = PlannerAgent(FANO, PlannerConfig(deals=5, nodes=500, seconds=1.0), 1, _Clock(10.0))
    assert capped.choose(view, legal) in legal
    assert len(calls) == 1
    calls.clear()
    free = PlannerAgent(FANO, PlannerConfig(deals=5, nodes=500), 1, _Clock(10.0))
    assert free.choose(view, legal) in legal
    assert len(calls) == 5


def test_past_the_deadline_a_turn_ends_with_its_best_end_action() -> None:
    _, view, legal = _position()
    searched = []
    for deadline in (None, 0.0):
        values = plan(
            FANO, FanoKnowledge(FANO), view, legal, random.Random(1), 1, 500, deadline, _Clock(1.0)
        )
        searched.append(values)
    # Without time the attack's turn goes on (the support's play after it); with none, the
    # attack is judged by the end action right after it: never more.
    texts = [str(action) for action in legal]
    index = texts.index(SAFE)
    assert searched[1][index] <= searched[0][index]


# ---------------------------------------------------------------- the opponent's answer
#: Seat 1 to move; the opponent, a King, holds the 10C (known to all) and has 4C and 6C in
#: play beside 8C and 9C: unless the seat's only attack takes the 4C, the opponent combines
#: 4C+6C=TC and promotes a third time, winning.
WINNING_ANSWER = "fano player=1 | hand=AH,5H field=2H | level=2 hand=TC field=4C,6C,8C,9C known=TC"
STOP = "2H>4C:AH"


def test_the_opponents_answer_shows_the_turn_that_loses() -> None:
    state = FANO.parse_position(WINNING_ANSWER)
    view = FANO.observe(state, 0)
    legal = list(FANO.legal_actions(state))
    texts = [str(action) for action in legal]
    knowledge = FanoKnowledge(FANO)
    alone = plan(FANO, knowledge, view, legal, random.Random(1), 2, 60)
    answered = plan(
        FANO, knowledge, view, legal, random.Random(1), 2, 60, replies=2, reply_nodes=20
    )
    # Judged by what it leaves, another turn looks at least as good as the attack...
    assert max(alone) > alone[texts.index(STOP)]
    # ... but every turn that leaves the 4C lets the opponent win (-WIN on both deals).
    assert answered[texts.index(STOP)] == max(answered)
    for text, value in zip(texts, answered, strict=True):
        if text != STOP:
            assert value < -1.9 * WIN


def test_the_planner_with_replies_stops_the_winning_answer() -> None:
    state = FANO.parse_position(WINNING_ANSWER)
    legal = list(FANO.legal_actions(state))
    agent = create_agent("planner(deals=2, replies=2, reply_nodes=20)", FANO, seed=1)
    assert str(agent.choose(FANO.observe(state, 0), legal)) == STOP


def test_past_the_deadline_the_answers_are_not_searched(monkeypatch: pytest.MonkeyPatch) -> None:
    state = FANO.parse_position(WINNING_ANSWER)
    view = FANO.observe(state, 0)
    legal = list(FANO.legal_actions(state))
    searches: list[fano_planner._Search] = []

    class Counted(fano_planner._Search):
        def __post_init__(self) -> None:
            super().__post_init__()
            searches.append(self)

    monkeypatch.setattr(fano_planner, "_Search", Counted)
    knowledge = FanoKnowledge(FANO)
    for deadline in (None, 0.0):
        searches.clear()
        plan(FANO, knowledge, view, legal, random.Random(1), 2, 60, deadline, _Clock(1.0), 2, 20)
        answers = [search for search in searches if search.seat == 1]
        assert answers
        if deadline is None:
            assert len(searches) == 2 + len(answers)
            assert any(search.nodes for search in answers)
        else:
            # One deal only, and no position of any turn searched: each ended at once.
            assert len(searches) == 1 + len(answers)
            assert not any(search.nodes for search in searches)


class _Manual:
    """A clock read by the agent and moved on only by the stand-in search."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_turns_decisions_share_the_turn_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    _, view, legal = _position()
    clock = _Manual()
    given: list[float] = []

    def searching(*args: object) -> list[float]:
        deadline = args[7]
        assert isinstance(deadline, float)
        given.append(round(deadline - clock.now, 6))
        clock.now += 0.8
        return [0.0] * len(legal)

    monkeypatch.setattr(planner_module, "plan", searching)
    config = PlannerConfig(seconds=1.0, turn_seconds=2.0)
    agent = PlannerAgent(FANO, config, 1, clock)
    for turn in (view.turn, view.turn, view.turn, view.turn, view.turn + 1):
        agent.choose(dataclasses.replace(view, turn=turn), legal)
    # 1 s each while the turn's 2 s last (0.8 s spent, then 1.6 s), then what is left (0.4 s),
    # then none; a new turn has its own.
    assert given == [1.0, 1.0, 0.4, 0.0, 1.0]
    assert PlannerConfig(seconds=1.0).turn_cap() == 3.0
    assert PlannerConfig().turn_cap() is None
