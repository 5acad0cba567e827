"""How a socket sends a message: the fields it was given, in the model's order, as JSON
(:func:`wire`), the refusal of a socket before it is let in (:func:`refusal_text`), and the
refusals built from errors (:func:`error_body`, :func:`error_message`, :func:`malformed`,
:func:`unreadable_body`)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from fanfold.core.config import JSONObject
from fanfold.core.errors import FanfoldError
from fanfold.server.protocol.base import PROTOCOL, Out
from fanfold.server.protocol.messages import Error, ErrorBody

#: The order of an outcome's keys on a socket: the game record's (``Outcome.to_json``), as
#: sockets have always sent them. An HTTP answer lists them in :class:`Outcome`'s order.
SOCKET_OUTCOME_ORDER = ("reason", "termination", "returns", "winners", "by_limit")


def as_json(message: Out, *, exclude: set[str] | None = None) -> JSONObject:
    """``message`` as a socket sends it, before ``json.dumps``: the fields it was given (none
    left unset), in the model's order, without ``exclude``; an outcome's keys in
    :data:`SOCKET_OUTCOME_ORDER`."""
    data: JSONObject = message.model_dump(exclude_unset=True, exclude=exclude)
    outcome = data.get("outcome")
    if isinstance(outcome, dict):
        ordered = {key: outcome[key] for key in SOCKET_OUTCOME_ORDER if key in outcome}
        ordered.update(outcome)  # a field a later feature adds comes after those
        data["outcome"] = ordered
    return data


def wire(message: Out) -> str:
    """The text a socket is sent for ``message`` (:func:`as_json`, then ``json.dumps``); an
    HTTP refusal written by a middleware, before any route, is an :class:`ErrorBody`'s."""
    return json.dumps(as_json(message))


def refusal_text(sentence: str, kind: str) -> str:
    """The refusal of a socket as it opens, before it is let in (a client over its limits):
    an :class:`Error` without the protocol's number, as these have always been sent."""
    refusal = Error(protocol=PROTOCOL, type="error", error=sentence, kind=kind)
    return json.dumps(as_json(refusal, exclude={"protocol"}))


def error_body(error: Exception) -> ErrorBody:
    """The refusal of ``error``: the sentence is the error's own, the kind its class's name."""
    message = error.args[0] if error.args else str(error)
    refusal = error.refusal if isinstance(error, FanfoldError) else None
    coded = {} if refusal is None else refusal.to_json()
    return ErrorBody(error=str(message), kind=type(error).__name__, **coded)


def error_message(error: Exception | ErrorBody) -> Error:
    """A refusal on a socket (:class:`Error`): an error, or an error's body."""
    body = error_body(error) if isinstance(error, Exception) else error
    return Error(protocol=PROTOCOL, type="error", **body.model_dump(exclude_unset=True))


def malformed(sentence: str) -> Error:
    """A refusal of a message the server cannot read."""
    return error_message(ErrorBody(error=f"malformed message: {sentence}", kind="MalformedRequest"))


def unreadable_body(errors: Sequence[Mapping[str, Any]]) -> str | None:
    """Why a request's body could not be read at all (a validation's ``errors``), in words a
    person can act on: not JSON (cut off, mistyped), not a JSON object (a form, a list) or
    missing; ``None`` where the body was read and what is wrong is in its fields."""
    for item in errors:
        place = tuple(item.get("loc", ()))
        if not place or place[0] != "body":
            continue
        if item.get("type") == "json_invalid":
            where = f" (at character {place[1]})" if len(place) > 1 else ""
            return f"the request body is not valid JSON{where}; send a JSON object"
        if len(place) == 1 and item.get("type") == "missing":
            return "the request has no body; send a JSON object (Content-Type: application/json)"
        if len(place) == 1:
            return (
                "the request body is not a JSON object; send one, with Content-Type: "
                "application/json"
            )
    return None


__all__ = [
    "SOCKET_OUTCOME_ORDER",
    "as_json",
    "error_body",
    "error_message",
    "malformed",
    "refusal_text",
    "unreadable_body",
    "wire",
]
