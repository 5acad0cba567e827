"""Lessons in the browser: the pages and the JSON API.

Pages (routes in :mod:`fanfold.server.routes.lessons`): ``/learn/GAME`` (the game's lessons)
and ``/learn/GAME/ID`` (one lesson), both ``templates/learn.html`` driven by ``static/learn.js``.

API (JSON; errors are ``{"error": sentence, "kind": name}`` as everywhere else):

* ``GET /api/lessons``: every lesson of every game (``game``, ``id``, ``title``, ``source``,
  ``variant``, ``steps``);
* ``GET /api/lessons/GAME/ID?step=K``: the lesson (intro, seats) and step ``K`` (default 0): the
  question, the hint, the learner's view of the position, the learner's legal moves (``legal``,
  their texts, and ``choices``, as in a table's state message) and the moves played so far
  (``log``: each move's ``seat``, ``text`` and ``words``, the sentence a table's log shows).
  ``K`` may be the number of steps: the position after the last one;
* ``GET /api/lessons/GAME/ID/answer?step=K``: the lesson's move(s) at step ``K`` and why,
  for a learner who gives up (``answers``, ``explanation``, and ``labels``: each answer in
  words, as the board's buttons say it); 404 past the last step;
* ``POST /api/lessons/GAME/ID/try`` with ``{"step": K, "action": TEXT}``: the verdict on the
  learner's move, read with the game's notation and judged by its rules (``played``, and
  ``label``: the move in words, when it is legal): ``correct`` (with the
  explanation and the next step, or the final position, the summary and the next lesson),
  ``other`` (legal, but not the lesson's move, and why) or ``illegal`` (the rules' reason).
  Text that does not parse is refused (400, ``NotationError``); an unknown game, lesson or step
  is 404. Nothing is stored: a lesson's positions are rebuilt from its data.

The learner sees only their own seat's view (``game.observe``) and the lesson's words: the
position's other hidden cards (opponents' hands, draw piles) never leave the server.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from functools import cache
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from fanfold.core.config import JSONObject, JSONValue
from fanfold.core.errors import reason_of
from fanfold.core.lessons import Lesson, LessonBook, UnknownLessonError
from fanfold.core.plugin import GamePlugin, load_reference
from fanfold.core.registry import ByGame, all_plugins
from fanfold.server.live import NotFoundError
from fanfold.server.refusals import refusal


@cache
def _book_of(plugin: GamePlugin) -> LessonBook[Any] | None:
    """The lessons ``plugin`` names, made once; ``None`` without any, or (with a warning naming
    them) when they do not load: the game is then offered without lessons."""
    if plugin.lessons is None:
        return None
    try:
        made = load_reference(plugin.lessons)(plugin.game)
        if not isinstance(made, LessonBook):
            raise TypeError(f"it made {type(made).__name__}, not a LessonBook")
    except Exception as error:
        warnings.warn(
            f"the lessons of {plugin.name} ({plugin.lessons}) were not loaded: {error}",
            RuntimeWarning,
            stacklevel=2,
        )
        return None
    return made


#: Every game's lessons, by game name, in the lobby's order (``WebHints.order``).
BOOKS: Mapping[str, LessonBook[Any]] = ByGame(_book_of, order=lambda plugin: plugin.web.order)
for _plugin in all_plugins():  # the registered games' lessons are checked as the server starts
    _book_of(_plugin)


def has_lessons(game: str) -> bool:
    """Whether the game called ``game`` has lessons."""
    return game in BOOKS


class Try(BaseModel):
    """A learner's move at a step of a lesson."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    step: int = Field(ge=0, le=100)
    action: str = Field(min_length=1, max_length=400)


def book_for(game: str) -> LessonBook[Any]:
    book = BOOKS.get(game)
    if book is None:
        games = ", ".join(sorted(BOOKS))
        raise NotFoundError(refusal("found.no_lessons", game=repr(game), games=games))
    return book


def lesson_in(book: LessonBook[Any], lesson_id: str) -> Lesson:
    try:
        return book.get(lesson_id)
    except UnknownLessonError as error:
        raise NotFoundError(reason_of(error)) from None


def summary_of(game: str, lesson: Lesson) -> JSONObject:
    return {
        "game": game,
        "id": lesson.id,
        "title": lesson.title,
        "source": lesson.source,
        "variant": lesson.variant,
        "steps": len(lesson.steps),
    }


def step_view(
    book: LessonBook[Any],
    lesson: Lesson,
    step: int,
    reached: tuple[Any, list[tuple[int, str]]],
    answer: str | None = None,
) -> JSONObject:
    """Step ``step`` as the learner sees it in the position ``reached`` (a state and the moves
    played to it): the question (none after the last step), the learner's view, their legal
    moves when they decide, and the moves played so far as they were told them, in notation
    (``text``) and in words (``words``, as a table's log says them); ``answer``: the move the
    learner just played at step ``step - 1``."""
    state, _ = reached
    game = book.game
    view = game.observe(state, lesson.seat)
    asked = lesson.steps[step] if step < len(lesson.steps) else None
    deciding = asked is not None and game.current_player(state) == lesson.seat
    legal: list[JSONValue] = (
        [game.action_text(action) for action in game.legal_actions(state)] if deciding else []
    )
    choices: list[JSONValue] = (
        [choice.to_json() for choice in game.choices(state)] if deciding else []
    )
    told = book.told(lesson, step - 1, answer) if answer is not None else book.told(lesson, step)
    log: list[JSONValue] = [
        {"seat": seat, "text": text, "words": words} for seat, text, words in told
    ]
    outcome = game.outcome(state)
    return {
        "index": step,
        "prompt": asked.prompt if asked else None,
        "hint": asked.hint if asked else None,
        "view": view.to_json(),
        "text": game.render(view),
        "legal": legal,
        "choices": choices,
        "log": log,
        "outcome": outcome.to_json() if outcome is not None else None,
    }


def move_label(book: LessonBook[Any], lesson: Lesson, step: int, text: str) -> str | None:
    """The move ``text`` (canonical) at step ``step`` in words, as the board's buttons say it
    (its choice's label); ``None`` when it is not legal there."""
    game = book.game
    for choice in game.choices(book.state(lesson, step)):
        if choice.text == text:
            label: str = choice.label
            return label
    return None


def position_before(
    book: LessonBook[Any], lesson: Lesson, step: int
) -> tuple[Any, list[tuple[int, str]]]:
    try:
        return book.state(lesson, step), book.played(lesson, step)
    except UnknownLessonError as error:
        raise NotFoundError(reason_of(error)) from None
