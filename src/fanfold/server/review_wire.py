"""A review's answer as the text sent for it: on its socket (:func:`socket_text`, the
:class:`~fanfold.server.protocol.messages.Review` message) and to a poll
(:func:`poll_text`, the :class:`~fanfold.server.protocol.ReviewAnswer`), each awaited with
:func:`off_loop` so that a long review's text is made outside the event loop.

A whole review of a long game is some 900 judged moves (about 850 kB of JSON). Checked by its
model field by field, dumped, checked again as the socket's message and dumped again, it cost
the event loop about 55 ms, during which no table's action was answered. Here the model checks
the answer without its three long lists (``moves``, ``marks``, ``graph``: each a list of JSON
objects, as the store or the review worker made them), and the lists are written into the
text as they are, each item encoded on its own, so that a thread that makes the text hands the
interpreter back to the event loop between items. The text is the same as the model's.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from fanfold.core.config import JSONObject
from fanfold.server.protocol.base import PROTOCOL
from fanfold.server.protocol.messages import Review
from fanfold.server.protocol.review_messages import ReviewAnswer
from fanfold.server.protocol.sending import as_json

#: The answer's lists of JSON objects written as they are (not field by field by the model).
LISTS = ("moves", "marks", "graph")
#: An answer with more judged moves than this is made into text in a thread
#: (:func:`off_loop`); a step's push (6 to 16 moves) is made on the event loop.
OFF_LOOP_MOVES = 48

#: The separators of a socket's text (``json.dumps``' own) and of an HTTP answer (Starlette's
#: ``JSONResponse``).
SOCKET_SEPARATORS = (", ", ": ")
HTTP_SEPARATORS = (",", ":")


def _split(answer: Mapping[str, Any]) -> tuple[JSONObject, dict[str, Sequence[Any]]]:
    """The answer with its long lists empty, and the lists; ValueError for a list that is not
    one of objects (as the model would refuse it)."""
    lists: dict[str, Sequence[Any]] = {}
    for key in LISTS:
        value = answer.get(key)
        if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
            raise ValueError(f"a review's {key} must be a list of JSON objects")
        lists[key] = value
    return {**answer, **{key: [] for key in lists}}, lists


def _text(
    data: Mapping[str, Any],
    lists: Mapping[str, Sequence[Any]],
    separators: tuple[str, str],
    ascii_only: bool,
) -> str:
    """``data`` as ``json.dumps`` writes it, its long lists (``lists``) in their keys' places,
    each item encoded by a call of its own."""
    item, key = separators

    def dumps(value: Any) -> str:
        return json.dumps(value, ensure_ascii=ascii_only, separators=separators)

    parts: list[str] = []
    for name, value in data.items():
        if name in lists:
            encoded = "[" + item.join(dumps(entry) for entry in lists[name]) + "]"
        else:
            encoded = dumps(value)
        parts.append(dumps(name) + key + encoded)
    return "{" + item.join(parts) + "}"


def socket_text(answer: Mapping[str, Any]) -> str:
    """The text of the socket's message for ``answer`` (a poll's answer,
    :func:`~fanfold.server.review_answers.review_answer`): its fields as the model words them,
    then the protocol's number and the message's type."""
    envelope, lists = _split(answer)
    said = ReviewAnswer.model_validate(envelope).model_dump(mode="json", exclude_unset=True)
    data = as_json(Review(protocol=PROTOCOL, type="review", **said))
    return _text(data, lists, SOCKET_SEPARATORS, ascii_only=True)


def poll_text(answer: Mapping[str, Any]) -> str:
    """The JSON text answering a poll (``GET /api/tables/{id}/review``) with ``answer``: the
    fields it was given, as the route's model words them."""
    envelope, lists = _split(answer)
    data = ReviewAnswer.model_validate(envelope).model_dump(mode="json", exclude_unset=True)
    return _text(data, lists, HTTP_SEPARATORS, ascii_only=False)


async def off_loop(make: Callable[[Mapping[str, Any]], str], answer: Mapping[str, Any]) -> str:
    """``make(answer)``: in a thread for an answer of more than :data:`OFF_LOOP_MOVES` moves
    (the event loop goes on meanwhile), else here."""
    moves = answer.get("moves")
    if isinstance(moves, list) and len(moves) > OFF_LOOP_MOVES:
        return await asyncio.to_thread(make, answer)
    return make(answer)


__all__ = [
    "HTTP_SEPARATORS",
    "LISTS",
    "OFF_LOOP_MOVES",
    "SOCKET_SEPARATORS",
    "off_loop",
    "poll_text",
    "socket_text",
]
