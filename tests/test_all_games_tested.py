"""Every registered game has every piece the layers need (:mod:`tests.game_pieces`): a game
that lacks one fails here with a sentence naming the piece and the file to write."""

from __future__ import annotations

from typing import ClassVar

import pytest

from fanfold.core.game import Termination
from fanfold.core.plugin import GamePlugin, WebHints
from fanfold.core.registry import all_plugins
from fanfold.games import BUILTIN_PLUGINS
from fanfold.games.morris import MorrisGame
from fanfold.server import leaderboards
from fanfold.server.games import rating_family_titles
from fanfold.server.ratings import DAILY_FAMILY
from tests.game_pieces import builtin_places, missing_pieces

PLUGINS = all_plugins()


def test_the_built_in_games_are_registered_with_their_plugins() -> None:
    assert tuple(PLUGINS[: len(BUILTIN_PLUGINS)]) == BUILTIN_PLUGINS


@pytest.mark.parametrize("plugin", PLUGINS, ids=[plugin.game.id for plugin in PLUGINS])
def test_every_game_has_every_piece(plugin: GamePlugin) -> None:
    missing = missing_pieces(plugin, builtin_places(plugin))
    assert not missing, "\n".join(["a game lacks pieces the layers need:", *missing])


def test_the_lobby_order_puts_each_game_in_a_place_of_its_own() -> None:
    orders = [plugin.web.order for plugin in PLUGINS]
    assert len(set(orders)) == len(orders), orders


def test_the_plugins_name_the_rating_families_the_leaderboards_list() -> None:
    assert rating_family_titles() == {
        "fano-classic": "Fano (classic)",
        "fano-trionfey": "Fano (The battle for Trionfey)",
        "fantan": "Fan Tan",
        "morris": "Fano330-R-Morris",
    }
    for family, title in rating_family_titles().items():
        assert leaderboards.FAMILIES[family] == title
        assert leaderboards.FAMILIES[family + DAILY_FAMILY] == f"{title}, daily"


class Unfinished(MorrisGame):
    """Morris's rules under a new id, as a game whose package has only its rules yet."""

    id: ClassVar[str] = "unfinished.v1"


def test_a_game_without_its_pieces_is_told_what_to_write() -> None:
    bare = GamePlugin(Unfinished())
    missing = "\n".join(missing_pieces(bare, builtin_places(bare)))
    for words in (
        "unfinished: its plugin declares no terminations",
        "golden playthrough tests/golden/unfinished.v1/geometric-s1.json is missing",
        "no rules tests: write tests/games/unfinished/test_rules.py",
        "rules document docs/rules/unfinished.md is missing",
        "How-to-play page src/fanfold/server/static/howto/unfinished.html is missing",
        "it has no bot levels",
        "the lobby has no words for it",
    ):
        assert words in missing


def test_wrong_declarations_are_named() -> None:
    wrong = GamePlugin(
        Unfinished(),
        terminations=(Termination.RESIGNED,),
        analyses="fanfold.play.analysis:FAN_ANALYSES",
        clock="bullet",
        rating_families={"other": "Other"},
        lab_player="nobody",
        web=WebHints(blurb="x"),
    )
    missing = "\n".join(missing_pieces(wrong, builtin_places(wrong)))
    for words in (
        "'resigned' is the table's ending",
        "its clock 'bullet' is no speed",
        "its rating families ['unfinished'] have no names",
        "its lab player 'nobody' is no player",
    ):
        assert words in missing
