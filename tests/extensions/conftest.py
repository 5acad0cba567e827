"""The toy package (``toy_pkg``): a game and a bot from another package, as a third party
would write them, found through their entry points (docs/adding-a-game.md,
docs/adding-a-bot.md).

It is not installed: the ``pebbles`` fixture puts ``toy_pkg`` on ``sys.path``, where its
``fanfold_pebbles-0.1.0.dist-info`` holds the entry points pip would write from its
``pyproject.toml``, and has the game and agent registries load their entry points again; the
registries and ``sys.path`` are restored after each test, so no other test sees the toy.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fanfold.agents import base as agent_registry
from fanfold.core import registry
from fanfold.core.plugin import GamePlugin
from fanfold.core.registry import plugin_of

#: The toy package's folder (a project of its own, with its pyproject.toml).
TOY = Path(__file__).resolve().parent / "toy_pkg"

# The toy package's modules are imported by the fixture only, never by collection (with
# --doctest-modules pytest would import them, putting toy_pkg on sys.path for every test).
collect_ignore = ["toy_pkg"]


@pytest.fixture
def pebbles(monkeypatch: pytest.MonkeyPatch) -> GamePlugin:
    """The toy package installed the way a third party's is found: its plugin and its bot
    registered from its entry points, beside the built-in ones."""
    monkeypatch.setattr(registry, "_GAMES", dict(registry._GAMES))
    monkeypatch.setattr(registry, "_PLUGINS", dict(registry._PLUGINS))
    monkeypatch.setattr(registry, "_ALIASES", dict(registry._ALIASES))
    monkeypatch.setattr(registry, "_loaded", False)
    monkeypatch.setattr(agent_registry, "_AGENTS", dict(agent_registry._AGENTS))
    monkeypatch.setattr(agent_registry, "_loaded", False)
    monkeypatch.syspath_prepend(str(TOY))
    return plugin_of("pebbles")
