"""A finished table's engine review as the server answers it: a poll's answer
(:class:`ReviewAnswer`, ``GET /api/tables/{id}/review``) and the same on the review's socket
(:class:`Review`, ``/ws/reviews/{id}``), one of the socket messages of
:mod:`fanfold.server.protocol.messages`."""

from __future__ import annotations

from typing import Any, Literal

from fanfold.server.protocol.base import Out


class ReviewAnswer(Out):
    """The engines' review of a finished table (``GET /api/tables/{id}/review``), as far as it
    is computed: its state, the judged moves, the marked ones and the evaluation graph's
    points (``docs/review/api.md``)."""

    table: str
    game: str
    title: str
    version: int
    state: Literal["pending", "running", "done", "failed"]
    total: int
    judged: int
    seed: str
    budget: int | None
    attempts: int
    moves: list[dict[str, Any]]
    marks: list[dict[str, Any]]
    graph: list[dict[str, Any]]
    summary: list[str]
    #: each sentence of ``summary`` as its code and params (``None``: a plain sentence)
    summary_said: list[dict[str, Any] | None] | None = None
    engine: dict[str, Any] | None
    deal: dict[str, Any] | None
    error: str | None
    #: why it failed as a code and params, where it was kept so (absent otherwise)
    error_said: dict[str, Any] | None = None
    #: The judged moves the answer leaves out (those the client has, asked with ``?seen=N``):
    #: its moves, marks and graph points are those after them. Absent from a whole review.
    seen: int | None = None
    #: The review waits for the tables in play, before its next step or paused inside one (the
    #: server computes reviews in the time live play leaves): the progress line as a code and
    #: params. Absent otherwise.
    held: dict[str, Any] | None = None


class Review(ReviewAnswer):
    """A review's progress on its socket (``/ws/reviews/{id}``): the poll's answer
    (:class:`ReviewAnswer`) for the judged moves after those sent, with the protocol's number
    and its type."""

    protocol: int

    type: Literal["review"]


__all__ = ["Review", "ReviewAnswer"]
