"""Each outgoing message is defined once, as a model in :mod:`fanfold.server.protocol.messages`:
every message type a socket sends is one of its models, and no code of the server builds a
message as a dict literal (``{"type": ...}``, ``{"protocol": ...}``): the code that sends one
builds its model and serialises it (``wire``). The dict literals are found by reading the
server's source with :mod:`ast`, as ``tests/test_architecture.py`` reads the imports."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any, get_args

import pytest

from fanfold.server import protocol
from fanfold.server.protocol import messages, review_messages, sending
from fanfold.server.protocol.base import Out
from tests.server.support import TOKEN, open_table, serve

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "src" / "fanfold" / "server"
SNAPSHOTS = Path(__file__).parent / "snapshots"


def message_models() -> dict[str, type[Out]]:
    """Every model of :mod:`fanfold.server.protocol.messages` (and of the review's module
    beside it) with a ``type``, by its type."""
    found: dict[str, type[Out]] = {}
    modules = {messages.__name__, review_messages.__name__}
    for value in vars(messages).values():
        if not (isinstance(value, type) and issubclass(value, Out)):
            continue
        field = value.model_fields.get("type")
        if value.__module__ in modules and field is not None:
            for kind in get_args(field.annotation):
                assert kind not in found, f"two models of the message type {kind!r}"
                found[kind] = value
    return found


def test_every_socket_message_is_a_model_of_the_messages_module() -> None:
    models = message_models()
    assert set(models) == {
        "state",
        "replay",
        "ok",
        "error",
        "open_tables",
        "restarting",
        "chat",
        "chat_room",
        "review",
    }
    members = get_args(get_args(protocol.Outgoing)[0])
    # the review's, in a module of its own beside them (the messages module's length)
    assert {member.__module__ for member in members} == {
        messages.__name__,
        review_messages.__name__,
    }
    assert protocol.LobbyTables is models["open_tables"]
    # The types the browser's scripts tell apart are all messages of the module.
    scripts = " ".join(path.read_text() for path in (SERVER / "static").glob("*.js"))
    told_apart = set(re.findall(r'\btype === "([a-z_]+)"', scripts))
    assert told_apart, "the scripts tell no message type apart: the check reads nothing"
    assert told_apart <= set(models)


def test_every_recorded_socket_message_is_one_of_the_models() -> None:
    seen: set[str] = set()
    for path in sorted(SNAPSHOTS.glob("*.json")):
        for entry in json.loads(path.read_text(encoding="utf-8")):
            if not (entry["via"].startswith("ws ") and entry.get("out")):
                continue
            out = entry["out"].replace('"<left>"', "0.5").replace('"<at>"', "0.5")
            message = json.loads(out)  # times: any
            model = message_models()[message["type"]]
            # Serialised again from its model, the message is the text recorded.
            text = json.dumps(message)
            assert sending.wire(model.model_validate(message)) == text, (path.name, text)
            seen.add(message["type"])
    assert {"state", "ok", "error", "chat", "chat_room"} <= seen


def test_the_lobby_socket_and_a_refusal_send_models(tmp_path: Path) -> None:
    with serve(tmp_path) as client:
        open_table(client, game="morris", seats=["you", "friend"], public=True)
        with client.websocket_connect("/ws/lobby") as lobby:
            text = lobby.receive_text()
        listed = protocol.LobbyTables.model_validate_json(text)
        assert sending.wire(listed) == text
        assert text.startswith('{"type": "open_tables", "protocol": 1, "tables": [')
    refusal = sending.refusal_text("slow down", "RateLimited")
    assert refusal == '{"type": "error", "error": "slow down", "kind": "RateLimited"}'


def test_a_message_holds_the_fields_it_was_given() -> None:
    undone = sending.wire(protocol.ok_undone(True))
    assert undone == '{"protocol": 1, "type": "ok", "undone": true}'
    assert sending.wire(protocol.malformed("x: y")) == (
        '{"protocol": 1, "type": "error", "error": "malformed message: x: y", '
        '"kind": "MalformedRequest"}'
    )


def test_an_outcome_keeps_its_order_on_a_socket_and_over_http(tmp_path: Path) -> None:
    """A socket sends an outcome's keys in the game record's order, an HTTP answer in the
    model's (both as they always were)."""
    with serve(tmp_path) as client:
        created = open_table(client, game="morris", seats=["you", "hotseat"], seed=3)
        table, token = created["table"], created["token"]
        ended = client.post(f"/api/tables/{table}/end", json={"token": token, "ending": "resign"})
        assert ended.status_code == 200, ended.text
        answer = client.get(f"/api/tables/{table}", headers={TOKEN: token})
        # (``said``: the resignation's words as a code, a field added after the others)
        assert list(json.loads(answer.text)["outcome"]) == [
            "reason",
            "returns",
            "winners",
            "termination",
            "said",
        ]
        with client.websocket_connect(f"/ws/tables/{table}") as socket:
            socket.send_json({"type": "hello", "token": token})
            text = socket.receive_text()
        assert list(json.loads(text)["outcome"]) == [*sending.SOCKET_OUTCOME_ORDER[:4], "said"]


# ------------------------------------------------------------ the sending sites


def _asgi_event(value: ast.expr) -> bool:
    """A ``type`` naming an ASGI event (``http.response.start``, ``websocket.send``): dotted."""
    return isinstance(value, ast.Constant) and isinstance(value.value, str) and "." in value.value


def message_literals(tree: ast.AST) -> list[tuple[int, str]]:
    """Where ``tree`` builds a message by hand: a dict literal (or ``dict(...)``) with a
    ``"protocol"`` key, or a ``"type"`` other than an ASGI event's; line and code."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        pairs: list[tuple[Any, ast.expr]] = []
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Dict):
            pairs = [
                (key.value, value)
                for key, value in zip(node.keys, node.values, strict=True)
                if isinstance(key, ast.Constant)
            ]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "dict"
        ):
            pairs = [(keyword.arg, keyword.value) for keyword in node.keywords]
        if any(
            key == "protocol" or (key == "type" and not _asgi_event(value)) for key, value in pairs
        ):
            found.append((line, ast.unparse(node)[:80]))
    return found


def test_no_sending_site_builds_a_message_as_a_dict_literal() -> None:
    problems = [
        f"  {path.relative_to(ROOT)}:{line}: {code}"
        for path in sorted(SERVER.rglob("*.py"))
        for line, code in message_literals(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert not problems, (
        "messages built as dict literals (build the model of fanfold.server.protocol.messages "
        "and serialise it with wire):\n" + "\n".join(problems)
    )


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ('send({"type": "ok", "played": "a1"})', [1]),
        ('x = {"protocol": PROTOCOL, **body}', [1]),
        ('x = json.dumps({"type": "error", **payload})', [1]),
        ("x = {'type': kind, 'tables': lines}", [1]),
        ('x = dict(type="state", table=t)', [1]),
        ('await send({"type": "http.response.start", "status": 429})', []),
        ('await send({"type": "websocket.close", "code": 1008})', []),
        ('x = {"error": "no", "kind": "Flood"}', []),
        ("x = {'types': 1, **rest}", []),
    ],
)
def test_the_scan_sees_message_literals_only(source: str, found: list[int]) -> None:
    assert [line for line, _ in message_literals(ast.parse(source))] == found
