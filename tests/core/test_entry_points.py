"""Games and agents from other packages, registered through entry points, beside the built-in
ones registered from their explicit lists."""

from __future__ import annotations

from importlib.metadata import EntryPoint
from typing import ClassVar

import pytest

import fanfold
from fanfold.agents import base as agent_registry
from fanfold.agents.base import RegisteredAgent, agent_names
from fanfold.agents.builtin import BUILTIN_AGENTS
from fanfold.core import registry
from fanfold.core.plugin import GamePlugin, WebHints
from fanfold.core.registry import all_games, all_plugins, get_game, plugin_of
from fanfold.games.morris import MorrisGame


class PluginGame(MorrisGame):
    """A game another package could ship (Morris's rules under a new id)."""

    id: ClassVar[str] = "plugmorris.v1"
    aliases: ClassVar[tuple[str, ...]] = ("plug",)


PLUGIN_GAME = PluginGame()


class OtherPluginGame(MorrisGame):
    """Another game a package could ship, with its plugin."""

    id: ClassVar[str] = "otherplug.v1"


OTHER_PLUGIN = GamePlugin(OtherPluginGame(), clock="blitz", web=WebHints(order=7))
NOT_A_GAME = "morris"
PLUGIN_AGENTS = (
    RegisteredAgent(
        "plugbot", BUILTIN_AGENTS[0].config, BUILTIN_AGENTS[0].make, "a bot", lambda g: True, 1
    ),
)
CLASHING_AGENTS = (
    RegisteredAgent("random", BUILTIN_AGENTS[0].config, BUILTIN_AGENTS[0].make, "x", bool, 1),
)


def _entry(group: str, value: str, name: str = "plugin") -> EntryPoint:
    return EntryPoint(name=name, value=value, group=group)


@pytest.fixture
def games(monkeypatch: pytest.MonkeyPatch) -> None:
    """The game registry as it is now, restored after the test."""
    monkeypatch.setattr(registry, "_GAMES", dict(registry._GAMES))
    monkeypatch.setattr(registry, "_PLUGINS", dict(registry._PLUGINS))
    monkeypatch.setattr(registry, "_ALIASES", dict(registry._ALIASES))


@pytest.fixture
def agents(monkeypatch: pytest.MonkeyPatch) -> None:
    """The agent registry as it is now, restored after the test."""
    monkeypatch.setattr(agent_registry, "_AGENTS", dict(agent_registry._AGENTS))


def test_the_built_in_games_come_from_their_explicit_list() -> None:
    assert tuple(all_games()[: len(fanfold.BUILTIN_GAMES)]) == fanfold.BUILTIN_GAMES
    assert [game.name for game in fanfold.BUILTIN_GAMES] == ["fan", "fano", "fantan", "morris"]


@pytest.mark.usefixtures("games")
def test_a_game_from_another_package_is_found_by_its_entry_point(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    builtin = _entry(registry.ENTRY_POINT_GROUP, "fanfold.games.fan:GAME", "fan")
    plugin = _entry(registry.ENTRY_POINT_GROUP, f"{__name__}:PLUGIN_GAME")
    monkeypatch.setattr(registry, "entry_points", lambda group: [builtin, plugin])
    monkeypatch.setattr(registry, "_loaded", False)
    assert get_game("plug") is PLUGIN_GAME
    assert get_game("plugmorris.v1") is PLUGIN_GAME
    assert [game.id for game in all_games()].count("fan.v1") == 1


@pytest.mark.usefixtures("games")
def test_an_entry_point_may_name_a_plugin_which_every_layer_then_reads() -> None:
    entry = _entry(registry.ENTRY_POINT_GROUP, f"{__name__}:OTHER_PLUGIN", "otherplug")
    assert registry.register_entry_point(entry) is OTHER_PLUGIN.game
    assert plugin_of("otherplug") is OTHER_PLUGIN
    assert plugin_of(OTHER_PLUGIN.game).web.order == 7
    assert all_plugins()[-1] is OTHER_PLUGIN
    assert registry.register_entry_point(entry) is None  # registered already


@pytest.mark.usefixtures("games")
def test_a_game_registered_bare_has_a_plugin_with_nothing_but_the_game() -> None:
    registry.register(PLUGIN_GAME)
    found = plugin_of(PLUGIN_GAME)
    assert found.game is PLUGIN_GAME
    assert (found.strategy, found.lessons, found.terminations) == (None, None, ())
    assert plugin_of(MorrisGame()).game is not get_game("morris")  # never the registered one's


@pytest.mark.usefixtures("games")
def test_a_built_in_game_listed_as_an_entry_point_is_registered_once() -> None:
    entry = _entry(registry.ENTRY_POINT_GROUP, "fanfold.games.fano:GAME", "fano")
    assert registry.register_entry_point(entry) is None
    plugin = _entry(registry.ENTRY_POINT_GROUP, f"{__name__}:PLUGIN_GAME")
    assert registry.register_entry_point(plugin) is PLUGIN_GAME
    with pytest.raises(ValueError, match=r"plugmorris\.v1 is already registered"):
        registry.register(PluginGame())


@pytest.mark.usefixtures("games")
def test_an_entry_point_that_is_not_a_game_is_left_out_with_a_warning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    wrong = _entry(registry.ENTRY_POINT_GROUP, f"{__name__}:NOT_A_GAME", "wrong")
    missing = _entry(registry.ENTRY_POINT_GROUP, "no_such_package_here:GAME", "missing")
    with pytest.raises(TypeError, match="names str, not a fanfold GamePlugin or Game object"):
        registry.register_entry_point(wrong)
    monkeypatch.setattr(registry, "entry_points", lambda group: [wrong, missing])
    monkeypatch.setattr(registry, "_loaded", False)
    with pytest.warns(RuntimeWarning) as warned:
        names = [game.name for game in all_games()]
    assert names == ["fan", "fano", "fantan", "morris"]
    texts = sorted(str(item.message) for item in warned)
    assert texts[0].startswith("the game 'missing' (no_such_package_here:GAME) was not loaded")
    assert texts[1].startswith("the game 'wrong'")


@pytest.mark.usefixtures("agents")
def test_agents_from_another_package_are_found_by_their_entry_point(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    group = agent_registry.ENTRY_POINT_GROUP
    builtin = _entry(group, "fanfold.agents.builtin:BUILTIN_AGENTS", "builtin")
    plugin = _entry(group, f"{__name__}:PLUGIN_AGENTS")
    monkeypatch.setattr(agent_registry, "entry_points", lambda group: [builtin, plugin])
    monkeypatch.setattr(agent_registry, "_loaded", False)
    names = agent_names()
    assert names == [entry.name for entry in BUILTIN_AGENTS] + ["plugbot"]


@pytest.mark.usefixtures("agents")
@pytest.mark.parametrize(
    ("value", "error", "words"),
    [
        (f"{__name__}:NOT_A_GAME", TypeError, "names str, not a RegisteredAgent"),
        (f"{__name__}:CLASHING_AGENTS", ValueError, "'random' is already registered"),
    ],
)
def test_an_agent_entry_point_that_is_wrong_is_refused(
    monkeypatch: pytest.MonkeyPatch, value: str, error: type[Exception], words: str
) -> None:
    entry = _entry(agent_registry.ENTRY_POINT_GROUP, value)
    with pytest.raises(error, match=words):
        agent_registry.register_entry_point(entry)
    monkeypatch.setattr(agent_registry, "entry_points", lambda group: [entry])
    monkeypatch.setattr(agent_registry, "_loaded", False)
    with pytest.warns(RuntimeWarning, match="the agent 'plugin'"):
        assert "plugbot" not in agent_names()
    assert agent_registry.registered_agent("random") is BUILTIN_AGENTS[0]
