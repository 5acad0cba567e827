"""``onestep``, the toy bot of ``toy_pkg``, registered through its entry point: it plays the
built-in games by name, as any registered agent does."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from fanfold.agents.base import agent_names, create_agent, parse_agent
from fanfold.cli.app import app
from fanfold.core.errors import ConfigError
from fanfold.core.plugin import GamePlugin
from fanfold.core.registry import all_games, get_game
from fanfold.play.setup import play_game


@pytest.mark.usefixtures("pebbles")
@pytest.mark.parametrize("name", ["morris", "fantan", "fano", "fan"])
def test_it_plays_every_built_in_game_to_the_end(name: str) -> None:
    game = get_game(name)
    seats = ["onestep"] + ["random"] * (game.num_players(game.default_config()) - 1)
    table = play_game(game, None, seats, seed=5)
    assert table.outcome is not None
    assert table.finish().players[0] == "onestep"


def test_it_takes_a_win_on_the_spot(pebbles: GamePlugin) -> None:
    game = pebbles.game
    agent = create_agent("onestep", game, seed=1)
    for text, winning in (("2 1", "2"), ("3 2", "3"), ("1 1", "1")):
        state = game.parse_position(text)
        choice = agent.choose(game.observe(state, state.to_move), game.legal_actions(state))
        assert game.action_text(choice) == winning, text


@pytest.mark.usefixtures("pebbles")
def test_its_parameters_are_read_like_any_agents() -> None:
    assert str(parse_agent("onestep( samples = 8 )")) == "onestep(samples=8)"
    with pytest.raises(ConfigError, match="samples must be from 1 to 100"):
        parse_agent("onestep(samples=0)")
    assert all("onestep" in agent_names(game) for game in all_games())


def test_it_plays_a_built_in_game_from_the_command_line(pebbles: GamePlugin) -> None:
    del pebbles
    result = CliRunner().invoke(
        app, ["play", "morris", "--white", "onestep", "--black", "random", "--seed", "2"]
    )
    assert result.exit_code == 0, result.output
    assert "Game over:" in result.output


def test_without_the_package_it_is_unknown() -> None:
    assert "onestep" not in agent_names()
    assert "pebbles" not in {game.name for game in all_games()}
