"""What every registered game must have, checked in one place against its plugin (OpenSpiel's
``test_all_games_tested`` is the model): :func:`missing_pieces` names each piece a game lacks
in a sentence that says which file to write. ``tests/test_all_games_tested.py`` runs it over
every registered game; ``tests/extensions`` runs it over the toy game from another package.

A piece is missing when a layer would have to do without it: the ways the game ends (the
conformance suite checks each outcome against them), golden playthroughs, rules tests, the
rules document, a How-to-play page, the three bot levels, the lobby's words. Optional pieces
(lessons, analyses, a clock, rating families, a lab player, an environment encoding, a board
module) are checked where the plugin declares them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fanfold.agents.base import parse_agent
from fanfold.agents.levels import LEVELS
from fanfold.agents.strategy import levels_of
from fanfold.balance.experiment import parse_player
from fanfold.core.game import Termination
from fanfold.core.lessons import LessonBook
from fanfold.core.plugin import GamePlugin, load_reference
from fanfold.play.analysis import analyses_for
from fanfold.play.playthrough import cases
from fanfold.server.clocks import speed_names
from fanfold.server.howto import howto_file
from fanfold.server.lessons import BOOKS
from fanfold.server.rules import rules_file

#: The repository's tests folder.
TESTS = Path(__file__).resolve().parent
#: The table-level endings (:mod:`fanfold.core.rulings`): no game's rules end with them.
TABLE_ENDINGS = frozenset(
    {
        Termination.RESIGNED,
        Termination.AGREED_DRAW,
        Termination.ABORTED,
        Termination.ABANDONED,
        Termination.TIME_FORFEIT,
        Termination.CUT_SHORT,
    }
)


@dataclass(frozen=True)
class Places:
    """Where a game's tests live: its golden playthroughs (``<game id>/...`` below
    ``golden``) and its rules tests (``test_*.py`` in ``tests``)."""

    golden: Path
    tests: Path


def builtin_places(plugin: GamePlugin) -> Places:
    """Where a built-in game's tests live: ``tests/golden`` and ``tests/games/NAME``."""
    return Places(TESTS / "golden", TESTS / "games" / plugin.name)


def _shown(path: Path) -> str:
    """A path as a reader finds it: from the repository's root when it is inside it."""
    try:
        return str(path.resolve().relative_to(TESTS.parent))
    except ValueError:
        return str(path)


def missing_pieces(plugin: GamePlugin, places: Places) -> list[str]:
    """Every piece ``plugin``'s game lacks, each in a sentence naming the file to write (empty
    when it has them all)."""
    found: list[str] = []
    for check in _CHECKS:
        found.extend(f"{plugin.name}: {sentence}" for sentence in check(plugin, places))
    return found


def _terminations(plugin: GamePlugin, places: Places) -> list[str]:
    if not plugin.terminations:
        return [
            "its plugin declares no terminations: list in GamePlugin.terminations every "
            "StrEnum member its outcome may give (its own StrEnum for endings fanfold lacks)"
        ]
    found = []
    core = {ending.value: ending for ending in Termination}
    for ending in plugin.terminations:
        if ending in TABLE_ENDINGS:
            found.append(f"{ending.value!r} is the table's ending, not one its rules give")
        elif ending.value in core and core[ending.value] is not ending:
            found.append(
                f"its termination {ending.value!r} repeats fanfold's: use "
                f"fanfold.core.game.Termination.{core[ending.value].name} instead"
            )
    return found


def _golden(plugin: GamePlugin, places: Places) -> list[str]:
    missing = [
        case.path for case in cases([plugin.game]) if not (places.golden / case.path).is_file()
    ]
    if not missing:
        return []
    return [
        f"golden playthrough {_shown(places.golden / path)} is missing: write it with "
        f"scripts/write_golden.py {plugin.name} (docs/api.md, 'Golden playthroughs')"
        for path in missing
    ]


def _rules_tests(plugin: GamePlugin, places: Places) -> list[str]:
    if places.tests.is_dir() and any(places.tests.glob("test_*.py")):
        return []
    return [
        f"it has no rules tests: write {_shown(places.tests)}/test_rules.py, a test for "
        "every rule and every reading"
    ]


def _rules_doc(plugin: GamePlugin, places: Places) -> list[str]:
    path = rules_file(plugin.game)
    if path.is_file():
        return []
    return [
        f"its rules document {_shown(path)} is missing: write the rules as fanfold plays "
        "them (or name the file in GamePlugin.rules_doc)"
    ]


def _howto(plugin: GamePlugin, places: Places) -> list[str]:
    path = howto_file(plugin.game)
    if path.is_file():
        return []
    return [
        f"its How-to-play page {_shown(path)} is missing: write it for players (or name "
        "the file in WebHints.howto)"
    ]


def _levels(plugin: GamePlugin, places: Places) -> list[str]:
    try:
        levels = levels_of(plugin.game)
    except (ImportError, AttributeError, TypeError) as error:
        return [f"its strategy module {plugin.strategy!r} does not load: {error}"]
    if levels is None:
        return [
            "it has no bot levels: name a strategy module with LEVELS (easy, medium, hard) "
            "in GamePlugin.strategy"
        ]
    if tuple(levels) != LEVELS:
        return [f"its LEVELS name {tuple(levels)}, not the levels {LEVELS} in that order"]
    found = []
    for level, text in levels.items():
        try:
            parse_agent(text).create(plugin.game, 0)
        except Exception as error:
            found.append(f"its {level} level, {text!r}, is no agent for it: {error}")
    return found


def _web(plugin: GamePlugin, places: Places) -> list[str]:
    found = []
    if not plugin.web.blurb:
        found.append("the lobby has no words for it: write WebHints.blurb for players")
    renderer = plugin.web.renderer
    if renderer is not None and not renderer.is_file():
        found.append(f"its board module {_shown(renderer)} (WebHints.renderer) is missing")
    return found


def _optional(plugin: GamePlugin, places: Places) -> list[str]:
    game = plugin.game
    found = []
    if plugin.lessons is not None and not isinstance(BOOKS.get(plugin.name), LessonBook):
        found.append(f"its lessons {plugin.lessons!r} give no LessonBook")
    if plugin.analyses is not None:
        if game.has_hidden_information:
            found.append("it has analyses, but its hidden cards would show in them")
        elif not analyses_for(game):
            found.append(f"its analyses {plugin.analyses!r} give none")
    if plugin.clock is not None and plugin.clock not in speed_names():
        found.append(f"its clock {plugin.clock!r} is no speed: one of {speed_names()}")
    families = {game.rating_family(preset.config) for preset in game.presets()}
    if plugin.rating_families and not families <= set(plugin.rating_families):
        unnamed = sorted(families - set(plugin.rating_families))
        found.append(f"its rating families {unnamed} have no names in rating_families")
    if plugin.lab_player is not None:
        try:
            parse_player(plugin.lab_player, game)
        except Exception as error:
            found.append(f"its lab player {plugin.lab_player!r} is no player: {error}")
    if plugin.encoding is not None:
        found.extend(_encoding(plugin))
    return found


def _encoding(plugin: GamePlugin) -> list[str]:
    try:
        kind = load_reference(plugin.encoding or "")
        encodings = importlib.import_module("fanfold.envs.encodings")
    except (ImportError, AttributeError) as error:
        return [f"its encoding {plugin.encoding!r} does not load: {error}"]
    listed: Any = encodings.ENCODINGS.get(plugin.name)
    if listed is not kind:
        return [
            f"its encoding {plugin.encoding!r} is not the one the environments use "
            f"(fanfold.envs.encodings.ENCODINGS[{plugin.name!r}] is {listed!r})"
        ]
    return []


_CHECKS: tuple[Callable[[GamePlugin, Places], list[str]], ...] = (
    _terminations,
    _golden,
    _rules_tests,
    _rules_doc,
    _howto,
    _levels,
    _web,
    _optional,
)
