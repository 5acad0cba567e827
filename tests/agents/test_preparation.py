"""An agent's preparation (its game's compiled code loaded behind one call) and the one function
that applies a time cap to an agent's text."""

from __future__ import annotations

import pytest

from fanfold.agents import create_agent, parse_agent, prepare, with_time_cap
from fanfold.agents.strategy import fano_fast, fantan_fast, has_compiled_code
from fanfold.core.errors import ConfigError
from fanfold.core.registry import all_games, get_game


@pytest.fixture
def loaded(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The compiled code each call loads, by game, instead of loading it."""
    calls: list[str] = []
    monkeypatch.setattr(fano_fast, "warm_up", lambda: calls.append("fano"))
    monkeypatch.setattr(fantan_fast, "warm_up", lambda: calls.append("fantan"))
    return calls


def test_prepare_loads_every_game_s_compiled_code_once(loaded: list[str]) -> None:
    said: list[str] = []
    prepare(say=said.append)
    assert sorted(loaded) == ["fano", "fantan"]
    # Each game's line names what it loads ("... from the cache..." once compiled).
    loading = [text for text in said if text.startswith("Loading ")]
    assert [text.split(" (")[0].removesuffix(" from the cache...") for text in loading] == [
        "Loading Fano's compiled search",
        "Loading Fan Tan's compiled search",
    ], said


@pytest.mark.parametrize(("name", "expected"), [("fano", ["fano"]), ("fantan", ["fantan"])])
def test_prepare_for_one_game_loads_its_code_only(
    loaded: list[str], name: str, expected: list[str]
) -> None:
    prepare(get_game(name))
    assert loaded == expected


def test_games_without_compiled_code_have_nothing_to_load(loaded: list[str]) -> None:
    for name in ("fan", "morris"):
        assert not has_compiled_code(get_game(name))
        prepare(get_game(name))
    assert loaded == []
    assert {game.name for game in all_games() if has_compiled_code(game)} == {"fano", "fantan"}


@pytest.mark.parametrize(
    ("game", "agent", "expected"),
    [
        ("fano", "hard", ["fano"]),
        ("fano", "mcts(tree=fast, playout=fast-heuristic)", ["fano"]),
        ("fano", "mcts", []),
        ("fano", "ladder", ["fano"]),
        ("fano", "ladder(compiled=false)", []),
        ("fantan", "hard", ["fantan"]),
        ("fantan", "pimc(fast=true)", ["fantan"]),
        ("fantan", "pimc", []),
        ("fantan", "heuristic", []),
    ],
)
def test_an_agent_prepares_the_compiled_search_it_uses(
    loaded: list[str], game: str, agent: str, expected: list[str]
) -> None:
    played = get_game(game)
    said: list[str] = []
    create_agent(agent, played, 1).prepare(played.default_config(), said.append)
    assert loaded == expected
    assert len(said) == len(expected)


@pytest.mark.parametrize(
    ("text", "seconds", "expected"),
    [
        ("mcts", 1.0, "mcts(seconds=1.0)"),
        ("mcts(seconds=5)", 1.0, "mcts(seconds=1.0)"),
        ("mcts(seconds=0.5)", 1.0, "mcts(seconds=0.5)"),
        ("mcts(seconds=0.5)", None, "mcts(seconds=0.5)"),
        ("hard", 3, "hard(seconds=3.0)"),
        ("random", 1.0, "random"),
        ("perfect", 1.0, "perfect"),
    ],
)
def test_the_time_cap_lowers_an_agent_s_own_and_fills_a_missing_one(
    text: str, seconds: float | None, expected: str
) -> None:
    assert str(with_time_cap(parse_agent(text), seconds)) == expected


@pytest.mark.parametrize("seconds", [0.0, -1.0])
def test_a_time_cap_is_more_than_nothing(seconds: float) -> None:
    with pytest.raises(ConfigError, match="more than 0 seconds"):
        with_time_cap(parse_agent("mcts"), seconds)
