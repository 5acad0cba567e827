"""A review's answer as text (:mod:`fanfold.server.review_wire`): the same text as its models
make, the long lists written as they are, and a long review's text made outside the event
loop, on the socket and for a poll."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from starlette.responses import JSONResponse

from fanfold.server import review_wire
from fanfold.server.protocol.base import PROTOCOL
from fanfold.server.protocol.messages import Review
from fanfold.server.protocol.review_messages import ReviewAnswer
from fanfold.server.protocol.sending import wire
from fanfold.server.review_wire import OFF_LOOP_MOVES, off_loop, poll_text, socket_text
from fanfold.server.routes import review_socket
from fanfold.server.routes import reviews as review_routes
from tests.server.support import serve
from tests.server.test_reviews import load, morris_record, wait_done


def long_answer(moves: int = 200, **more: Any) -> dict[str, Any]:
    """A running review's answer with ``moves`` judged moves, words in several scripts."""
    entries = [
        {
            "number": n,
            "seat": n % 2,
            "move": f"a{n}",
            "mark": "mistake" if n % 7 == 0 else None,
            "best": None if n % 3 else f"b{n}",
            "before": {"result": "win", "distance": n, "share": 0.25 + n / 1000},
            "best_words": "Vorhand spielt ♥ König, «très bien»",
            "said": {"code": "review.best", "params": {"card": "♠A", "n": n}},
            "values": [1.5, -0.0, 1e-9, None, True],
        }
        for n in range(1, moves + 1)
    ]
    answer: dict[str, Any] = {
        "table": "t1",
        "game": "fano",
        "title": "Fano — Trionfi",
        "version": 3,
        "state": "running",
        "total": moves + 10,
        "judged": moves,
        "seed": "12",
        "budget": 24,
        "attempts": 1,
        "moves": entries,
        "marks": [{"move": e["number"], "mark": e["mark"]} for e in entries if e["mark"]],
        "graph": [{"move": e["number"], "value": 0.5, "seat": e["seat"]} for e in entries],
        "summary": [],
        "engine": None,
        "deal": None,
        "error": None,
        **more,
    }
    return answer


def old_socket_text(answer: dict[str, Any]) -> str:
    """The socket's text as the models made it, field by field."""
    said = ReviewAnswer.model_validate(answer).model_dump(mode="json", exclude_unset=True)
    return wire(Review(protocol=PROTOCOL, type="review", **said))


def old_poll_text(answer: dict[str, Any]) -> str:
    """A poll's answer as the route's model and Starlette's JSON response made it."""
    data = ReviewAnswer.model_validate(answer).model_dump(mode="json", exclude_unset=True)
    return bytes(JSONResponse(data).body).decode()


@pytest.mark.parametrize(
    "answer",
    [
        long_answer(),
        long_answer(3, seen=197, held={"code": "review.held", "params": {"judged": 3}}),
        long_answer(0, summary=["Won"], summary_said=[None], state="done"),
        long_answer(5, error="gone", error_said={"code": "x", "params": {}}, state="failed"),
    ],
)
def test_the_texts_are_the_models_own(answer: dict[str, Any]) -> None:
    assert socket_text(answer) == old_socket_text(answer)
    assert poll_text(answer) == old_poll_text(answer)


def test_a_list_of_anything_but_objects_is_refused() -> None:
    for key in ("moves", "marks", "graph"):
        answer = long_answer(4)
        answer[key] = [*answer[key], 7]
        with pytest.raises(ValueError, match=f"review's {key} must be a list of JSON objects"):
            socket_text(answer)
        with pytest.raises(ValueError, match=key):
            poll_text(answer)


def _on_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def test_only_a_long_answer_is_made_outside_the_event_loop() -> None:
    where: list[bool] = []

    def make(answer: Any) -> str:
        where.append(_on_loop())
        return socket_text(answer)

    async def both() -> tuple[str, str]:
        long, short = long_answer(OFF_LOOP_MOVES + 1), long_answer(OFF_LOOP_MOVES)
        return await off_loop(make, long), await off_loop(make, short)

    long_text, short_text = asyncio.run(both())
    assert where == [False, True]
    assert long_text == old_socket_text(long_answer(OFF_LOOP_MOVES + 1))
    assert short_text == old_socket_text(long_answer(OFF_LOOP_MOVES))


def test_a_long_reviews_text_is_made_outside_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = morris_record()
    monkeypatch.setattr(review_wire, "OFF_LOOP_MOVES", 10)  # a Morris game: about 30 moves
    assert len(record.actions) > 10
    made: list[tuple[str, bool]] = []

    def watched(kind: str, make: Any) -> Any:
        def text(answer: Any) -> str:
            made.append((kind, _on_loop()))
            found: str = make(answer)
            return found

        return text

    monkeypatch.setattr(review_socket, "socket_text", watched("socket", socket_text))
    monkeypatch.setattr(review_routes, "poll_text", watched("poll", poll_text))
    with serve(tmp_path) as client:
        table = load(client, record)
        whole = wait_done(client, table)
        made.clear()
        polled = client.get(f"/api/tables/{table}/review")
        with client.websocket_connect(f"/ws/reviews/{table}") as socket:
            message = socket.receive_json()
    assert polled.headers["content-type"] == "application/json"
    assert polled.json() == whole
    assert len(whole["moves"]) == len(record.actions)
    assert message == {**whole, "protocol": PROTOCOL, "type": "review"}
    assert made == [("poll", False), ("socket", False)]
    assert json.loads(polled.text)["state"] == "done"
