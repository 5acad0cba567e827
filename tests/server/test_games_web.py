"""``GET /api/games/web``: what the lobby, the table and the lesson pages show of each game,
from the games' plugins, the same as the lists the pages kept before."""

from __future__ import annotations

from pathlib import Path

from tests.server.support import serve


def test_the_pages_read_each_game_from_its_plugin(tmp_path: Path) -> None:
    with serve(tmp_path) as client:
        answer = client.get("/api/games/web")
        assert answer.status_code == 200
        shown = answer.json()
        catalogue = {game["name"] for game in client.get("/api/games").json()}
        plugins_absent = client.get("/static/plugins/fano.js")
    assert [entry["name"] for entry in shown] == ["fano", "morris", "fantan", "fan"]
    assert {entry["name"] for entry in shown} == catalogue
    web = {entry["name"]: entry for entry in shown}
    assert web["morris"]["blurb"].startswith("Place and move circles and triangles")
    assert [name for name, entry in web.items() if not entry["dealt"]] == ["morris"]
    assert [name for name, entry in web.items() if entry["daily"]] == ["fan"]
    assert web["fan"]["seed_label"] == "Deal number (PySolFC)"
    assert {entry["seed_label"] for name, entry in web.items() if name != "fan"} == {"Seed"}
    assert all(entry["lessons"] for entry in shown)
    assert {name: entry["notation_example"] for name, entry in web.items()} == {
        "fano": "4H>6C:3H",
        "fantan": "7H",
        "morris": "C1 or 3-5",
        "fan": "11-F",
    }
    assert web["morris"]["board_hint"].startswith("Make the move on the board: choose a shape")
    assert web["fano"]["board_hint"].startswith("Make the move on the board: click a card")
    assert {entry["renderer"] for entry in shown} == {
        f"/static/games/{name}.js" for name in ("fano", "morris", "fantan", "fan")
    }
    assert all(entry["howto"] == f"/how-to-play/{name}" for name, entry in web.items())
    assert plugins_absent.status_code == 404  # a built-in board is fanfold's own
