"""What every layer above the rules needs from a game, declared once in the game's package.

A game package makes its :class:`~fanfold.core.game.Game` object (``GAME``) and, beside it, one
:class:`GamePlugin` (``PLUGIN``) that the registry keeps with the game
(:mod:`fanfold.core.registry`: a built-in game is registered from ``fanfold.games``, a game
from another package through its ``fanfold.games`` entry point). Each layer reads its part of
the plugin through :func:`fanfold.core.registry.plugin_of` instead of keeping a table by game
name, so a new game touches no file outside its package:

=================== =========================================== ===========================
field               what                                        read by
=================== =========================================== ===========================
``terminations``    the ways the rules end a game               the conformance suite
``rules_doc``       the exact rules (Markdown)                  ``/rules/GAME/exact``
``lessons``         a function: the game -> its ``LessonBook``  ``/learn/GAME``, the lobby
``strategy``        a module: ``LEVELS``, ``KNOWLEDGE``,        :mod:`fanfold.agents.strategy`
                    optionally ``prepare(say)``
``analyses``        a tuple of ``fanfold.play.analysis``        :mod:`fanfold.play.analysis`
                    ``Analysis`` values
``clock``           the speed of a rated table that names none  the server's clocks
``rating_families`` each rating family's name for players       leaderboards
``lab_player``      an experiment's player when it names none   :mod:`fanfold.balance`
``encoding``        the environments' ``Encoding`` class        :mod:`fanfold.balance` (the
                                                                environments list theirs)
``web``             the browser's words and files               the lobby, tables, lessons
=================== =========================================== ===========================

What lives in a layer above the games (a strategy module, an analysis, an encoding) is named
by a :data:`Reference`, ``"package.module:attribute"`` (or a module alone), and imported by
that layer when it first needs it: a game package imports only :mod:`fanfold.core` and
itself, so it names what it cannot import. A field left at its default means the game has no
such piece; ``tests/test_all_games_tested.py`` says which pieces every game must have.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from types import MappingProxyType
from typing import Any

from fanfold.core.game import Game

#: An object named by its import path: ``"package.module:attribute"`` (dotted attributes
#: allowed after the colon) or ``"package.module"`` for the module itself.
Reference = str

#: The sentence the lesson page shows under the board unless the game words its own.
BOARD_HINT = (
    "Make the move on the board: click a card of yours, then choose among the moves it offers."
)


@dataclass(frozen=True)
class WebHints:
    """What the browser shows of a game besides the catalogue (``GET /api/games``); the
    server hands it to the pages as ``GET /api/games/web``.

    Attributes:
        blurb: the game in a player's words, one or two sentences, for the lobby's card (empty:
            the game's ``summary``, which is written for developers).
        order: the game's place in the lobby, lowest first (games with the same number keep
            the registry's order).
        seed_label: the label of the lobby's seed box, where the game is dealt.
        notation_example: an example move in the game's notation, for the lesson page's box
            where a move may be typed.
        board_hint: one sentence under a lesson's board on how to make a move there.
        options_example: an option the game takes, as the lobby's Options box is typed
            (``name=value``), that every variant accepts: the box's example (empty: none).
        renderer: the game's board, a JavaScript module exporting ``render(root, message, ui)``
            (see ``src/fanfold/server/static/games/``); ``None``: fanfold's own
            ``static/games/NAME.js`` where it has one, else a text board with a button a move.
        howto: the How-to-play page's content, an HTML fragment (``[[7H]]`` draws a card);
            ``None``: fanfold's own ``static/howto/NAME.html``.
    """

    blurb: str = ""
    order: int = 100
    seed_label: str = "Seed"
    notation_example: str = ""
    board_hint: str = BOARD_HINT
    options_example: str = ""
    renderer: Path | None = None
    howto: Path | None = None


@dataclass(frozen=True, eq=False)
class GamePlugin:
    """A game with everything the layers above its rules need (see the module's table).
    Compared by identity, as the game is.

    Attributes:
        game: the game object.
        terminations: every :class:`~enum.StrEnum` member the game's ``outcome`` may give as
            its ``termination``: members of :class:`fanfold.core.game.Termination` or of the
            game's own ``StrEnum`` (a new game adds its endings there, not to the core).
        rules_doc: the rules as fanfold plays them, in Markdown; ``None``: fanfold's own
            ``docs/rules/NAME.md``.
        lessons: a function taking the game and returning its
            :class:`~fanfold.core.lessons.LessonBook`; ``None``: no lessons.
        strategy: the module with the game's strategy: ``LEVELS`` (the agent text behind each
            of ``easy``, ``medium`` and ``hard``), ``KNOWLEDGE`` (what makes the game's
            :class:`fanfold.agents.knowledge.Knowledge`, or ``None``) and, where its bots
            have compiled code, ``prepare(say)``; ``None``: no levels and no strategy.
        analyses: a tuple of :class:`fanfold.play.analysis.Analysis` a player may ask for
            (games without hidden information only); ``None``: none.
        clock: the speed (``blitz``, ``rapid``, ``classical``, ``daily``) of a rated table
            whose creator chose none; ``None``: such a table has no clock.
        rating_families: each rating family (:meth:`Game.rating_family`) with its name for
            players, e.g. ``{"morris": "Fano330-R-Morris"}``; empty: the game is not rated.
        lab_player: the agent text an experiment of the balance lab seats when it names no
            player; ``None``: an experiment must name its players.
        encoding: the environments' ``fanfold.envs.encoding.Encoding`` subclass; ``None``: no
            environment.
        web: what the browser shows (:class:`WebHints`).
    """

    game: Game[Any, Any, Any, Any]
    terminations: tuple[StrEnum, ...] = ()
    rules_doc: Path | None = None
    lessons: Reference | None = None
    strategy: Reference | None = None
    analyses: Reference | None = None
    clock: str | None = None
    rating_families: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    lab_player: str | None = None
    encoding: Reference | None = None
    web: WebHints = field(default_factory=WebHints)

    def __post_init__(self) -> None:
        if not isinstance(self.game, Game):
            raise TypeError(f"a GamePlugin's game is a fanfold Game object, not {self.game!r}")
        values = [ending.value for ending in self.terminations]
        if len(set(values)) != len(values):
            raise ValueError(f"{self.game.id} lists a termination twice: {values}")
        object.__setattr__(self, "rating_families", MappingProxyType(dict(self.rating_families)))

    @property
    def name(self) -> str:
        """The game's short name."""
        return self.game.name


def load_reference(reference: Reference) -> Any:
    """The object ``reference`` names, imported now (``"package.module:attr"``, or a module):
    of any type, which its caller checks.

    Raises:
        ImportError: the module cannot be imported.
        AttributeError: the module has no such attribute.
    """
    module_name, _, attributes = reference.partition(":")
    found: Any = importlib.import_module(module_name)
    for attribute in filter(None, attributes.split(".")):
        found = getattr(found, attribute)
    return found
