"""The lessons' HTTP API and pages: the list, a lesson's steps as the learner sees them, every
verdict (correct, legal but not the lesson's move, illegal), the refusals (malformed text,
unknown lesson or step: nothing changes), and no hidden card of the position leaves the server."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fanfold.core.registry import get_game
from fanfold.games.fano.cards import card_text
from fanfold.games.fano.lessons import LESSONS, lesson_book
from tests.server.support import JSON, refused, serve

FANO = get_game("fano")
BOOK = lesson_book(FANO)  # type: ignore[arg-type]  # get_game answers the Fano game
#: A card's text (``9C``, ``TH``), not inside a longer word.
CARD = re.compile(r"(?<![A-Za-z0-9])[A2-9T][CDHS](?![A-Za-z0-9])")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with serve(tmp_path_factory.mktemp("lessons")) as test_client:
        yield test_client


def get_lesson(client: TestClient, lesson_id: str, step: int | None = None) -> JSON:
    params = {} if step is None else {"step": step}
    answer = client.get(f"/api/lessons/fano/{lesson_id}", params=params)
    assert answer.status_code == 200, answer.text
    body: JSON = answer.json()
    return body


def attempt(client: TestClient, lesson_id: str, step: int, action: str) -> Any:
    return client.post(f"/api/lessons/fano/{lesson_id}/try", json={"step": step, "action": action})


def test_the_list_names_every_lesson_in_order(client: TestClient) -> None:
    answer = client.get("/api/lessons")
    assert answer.status_code == 200
    listed = [entry for entry in answer.json() if entry["game"] == "fano"]
    assert [entry["id"] for entry in listed] == [lesson.id for lesson in LESSONS]
    assert {entry["game"] for entry in answer.json()} == {"fano", "morris", "fantan", "fan"}
    first = listed[0]
    assert first == {
        "game": "fano",
        "id": "classic-1",
        "title": LESSONS[0].title,
        "source": LESSONS[0].source,
        "variant": "classic",
        "steps": 1,
    }


def test_a_lesson_starts_with_its_question_and_the_learners_view(client: TestClient) -> None:
    body = get_lesson(client, "classic-2")
    assert body["intro"] == LESSONS[1].intro
    assert body["seat"] == 0
    assert body["seats"] == ["Player 1 (♥)", "Player 2 (♣)"]
    assert body["next_lesson"]["id"] == "classic-3"
    step = body["step"]
    assert step["index"] == 0
    assert step["prompt"] == LESSONS[1].steps[0].prompt
    assert step["hint"] == LESSONS[1].steps[0].hint
    assert step["view"]["hand"] == ["2H", "5H", "TH"]
    assert step["view"]["players"][1]["field"] == ["3C", "6C", "8C", "TC"]
    assert "AH+4H=5H return AH" in step["legal"]
    assert step["log"] == []
    assert "Player 1" in step["text"]


def test_a_correct_answer_explains_and_gives_the_next_step(client: TestClient) -> None:
    answer = attempt(client, "classic-2", 0, "AH+4H=5H return AH")
    assert answer.status_code == 200
    body = answer.json()
    assert body["verdict"] == "correct"
    assert body["played"] == "AH+4H=5H return AH"
    assert body["message"] == LESSONS[1].steps[0].explanation
    assert body["done"] is False
    following = body["next"]
    assert following["index"] == 1
    assert following["prompt"] == LESSONS[1].steps[1].prompt
    assert following["view"]["hand"] == ["AH", "2H", "TH"]
    assert following["log"] == [
        {
            "seat": 0,
            "text": "AH+4H=5H return AH",
            "words": "You combined A♥ and 4♥ into 5♥, A♥ back to hand: 4♥ goes to the discards.",
        }
    ]
    assert following == get_lesson(client, "classic-2", step=1)["step"]


def test_the_last_answer_ends_the_lesson(client: TestClient) -> None:
    body = attempt(client, "classic-2", 1, "5H>6C:AH").json()
    assert body["verdict"] == "correct"
    assert body["done"] is True
    assert body["summary"] == LESSONS[1].summary
    assert body["next_lesson"]["id"] == "classic-3"
    assert body["next"]["prompt"] is None
    assert body["next"]["legal"] == []
    assert body["next"]["view"]["players"][0]["field"] == ["AH"]
    last = attempt(client, "trionfey-oversum", 1, "promote 8C 9C TC").json()
    assert last["next_lesson"] is None


def test_the_last_step_shows_the_position_the_learner_chose(client: TestClient) -> None:
    body = attempt(client, "trionfey-combine", 0, "AH+6H=7H return 6H").json()
    assert body["verdict"] == "correct"
    assert body["next"]["view"]["hand"] == ["6H"]
    other = attempt(client, "trionfey-combine", 0, "AH+6H=7H").json()
    assert len(other["next"]["view"]["hand"]) == 3  # an empty hand drew three new cards
    assert "6H" not in other["next"]["view"]["hand"]


def test_a_legal_move_that_is_not_the_lessons_says_why(client: TestClient) -> None:
    body = attempt(client, "classic-2", 0, "AH+4H=5H").json()
    assert body == {
        "verdict": "other",
        "played": "AH+4H=5H",
        "label": "A♥ + 4♥ → 5♥, both to the discard pile",
        "message": "“A♥ + 4♥ → 5♥, both to the discard pile” is legal, but "
        + LESSONS[1].steps[0].mistakes[0].note,
    }
    unlisted = attempt(client, "classic-2", 0, "discard 2H").json()
    assert unlisted["verdict"] == "other"
    assert "not the move this lesson is after" in unlisted["message"]


def test_an_illegal_move_gets_the_rules_reason(client: TestClient) -> None:
    body = attempt(client, "trionfey-1", 0, "4H>6S:3H").json()
    assert body["verdict"] == "illegal"
    assert "without naming the support" in body["message"]
    assert "next" not in body


def test_the_answer_is_shown_on_request_and_is_accepted(client: TestClient) -> None:
    for lesson in LESSONS:
        for number, step in enumerate(lesson.steps):
            answer = client.get(f"/api/lessons/fano/{lesson.id}/answer", params={"step": number})
            assert answer.status_code == 200, answer.text
            shown = answer.json()
            assert shown == {
                "step": number,
                "answers": list(step.answers),
                "labels": shown["labels"],
                "explanation": step.explanation,
            }
            # each answer in words: its choice's label on the board, never the notation
            assert len(shown["labels"]) == len(step.answers)
            assert all(label not in step.answers for label in shown["labels"])
            judged = attempt(client, lesson.id, number, shown["answers"][0]).json()
            assert judged["verdict"] == "correct"
    past = client.get(
        f"/api/lessons/fano/{LESSONS[0].id}/answer", params={"step": len(LESSONS[0].steps)}
    )
    assert "no step" in refused(past, 404)["error"]
    assert refused(client.get("/api/lessons/fano/no-such/answer"), 404)


def test_refusals_are_clear_and_change_nothing(client: TestClient) -> None:
    before = get_lesson(client, "classic-1")
    body = refused(attempt(client, "classic-1", 0, "attack the six"), 400)
    assert body["kind"] == "NotationError"
    body = refused(attempt(client, "nope", 0, "pass"), 404)
    assert "no lesson called 'nope'" in body["error"]
    assert "classic-1" in body["error"]  # the lessons there are
    body = refused(
        client.post("/api/lessons/chess/classic-1/try", json={"step": 0, "action": "pass"}), 404
    )
    assert "no lessons for 'chess'" in body["error"]
    body = refused(attempt(client, "classic-1", 1, "pass"), 404)
    assert "not step 1" in body["error"]
    body = refused(client.get("/api/lessons/fano/classic-1", params={"step": 2}), 404)
    assert "not step 2" in body["error"]
    refused(client.get("/api/lessons/fano/nope"), 404)
    refused(attempt(client, "classic-1", 0, ""), 422)
    refused(client.post("/api/lessons/fano/classic-1/try", json={"action": "pass"}), 422)
    refused(
        client.post("/api/lessons/fano/classic-1/try", json={"step": 0, "action": "x", "y": 1}),
        422,
    )
    refused(attempt(client, "classic-1", -1, "pass"), 422)
    assert get_lesson(client, "classic-1") == before


def hidden_from(state: Any, seat: int) -> set[str]:
    """The cards of ``state`` that ``seat`` may not see: other players' hands and face-down
    cards, and every draw pile."""
    return {
        card_text(card)
        for other, player in enumerate(state.players)
        for card in (
            *player.draw,
            *(() if other == seat else (*player.hand, *player.down, *player.hidden)),
        )
    }


def cards_in(answer: JSON) -> set[str]:
    """Every card named anywhere in an answer (views, texts, drawings)."""
    return set(CARD.findall(json.dumps(answer, ensure_ascii=False)))


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_no_hidden_card_reaches_the_learner(client: TestClient, lesson: Any) -> None:
    """No card the learner's seat may not see is in any answer of the lesson, and each step's
    view is the engine's view of the learner's seat."""
    for number, step in enumerate(lesson.steps):
        state = BOOK.state(lesson, number)
        served = get_lesson(client, lesson.id, step=number)
        assert served["step"]["view"] == FANO.observe(state, lesson.seat).to_json()
        assert not cards_in(served) & hidden_from(state, lesson.seat)
        for answer in step.answers:
            tried = attempt(client, lesson.id, number, answer).json()
            after, _ = BOOK.after(lesson, number, answer)
            assert not cards_in(tried) & hidden_from(after, lesson.seat)
    assert hidden_from(BOOK.state(LESSONS[1], 0), 0) >= {"9C"}  # the check sees hands


def test_the_pages(client: TestClient) -> None:
    for path in ("/learn/fano", "/learn/fano/classic-1"):
        answer = client.get(path)
        assert answer.status_code == 200
        assert "learn.js" in answer.text
    assert client.get("/learn/chess").status_code == 404
    missing = client.get("/learn/fano/nope")
    assert missing.status_code == 404
    assert "no lesson called “nope”." in missing.text  # the site's page (fanfold.server.not_found)
    rules = client.get("/rules/fano")
    assert 'href="/learn/fano"' in rules.text
    assert 'href="/learn/morris"' in client.get("/rules/morris").text
    assert "/learn/${game.name}" in client.get("/static/lobby.js").text
