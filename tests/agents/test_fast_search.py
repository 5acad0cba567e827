"""Search with ``tree=fast``: the compiled Fano search behind the IS-MCTS agent."""

from __future__ import annotations

import dataclasses
import random

import pytest

from fanfold.agents import create_agent, fast_search
from fanfold.agents.fast_search import CHUNK, LEAST_ITERATIONS, MAX_NODES
from fanfold.agents.mcts import MCTSAgent, MCTSConfig
from fanfold.agents.strategy.fano_knowledge import FanoKnowledge
from fanfold.agents.strategy.fano_search import Search
from fanfold.core.errors import ConfigError
from fanfold.core.registry import get_game
from fanfold.games.fano import FanoState
from fanfold.games.fano.actions import FanoAction
from fanfold.games.fano.game import FanoGame
from fanfold.games.fano.view import FanoView

GAME = get_game("fano")
assert isinstance(GAME, FanoGame)
FANO: FanoGame = GAME


def _agent(seed: int = 1, **options: object) -> MCTSAgent[FanoView, FanoAction]:
    settings: dict[str, object] = {
        "iterations": 60,
        "rollout_limit": 10,
        "widening": 1.0,
        "playout": "fast-heuristic",
        "tree": "fast",
        "deals": 8,
    }
    settings.update(options)
    return MCTSAgent(FANO, MCTSConfig(**settings), seed=seed)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"tree": "numba"}, "tree must be one of python, fast, not 'numba'"),
        ({"tree": "fast", "playout": "heuristic"}, "tree=fast needs playout=fast-heuristic"),
        ({"tree": "fast", "playout": "fast-heuristic", "deals": 0}, "deals must be at least 1"),
    ],
)
def test_bad_settings_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        MCTSConfig(**options).validate()  # type: ignore[arg-type]


def test_the_settings_parse_from_text() -> None:
    agent = create_agent("mcts(playout=fast-heuristic, tree=fast, deals=16, iterations=30)", FANO)
    assert isinstance(agent, MCTSAgent)
    assert agent.config.tree == "fast"
    assert agent.config.deals == 16


def _midgame(preset: str, seed: int, players: int = 2) -> FanoState:
    config = FANO.with_players(FANO.preset(preset).config, players)
    state = FANO.new_state(config, seed)
    rng = random.Random(seed)
    for _ in range(25):
        legal = FANO.legal_actions(state)
        state = FANO.apply_legal(state, legal[rng.randrange(len(legal))])
    # On to a position that needs a search (no promotion, no draw-phase question).
    knowledge = FanoKnowledge(FANO)
    while True:
        player = FANO.current_player(state)
        assert player is not None
        legal = FANO.legal_actions(state)
        if len(legal) > 1 and knowledge.obvious(FANO.observe(state, player), legal) is None:
            return state
        state = FANO.apply_legal(state, legal[rng.randrange(len(legal))])


@pytest.mark.parametrize(
    ("preset", "players"),
    [("classic", 2), ("specials", 2), ("trionfey-specials", 2), ("classic", 4)],
)
def test_seeded_games_get_only_legal_moves(preset: str, players: int) -> None:
    """Every seat searched by the compiled tree, to the end of short games."""
    config = FANO.with_players(FANO.preset(preset).config, players)
    config = config.replace(turns_per_player=8)
    searched = 0
    for seed in range(2):
        agents = [_agent(seed * 10 + seat, iterations=40) for seat in range(players)]
        state = FANO.new_state(config, seed)
        while (player := FANO.current_player(state)) is not None:
            legal = FANO.legal_actions(state)
            agent = agents[player]
            agent.last_search = None
            action = agent.choose(FANO.observe(state, player), legal)
            assert action in legal
            if agent.last_search is not None:
                assert isinstance(agent.last_search, Search)
                assert agent.last_search.iterations == 40
                searched += 1
            state = FANO.apply_legal(state, action)
    assert searched >= 10


def test_the_same_seed_gives_the_same_moves() -> None:
    moves = []
    for _ in range(2):
        agent = _agent(seed=7)
        found = []
        for seed in range(4):
            state = _midgame("classic", seed)
            player = FANO.current_player(state)
            assert player is not None
            found.append(agent.choose(FANO.observe(state, player), FANO.legal_actions(state)))
            assert isinstance(agent.last_search, Search)
        moves.append(found)
    assert moves[0] == moves[1]


def test_a_time_cap_stops_the_search_between_chunks() -> None:
    state = _midgame("classic", 3)
    player = FANO.current_player(state)
    assert player is not None
    legal = FANO.legal_actions(state)
    agent = _agent(iterations=10**7, seconds=0.05)
    assert agent.choose(FANO.observe(state, player), legal) in legal
    search = agent.last_search
    assert isinstance(search, Search)
    assert 0 < search.iterations < 10**7
    assert search.tree.shape[0] == MAX_NODES


def test_a_game_without_a_compiled_search_uses_the_python_tree() -> None:
    game = get_game("fantan")
    state = game.new_state(game.default_config(), 1)
    player = game.current_player(state)
    assert player is not None
    legal = game.legal_actions(state)
    config = MCTSConfig(iterations=20, playout="fast-heuristic", tree="fast", rollout_limit=5)
    agent = MCTSAgent(game, config, seed=1)
    assert agent.choose(game.observe(state, player), legal) in legal
    assert agent.last_search is None


class _Clock:
    """A clock that moves on by ``step`` each time it is read."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def _capped(step: float, **options: object) -> tuple[MCTSAgent[FanoView, FanoAction], Search]:
    """The compiled search's decision in a classic midgame under ``_Clock(step)``."""
    state = _midgame("classic", 3)
    player = FANO.current_player(state)
    assert player is not None
    legal = FANO.legal_actions(state)
    agent = _agent(1, **options)
    agent.clock = _Clock(step)
    assert agent.choose(FANO.observe(state, player), legal) in legal
    assert isinstance(agent.last_search, Search)
    return agent, agent.last_search


def test_under_a_cap_dealing_takes_a_third_of_the_time_and_the_search_the_rest() -> None:
    # Each look at the clock takes 0.1 s of a 1 s decision: dealing stops once 1/3 s has
    # passed, the search at the first look past 1 s (between chunks of 32 iterations).
    _, search = _capped(0.1, iterations=100_000, deals=64, seconds=1.0)
    assert 1 < len(search.deals) < 64
    assert LEAST_ITERATIONS < search.iterations < 100_000
    # Without a cap: every deal and every iteration, whatever the clock says.
    _, free = _capped(10.0, iterations=300, deals=64)
    assert len(free.deals) == 64
    assert free.iterations == 300


def test_a_spent_decision_still_searches_one_deal_and_one_chunk() -> None:
    # The first look at the clock is already past the cap.
    _, search = _capped(10.0, iterations=100_000, deals=64, seconds=1.0)
    assert len(search.deals) == 1
    assert search.iterations == LEAST_ITERATIONS


def test_a_turns_decisions_share_the_turn_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _midgame("classic", 3)
    player = FANO.current_player(state)
    assert player is not None
    view = FANO.observe(state, player)
    legal = FANO.legal_actions(state)
    now = [0.0]
    given: list[float] = []

    def searching(
        agent: object, view: object, legal: list[FanoAction], started: float, allowance: float
    ) -> FanoAction:
        del agent, view
        given.append(round(allowance, 6))
        assert started == now[0]
        now[0] += 0.8
        return legal[0]

    monkeypatch.setattr(fast_search, "choose_fast", searching)
    agent = _agent(seconds=1.0, turn_seconds=2.0)
    agent.clock = lambda: now[0]
    monkeypatch.setattr(agent.knowledge, "obvious", lambda view, legal: None)
    for turn in (view.turn, view.turn, view.turn, view.turn, view.turn + 1):
        agent.choose(dataclasses.replace(view, turn=turn), legal)
    # 1 s each while the turn's 2 s last (0.8 s spent, then 1.6 s), then what is left (0.4 s),
    # then none; a new turn has its own.
    assert given == [1.0, 1.0, 0.4, 0.0, 1.0]
    assert MCTSConfig(seconds=1.0).turn_cap() == 3.0
    assert MCTSConfig().turn_cap() is None
    with pytest.raises(ConfigError, match="turn_seconds must be more than 0"):
        MCTSConfig(seconds=1.0, turn_seconds=0).validate()


def test_near_the_deadline_the_chunks_shrink_to_the_time_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Each iteration takes 7 ms on a clock that only the search moves: 1 s holds 142 of them,
    # and the last chunks are cut to what fits, so the decision ends within one iteration of
    # its cap instead of a whole chunk (32 iterations, 0.224 s) past it.
    now = [0.0]
    chunks: list[int] = []
    real = Search.run

    def timed(self: Search, iterations: int) -> int:
        chunks.append(iterations)
        now[0] += 0.007 * iterations
        return real(self, iterations)

    monkeypatch.setattr(Search, "run", timed)
    state = _midgame("classic", 3)
    player = FANO.current_player(state)
    assert player is not None
    agent = _agent(1, iterations=100_000, seconds=1.0)
    agent.clock = lambda: now[0]
    agent.choose(FANO.observe(state, player), FANO.legal_actions(state))
    assert chunks[0] == LEAST_ITERATIONS
    assert max(chunks) == CHUNK
    assert chunks[-1] < CHUNK
    assert sum(chunks) in (142, 143)
    assert now[0] <= 1.0 + 0.007 + 1e-9


# ------------------------------------------------------------------- what the seat sees


@pytest.mark.parametrize("preset", ["classic", "trionfey"])
def test_states_with_the_same_view_get_the_same_search(preset: str) -> None:
    """Two true states that the seat cannot tell apart (the others' hands, draw piles and
    face-down cards dealt again consistently with its view) get the same move and the same
    search statistics from the same seed: nothing the seat cannot see reaches the search."""
    rng = random.Random(11)
    for seed in range(4):
        state = _midgame(preset, seed)
        player = FANO.current_player(state)
        assert player is not None
        view = FANO.observe(state, player)
        other = FANO.sample_state(view, rng)
        assert FANO.observe(other, player) == view
        hidden = [(seat.hand, seat.draw) for seat in state.players]
        assert hidden != [(seat.hand, seat.draw) for seat in other.players]
        searches = []
        for true_state in (state, other):
            agent = _agent(3, iterations=200, exploration=0.1)
            move = agent.choose(FANO.observe(true_state, player), FANO.legal_actions(true_state))
            assert isinstance(agent.last_search, Search)
            searches.append((move, agent.last_search.root_children()))
        assert searches[0] == searches[1]
