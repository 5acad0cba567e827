"""Lessons written as data: a game package's ``lessons.toml``, read into :class:`Lesson` s.

The file holds one ``[[lesson]]`` table a lesson, with the fields of :class:`Lesson` (its
``config`` names one of the configs the game's lessons module hands :func:`load_lessons`),
one ``[[lesson.step]]`` table a step, with the fields of :class:`LessonStep`, and one
``[[lesson.step.mistake]]`` table a listed mistake (``action``, ``legal``, ``note``)::

    [[lesson]]
    id = "first-hand"
    title = "Sevens first"
    source = "A three-player hand"
    variant = "standard"
    config = "three-players"
    position = "..."
    seat = 0
    intro = "..."
    summary = "..."

    [[lesson.step]]
    prompt = "..."
    hint = "..."
    answers = ["7H"]
    explanation = "..."
    replies = ["6H", "7S"]  # optional

    [[lesson.step.mistake]]
    action = "8H"
    legal = false
    note = "..."

A field missing, unknown or of the wrong type, or a config not named, raises
:class:`LessonFileError` saying where; whether the moves fit the rules is checked by the
game's :class:`~fanfold.core.lessons.LessonBook` (and the lessons' tests).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from importlib import resources
from typing import Any

from fanfold.core.errors import FanfoldError
from fanfold.core.lessons import Lesson, LessonStep, Mistake

#: The name of the lessons' file in a game package.
FILE_NAME = "lessons.toml"


class LessonFileError(FanfoldError, ValueError):
    """A lessons file that does not hold lessons as :mod:`fanfold.core.lesson_files` says."""


def load_lessons(package: str, configs: Mapping[str, Any]) -> tuple[Lesson, ...]:
    """The lessons of ``package``'s ``lessons.toml``, each ``config`` looked up in ``configs``."""
    text = resources.files(package).joinpath(FILE_NAME).read_text(encoding="utf-8")
    return read_lessons(text, configs, f"{package}/{FILE_NAME}")


def read_lessons(
    text: str, configs: Mapping[str, Any], where: str = FILE_NAME
) -> tuple[Lesson, ...]:
    """The lessons written in ``text`` (TOML, as this module says); ``where`` names it in
    errors."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise LessonFileError(f"{where}: not TOML: {error}") from error
    _fields(data, where, {"lesson": list})
    return tuple(
        _lesson(table, configs, f"{where}: lesson {number + 1}")
        for number, table in enumerate(data["lesson"])
    )


def _lesson(table: Any, configs: Mapping[str, Any], where: str) -> Lesson:
    texts = ("id", "title", "source", "variant", "config", "position", "intro", "summary")
    _fields(table, where, {**dict.fromkeys(texts, str), "seat": int, "step": list})
    if table["config"] not in configs:
        known = ", ".join(configs)
        raise LessonFileError(f"{where}: config {table['config']!r} is not one of {known}")
    where = f"{where} ({table['id']})"
    return Lesson(
        id=table["id"],
        title=table["title"],
        source=table["source"],
        variant=table["variant"],
        config=configs[table["config"]],
        position=table["position"],
        seat=table["seat"],
        intro=table["intro"],
        steps=tuple(
            _step(step, f"{where} step {number + 1}") for number, step in enumerate(table["step"])
        ),
        summary=table["summary"],
    )


def _step(table: Any, where: str) -> LessonStep:
    _fields(
        table,
        where,
        {"prompt": str, "hint": str, "answers": list, "explanation": str},
        {"replies": list, "mistake": list},
    )
    mistakes = table.get("mistake", [])
    for number, mistake in enumerate(mistakes):
        _fields(
            mistake, f"{where} mistake {number + 1}", {"action": str, "legal": bool, "note": str}
        )
    return LessonStep(
        prompt=table["prompt"],
        hint=table["hint"],
        answers=_texts(table["answers"], f"{where} answers"),
        explanation=table["explanation"],
        mistakes=tuple(Mistake(m["action"], legal=m["legal"], note=m["note"]) for m in mistakes),
        replies=_texts(table.get("replies", []), f"{where} replies"),
    )


def _fields(
    table: Any,
    where: str,
    needed: Mapping[str, type],
    optional: Mapping[str, type] | None = None,
) -> None:
    """Raise unless ``table`` holds every ``needed`` field, and only those and ``optional``
    ones, each of its type."""
    if not isinstance(table, dict):
        raise LessonFileError(f"{where}: not a table")
    kinds = {**needed, **(optional or {})}
    missing = [name for name in needed if name not in table]
    if missing:
        raise LessonFileError(f"{where}: missing {', '.join(missing)}")
    unknown = [name for name in table if name not in kinds]
    if unknown:
        raise LessonFileError(f"{where}: unknown {', '.join(unknown)}")
    for name, value in table.items():
        # bool is an int in Python: a seat given as true is refused too.
        if not isinstance(value, kinds[name]) or (kinds[name] is int and isinstance(value, bool)):
            raise LessonFileError(f"{where}: {name} must be {kinds[name].__name__}")


def _texts(values: list[Any], where: str) -> tuple[str, ...]:
    if not all(isinstance(value, str) for value in values):
        raise LessonFileError(f"{where}: every entry must be a string")
    return tuple(values)
