"""Every ``/api`` answer is described: each route declares a response schema, ``/openapi.json``
shows it, and every message the protocol snapshots recorded fits its model."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pydantic
import pytest
from fastapi.routing import APIRoute

from fanfold.server import protocol
from fanfold.server.app import create_app
from tests.server.support import open_table, serve

SNAPSHOTS = Path(__file__).parent / "snapshots"
STATE = r"GET /api/tables/<table-[0-9]+>$"
REPLAY = r"GET /api/tables/<table-[0-9]+>/replay"


def _walk(routes: list[Any]) -> list[APIRoute]:
    """Every route, those of included routers too (read through ``original_router`` where
    FastAPI wraps them)."""
    found: list[APIRoute] = []
    for route in routes:
        included = getattr(route, "original_router", None)
        if included is not None:
            found.extend(_walk(included.routes))
        elif isinstance(route, APIRoute):
            found.append(route)
    return found


def _api_routes() -> list[APIRoute]:
    app = create_app("sqlite://")  # never started: only its routes are read
    return [route for route in _walk(app.routes) if route.path.startswith("/api")]


def test_every_api_route_has_a_response_schema() -> None:
    routes = _api_routes()
    assert len(routes) >= 18
    missing = [
        f"{sorted(route.methods or ())} {route.path}"
        for route in routes
        if route.response_model is None
        and "schema"
        not in route.responses.get(200, {}).get("content", {}).get("application/json", {})
    ]
    assert not missing, f"routes without a response schema: {missing}"


def test_openapi_describes_every_api_answer() -> None:
    app = create_app("sqlite://")
    paths = app.openapi()["paths"]
    for route in _api_routes():
        for method in route.methods or ():
            answer = paths[route.path][method.lower()]["responses"]["200"]
            schema = answer["content"]["application/json"]["schema"]
            assert schema, (method, route.path)


def test_every_operation_names_its_area() -> None:
    """Each router declares its tags (and its prefix where its paths share one): every
    operation in ``/openapi.json`` is grouped under one, and the lessons' and moderators'
    APIs sit under their prefixes."""
    app = create_app("sqlite://")
    paths = app.openapi()["paths"]
    untagged = [
        f"{method.upper()} {path}"
        for path, operations in paths.items()
        for method, operation in operations.items()
        if not operation.get("tags")
    ]
    assert not untagged, f"operations without a tag: {untagged}"
    assert paths["/api/lessons"]["get"]["tags"] == ["lessons"]
    assert paths["/api/moderation/log"]["get"]["tags"] == ["moderation"]
    assert paths["/api/tables"]["post"]["tags"] == ["tables"]


def test_every_recorded_message_fits_its_model() -> None:
    checked = 0
    for path in sorted(SNAPSHOTS.glob("*.json")):
        for entry in json.loads(path.read_text(encoding="utf-8")):
            out = entry.get("out")
            if out is None:
                continue
            # Times were written as placeholders: any number fits.
            for placeholder in ('"<left>"', '"<updated>"', '"<at>"'):
                out = out.replace(placeholder, "0")
            message = json.loads(out)
            if entry["via"].startswith("ws "):
                protocol.OUTGOING.validate_python(message)
                checked += 1
            elif entry.get("status") == 200 and re.match(STATE, entry["via"]):
                protocol.State.model_validate(message)
                checked += 1
            elif entry.get("status") == 200 and re.match(REPLAY, entry["via"]):
                protocol.Replay.model_validate(message)
                checked += 1
            elif entry.get("status", 200) >= 400:
                protocol.ErrorBody.model_validate(message)
                checked += 1
    assert checked > 100


def test_a_message_that_does_not_fit_is_refused() -> None:
    with pytest.raises(pydantic.ValidationError):
        protocol.OUTGOING.validate_python({"type": "state", "table": "x"})
    with pytest.raises(pydantic.ValidationError):
        protocol.INCOMING.validate_python({"type": "wave"})


def test_the_docs_name_every_model_of_the_protocol() -> None:
    docs = (Path(__file__).parents[2] / "docs" / "server" / "protocol.md").read_text()
    section = docs[docs.index("## The protocol's models and its version") :]
    models = [
        name
        for name, value in vars(protocol).items()
        if isinstance(value, type)
        and issubclass(value, pydantic.BaseModel)
        and value.__module__.startswith(f"{protocol.__name__}.")
        and not name.startswith("_")
    ]
    assert len(models) > 30
    missing = [name for name in models if f"`{name}`" not in section]
    assert not missing, f"docs/server/protocol.md does not name these protocol models: {missing}"


def test_every_answer_and_socket_message_names_the_protocol(tmp_path: Path) -> None:
    with serve(tmp_path) as client:
        for path in ("/", "/api/games", "/api/tables/nothing-here", "/no/such/page"):
            answer = client.get(path)
            assert answer.headers[protocol.PROTOCOL_HEADER] == str(protocol.PROTOCOL), path
        table = open_table(client, game="morris", seats=["you", "you"])["table"]
        state = client.get(f"/api/tables/{table}").json()
        assert state["protocol"] == protocol.PROTOCOL
        with client.websocket_connect(f"/ws/tables/{table}") as socket:
            socket.send_json({"type": "hello"})
            assert socket.receive_json()["protocol"] == protocol.PROTOCOL
            socket.send_json({"type": "wave"})
            refusal = socket.receive_json()
            assert refusal["type"] == "error"
            assert refusal["protocol"] == protocol.PROTOCOL
