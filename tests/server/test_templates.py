"""The pages drawn on the server (fanfold.server.templating): every one escapes what it is given,
so a player's name ``<script>...`` reaches the page as text on the leaderboards, players' and
bots' pages, the daily deal's board and the How-to-play and exact rules pages; the templates
are package data the environment finds."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient

import fanfold.server.howto as howto_module
import fanfold.server.routes.daily as daily_route
import fanfold.server.routes.players as players_route
import fanfold.server.rules as rules_module
from fanfold.server.app import create_app
from fanfold.server.howto import howto_page
from fanfold.server.rules import rules_page
from fanfold.server.templating import ENVIRONMENT, TEMPLATES, render
from tests.server.support import ROOMY, sqlite_url

EVIL = "<script>alert('x')</script>"
ESCAPED = "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"


def _line(name: str, bot: bool = False) -> dict[str, Any]:
    return {
        "rating": 1500,
        "uncertainty": 120,
        "provisional": False,
        "page": f"/players/{name}",
        "name": name,
        "bot": bot,
        "games": 3,
        "family": "fantan",
    }


RESULTS = {"won": 1, "lost": 0, "drawn": 2}
HISTORY = [{"family": "fantan", "before": 1500, "after": 1520, "table": EVIL, "rank": 1}]


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """A site whose leaderboards, profiles and daily board hold a player called :data:`EVIL`."""
    monkeypatch.setattr(players_route, "leaderboard", lambda store, family, limit: [_line(EVIL)])
    monkeypatch.setattr(
        players_route,
        "profile",
        lambda store, name: {
            "name": EVIL,
            "ratings": [_line(EVIL)],
            "history": HISTORY,
            "against_bots": [
                RESULTS | {"family": "fantan", "page": "/bots/fantan/easy", "bot": EVIL}
            ],
        },
    )
    named = {"name": EVIL, "page": f"/players/{EVIL}", "bot": False}
    monkeypatch.setattr(
        players_route,
        "record",
        lambda store, name: {
            "name": EVIL,
            "families": [
                {
                    "family": EVIL,
                    "title": EVIL,
                    "game": EVIL,
                    "speed": "live",
                    "games": 3,
                    "rating": 1500,
                    **RESULTS,
                }
            ],
            "best_wins": [{"table": EVIL, "family": EVIL, "opponent": named, "rating": 1600}],
            "opponents": [{"opponent": named, "games": 3, **RESULTS}],
            "recent": [
                {
                    "table": EVIL,
                    "game": EVIL,
                    "rated": True,
                    "result": "won",
                    "opponents": [named],
                    "replay": f"/table/{EVIL}?replay=1",
                    "review": f"/table/{EVIL}/review",
                }
            ],
        },
    )
    monkeypatch.setattr(
        players_route,
        "bot_profile",
        lambda store, family, level: {
            "name": "Easy bot",
            "rating": _line("easy", bot=True),
            "measured": None,
            "history": HISTORY,
            "against_people": [RESULTS | {"page": "/players/x", "name": EVIL}],
        },
    )
    monkeypatch.setattr(daily_route, "today", lambda: datetime.date(2026, 11, 29))
    monkeypatch.setattr(daily_route, "daily_deal", lambda day: 7)
    monkeypatch.setattr(
        daily_route,
        "board",
        lambda store, deal: [
            {"rank": 1, "name": EVIL, "moves": 80, "aids": [EVIL], "table": EVIL},
        ],
    )
    with TestClient(create_app(sqlite_url(tmp_path), limits=ROOMY)) as made:
        yield made


@pytest.mark.parametrize(
    "path", ["/leaderboard/fantan", "/players/someone", "/bots/fantan/easy", "/daily"]
)
def test_a_players_name_is_escaped_on_every_listing_page(client: TestClient, path: str) -> None:
    page = client.get(path)
    assert page.status_code == 200, page.text
    assert EVIL not in page.text
    assert ESCAPED in page.text
    assert "<script src=" in page.text  # the page's own script is still there


def test_a_missing_players_name_is_escaped_in_the_message(tmp_path: Path) -> None:
    with TestClient(create_app(sqlite_url(tmp_path), limits=ROOMY)) as client:
        page = client.get("/players/%3Cb%3Ebold")
    assert page.status_code == 404
    assert "There is no player called &#39;&lt;b&gt;bold&#39;." in page.text
    assert "<b>bold" not in page.text


def test_a_games_title_is_escaped_on_its_how_to_play_and_rules_pages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = SimpleNamespace(title=EVIL, name="evil")
    monkeypatch.setattr(howto_module, "howto_html", lambda game: "<p>trusted <b>text</b></p>")
    monkeypatch.setattr(rules_module, "rules_html", lambda game: None)
    for page in (howto_page(game, lessons=True), rules_page(game, lessons=True)):  # type: ignore[arg-type]
        assert EVIL not in page
        assert ESCAPED in page
    assert "<p>trusted <b>text</b></p>" in howto_page(game, lessons=False)  # type: ignore[arg-type]


def test_the_environment_autoescapes_and_refuses_a_missing_name() -> None:
    assert ENVIRONMENT.autoescape is True
    assert str(render("families_nav.html", families={"x": "<i>"}, current="x")) == (
        '<nav aria-label="Leaderboards"><a href="/leaderboard/x" '
        'aria-current="page">&lt;i&gt;</a></nav>'
    )
    with pytest.raises(Exception, match="undefined"):
        render("families_nav.html", families={"x": "X"})


def test_every_template_is_package_data() -> None:
    pyproject = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text("utf-8")
    assert '"templates/*",' in pyproject
    names = sorted(path.name for path in TEMPLATES.iterdir())
    assert "base.html" in names
    assert all(path.is_file() for path in TEMPLATES.iterdir())  # "templates/*" takes them all
