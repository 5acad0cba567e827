"""What is not there (``NotFoundError``, a 404) and why a table's socket closes, as codes the
pages and the terminal word in their reader's language (``docs/i18n.md``)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from fanfold.core.registry import get_game
from fanfold.server import i18n, lessons
from fanfold.server.hub.basics import MOVED
from fanfold.server.hub.draining import RESTARTING, STOPPING
from fanfold.server.leaderboards import check_family
from fanfold.server.live import NotFoundError
from fanfold.server.refusals import refusal

SERVER = Path(i18n.__file__).resolve().parent
#: What a NotFoundError may be raised with: a refusal made here, or an error's own refusal.
CODED = {"refusal", "Refusal", "reason_of"}


def _raisers() -> list[tuple[str, int, ast.expr]]:
    found = []
    for path in sorted(SERVER.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Raise) or not isinstance(node.exc, ast.Call):
                continue
            called = node.exc.func
            if isinstance(called, ast.Name) and called.id == "NotFoundError":
                first = node.exc.args[0] if node.exc.args else ast.Constant("")
                found.append((path.relative_to(SERVER).as_posix(), node.lineno, first))
    return found


def test_every_not_found_error_is_raised_with_a_code() -> None:
    raisers = _raisers()
    assert len(raisers) >= 15  # lessons, leaderboards, profiles, tables, replays, lobby...
    for place, line, first in raisers:
        maker = first.func if isinstance(first, ast.Call) else None
        assert isinstance(maker, ast.Name), f"{place}:{line}"
        assert maker.id in CODED, f"{place}:{line}"


def test_a_not_found_error_is_worded_in_french() -> None:
    french = i18n.messages("fr")
    with pytest.raises(NotFoundError) as raised:
        check_family("chess")
    assert raised.value.refusal is not None
    assert raised.value.refusal.code == "found.leaderboard"
    assert raised.value.args[0].startswith("no leaderboard called 'chess'; there are ")
    assert french.text(raised.value).startswith(
        "aucun classement ne s\u2019appelle 'chess' ; il y a "
    )
    with pytest.raises(NotFoundError) as missing:
        lessons.book_for("chess")
    assert french.text(missing.value).startswith("il n\u2019y a pas de leçons pour 'chess' ; ")
    # a lesson that is not there: the lessons' own refusal, carried through
    book = lessons.book_for("morris")
    with pytest.raises(NotFoundError) as unknown:
        lessons.lesson_in(book, "nowhere")
    assert unknown.value.refusal is not None
    assert unknown.value.refusal.code == "lesson.unknown"
    title = get_game("morris").title
    assert french.text(unknown.value).startswith(
        f"{title} n\u2019a pas de leçon appelée 'nowhere' ; ses leçons : "
    )
    table = NotFoundError(refusal("found.table", table="'abc'"))
    assert table.args[0] == "there is no table 'abc'"
    assert french.text(table) == "il n\u2019y a pas de table 'abc'"


def test_a_missing_page_answers_its_code_and_params(client: TestClient) -> None:
    answer = client.get("/api/leaderboard/chess")
    assert answer.status_code == 404
    body = answer.json()
    assert body["code"] == "found.leaderboard"
    assert body["params"]["name"] == "'chess'"
    assert body["error"].startswith("no leaderboard called 'chess'")
    table = client.get("/api/tables/nosuchtable")
    assert table.status_code == 404
    assert table.json()["code"] == "found.table"


@pytest.mark.parametrize(
    ("reason", "english", "french"),
    [
        (
            MOVED,
            "the table moved to another server process; reconnect",
            "la table est passée à un autre processus du serveur ; reconnexion",
        ),
        (
            RESTARTING,
            "the server process is restarting; reconnecting to another",
            "le processus du serveur redémarre ; reconnexion à un autre",
        ),
        (
            STOPPING,
            "the server is stopping; reconnecting once it is back",
            "le serveur s\u2019arrête ; reconnexion dès son retour",
        ),
    ],
)
def test_a_close_reason_is_a_code_the_pages_catalogue_words(
    reason: str, english: str, french: str
) -> None:
    assert reason.startswith("close.")
    assert len(reason.encode()) <= 123  # what a close frame's reason holds
    assert i18n.messages("en").worded({"code": reason, "params": {}}) == english
    assert i18n.messages("fr").worded({"code": reason, "params": {}}) == french
    # the page's catalogue has it under its code: closeText(event.reason) words it there
    assert json.loads(i18n.messages("fr").script_json())[reason] == french
    common = (SERVER / "static" / "common.js").read_text(encoding="utf-8")
    assert "export function closeText(reason)" in common
    table = (SERVER / "static" / "table.js").read_text(encoding="utf-8")
    assert "closeText(event.reason)" in table
