"""The lessons' pages (``/learn/GAME``, ``/learn/GAME/ID``) and API (``/api/lessons``...);
what they answer is described in :mod:`fanfold.server.lessons`."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import HTMLResponse, Response

from fanfold.core.config import JSONObject, JSONValue
from fanfold.core.errors import reason_of
from fanfold.core.lessons import UnknownLessonError, Verdict
from fanfold.server import lessons, not_found, protocol
from fanfold.server.live import NotFoundError
from fanfold.server.refusals import refusal
from fanfold.server.templating import render

#: The lesson pages; the lessons' API is :data:`api`, included in it.
router = APIRouter(tags=["lessons"])
api = APIRouter(prefix="/api/lessons")  # its tags are the router's, on inclusion


@router.get("/learn/{game}", include_in_schema=False)
async def lessons_page(game: str) -> Response:
    if game not in lessons.BOOKS:
        return not_found.missing_lessons(game)
    return HTMLResponse(render("learn.html"))


@router.get("/learn/{game}/{lesson_id}", include_in_schema=False)
async def lesson_page(game: str, lesson_id: str) -> Response:
    book = lessons.BOOKS.get(game)
    if book is None:
        return not_found.missing_lessons(game)
    try:
        book.get(lesson_id)
    except UnknownLessonError:
        return not_found.missing_lessons(game, lesson_id)
    return HTMLResponse(render("learn.html"))


@api.get("", response_model=list[protocol.LessonSummary], response_model_exclude_unset=True)
async def all_lessons() -> list[JSONValue]:
    return [
        lessons.summary_of(game, lesson)
        for game, book in lessons.BOOKS.items()
        for lesson in book.lessons
    ]


@api.get(
    "/{game}/{lesson_id}",
    response_model=protocol.LessonAnswer,
    response_model_exclude_unset=True,
)
async def lesson(
    game: str, lesson_id: str, step: Annotated[int, Query(ge=0, le=100)] = 0
) -> JSONObject:
    book = lessons.book_for(game)
    found = lessons.lesson_in(book, lesson_id)
    config = book.game.config_of(book.state(found, 0))
    seats: list[JSONValue] = [
        book.game.seat_name(config, seat) for seat in range(book.game.num_players(config))
    ]
    following = book.next_after(found)
    return {
        **lessons.summary_of(game, found),
        "intro": found.intro,
        "seat": found.seat,
        "seats": seats,
        "next_lesson": None if following is None else lessons.summary_of(game, following),
        "step": lessons.step_view(book, found, step, lessons.position_before(book, found, step)),
    }


@api.get(
    "/{game}/{lesson_id}/answer",
    response_model=protocol.LessonShown,
    response_model_exclude_unset=True,
)
async def show_answer(
    game: str, lesson_id: str, step: Annotated[int, Query(ge=0, le=100)] = 0
) -> JSONObject:
    book = lessons.book_for(game)
    found = lessons.lesson_in(book, lesson_id)
    if step >= len(found.steps):
        raise NotFoundError(
            refusal("found.lesson_step", lesson=repr(found.id), count=len(found.steps), step=step)
        )
    asked = found.steps[step]
    answers: list[JSONValue] = list(asked.answers)
    engine = book.game
    labels: list[JSONValue] = [
        lessons.move_label(book, found, step, engine.action_text(engine.parse_action(text))) or text
        for text in asked.answers
    ]
    return {
        "step": step,
        "answers": answers,
        "labels": labels,
        "explanation": asked.explanation,
    }


@api.post(
    "/{game}/{lesson_id}/try",
    response_model=protocol.LessonVerdict,
    response_model_exclude_unset=True,
)
async def try_move(game: str, lesson_id: str, body: lessons.Try) -> JSONObject:
    book = lessons.book_for(game)
    found = lessons.lesson_in(book, lesson_id)
    try:
        judged = book.judge(found, body.step, body.action)
    except UnknownLessonError as error:
        raise NotFoundError(reason_of(error)) from None
    answer: JSONObject = {
        "verdict": judged.verdict.value,
        "played": judged.played,
        "message": judged.message,
    }
    label = lessons.move_label(book, found, body.step, judged.played)
    if label is not None:
        answer["label"] = label
    if judged.verdict is Verdict.CORRECT:
        following = book.next_after(found)
        done = body.step + 1 == len(found.steps)
        answer["done"] = done
        reached = book.after(found, body.step, judged.played)
        answer["next"] = lessons.step_view(book, found, body.step + 1, reached, judged.played)
        if done:
            answer["summary"] = found.summary
            answer["next_lesson"] = (
                None if following is None else lessons.summary_of(game, following)
            )
    return answer


router.include_router(api)
