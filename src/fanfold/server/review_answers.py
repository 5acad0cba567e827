"""``GET /api/tables/{id}/review``'s answer (:func:`review_answer`): a review job as stored and
its judged moves, whole or, for a client that says how many moves it has (``?seen=N``), only
the moves after those with the marks and graph points they add.

An incremental answer costs the server its new moves only: a poll of a long game's review
(about 900 moves for a two-player Fano game, some 400 kB) reads, decodes, checks and sends
every move each second otherwise. The stored moves are always the game's first ones, in order
(a step stores the moves after those stored), so a client keeps its first ``seen`` moves and
appends the answer's.

While the review worker waits for the tables in play, holding the review's next step or paused
inside one (:mod:`fanfold.server.bots.reviewer`), the answer says so (:func:`with_hold`).
"""

from __future__ import annotations

import json
from typing import Any

from fanfold.core.config import JSONObject, JSONValue
from fanfold.core.errors import FanfoldError, Refusal
from fanfold.core.phrases import Phrase, phrases
from fanfold.core.registry import get_game
from fanfold.games.morris import MorrisGame
from fanfold.play import review as reviewed
from fanfold.server.card_reviews import card_points, is_card_review
from fanfold.server.store.protocols import ReviewStore
from fanfold.server.store.records import ReviewJob

phrases(
    {
        "review.held": (
            "Reviewing: {judged} of {total} moves so far, waiting for the tables in play…"
        ),
    }
)


def with_hold(answer: JSONObject) -> None:
    """Add to a running review's ``answer`` that it waits for the tables in play, before its
    next step or paused inside one (``held``: the page's progress line, as a code and
    params)."""
    if answer["state"] in ("pending", "running"):
        said = Phrase(
            "review.held", judged=int(str(answer["judged"])), total=int(str(answer["total"]))
        )
        answer["held"] = said.to_json()


def _score(value: Any, game: str) -> float | None:
    """A value for the mover as a number from -1 (lost) to 1 (won): a sooner win is higher
    and a sooner loss lower (Morris; a distance of 100 plies or more counts as 100)."""
    if not isinstance(value, dict):
        return None
    result, distance = value.get("result"), value.get("distance")
    if result == "draw":
        return 0.0
    sign = 1.0 if result == "win" else -1.0
    if distance is None or not isinstance(get_game(game), MorrisGame):
        return sign
    return sign * (1.0 - min(int(distance), 100) / 200)


def graph_points(game: str, entries: list[JSONObject], seen: int = 0) -> list[JSONValue]:
    """The evaluation graph: after each move (and at the start), the position's value for
    the first seat (White; Fan's player), from -1 to 1 (``null``: not known). Fano and Fan
    Tan: after each judged decision, the deciding seat's own expected result (0 to 1 drawn
    from -1 to 1) with its ``seat``: a line per reviewed seat. ``entries`` follow the game's
    first ``seen`` moves: the point at the start comes with the first move only."""
    if is_card_review(game):
        return card_points(entries)
    points: list[JSONValue] = []
    for index, entry in enumerate(entries):
        sign = 1.0 if entry["seat"] == 0 else -1.0
        if index == 0 and seen == 0:
            start = _score(entry["before"], game)
            points.append({"move": 0, "value": None if start is None else sign * start})
        after = _score(entry["after"], game)
        points.append({"move": entry["number"], "value": None if after is None else sign * after})
    return points


def review_answer(job: ReviewJob, entries: list[JSONObject], seen: int | None = None) -> JSONObject:
    """``GET /api/tables/{id}/review``'s answer: the job's state, the moves judged so far,
    the marked ones, the graph's points, and once done the summary, engine and deal.

    ``seen``: the answer to a client that has the game's first ``seen`` judged moves:
    ``entries`` are the moves after them, and so are its marks and graph points; ``judged``
    counts every stored move all the same, and the answer says its ``seen``. ``None``: the
    whole review (``entries`` all its moves), without ``seen``, as before the field."""
    game = get_game(job.game)
    marks: list[JSONValue] = [
        {"move": entry["number"], "mark": entry["mark"], "best": entry["best"]}
        for entry in entries
        if entry.get("mark") is not None
    ]
    moves: list[JSONValue] = list(entries)
    answer: JSONObject = {
        "table": job.table_id,
        "game": job.game,
        "title": game.title,
        "version": job.version,
        "state": job.state,
        "total": job.moves,
        "judged": (seen or 0) + len(entries),
        "seed": job.seed,
        "budget": job.budget,
        "attempts": job.attempts,
        "moves": moves,
        "marks": marks,
        "graph": graph_points(job.game, entries, seen or 0),
        **reviewed.summary_fields(job.summary or []),
        "engine": job.engine,
        "deal": job.deal,
        **failure_fields(job.error),
    }
    if seen is not None:
        answer["seen"] = seen
    return answer


def read_answer(store: ReviewStore, job: ReviewJob, seen: int | None) -> JSONObject:
    """The answer to a poll of ``job`` (:func:`review_answer`), its moves read from ``store``:
    only those after the client's ``seen`` where the client's count is one the store has
    (its last move stored, or none), else the whole review (``seen`` 0: a client that counts
    more moves than are stored starts again)."""
    if not seen:
        return review_answer(job, store.moves(job.table_id, job.version), seen)
    entries = store.moves(job.table_id, job.version, after=seen - 1)
    if entries and entries[0]["number"] == seen:  # the client's last move: stored
        return review_answer(job, entries[1:], seen)
    return review_answer(job, store.moves(job.table_id, job.version), 0)


#: A failure stored as a code starts with this character, which no English reason holds: the
#: rest is the refusal as JSON beside its English sentence (older failures are English only).
CODED = "\x1e"


def failure_text(reason: BaseException | Refusal) -> str:
    """What the store keeps of why a review failed: the refusal's code, params and English
    sentence where it has one (a record that does not replay, a table gone), else the error's
    English sentence."""
    if isinstance(reason, BaseException):
        if not isinstance(reason, FanfoldError) or reason.refusal is None:
            return str(reason.args[0]) if reason.args else str(reason)
        reason = reason.refusal
    return CODED + json.dumps({"error": str(reason), **reason.to_json()})


def failure_fields(stored: str | None) -> JSONObject:
    """The answer's ``error`` (the English sentence) and, for a failure kept as a code,
    ``error_said`` (its code and params, which the page words in its reader's language)."""
    if stored is None or not stored.startswith(CODED):
        return {"error": stored}
    try:
        kept = json.loads(stored[len(CODED) :])
        said: JSONObject = {"code": str(kept["code"]), "params": dict(kept["params"])}
        return {"error": str(kept["error"]), "error_said": said}
    except (ValueError, KeyError, TypeError):  # not as written: shown as it is
        return {"error": stored[len(CODED) :]}
