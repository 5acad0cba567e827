"""The bot levels' starting ratings, measured by arena runs (``scripts/rate_bots.py``) and
read from ``src/fanfold/server/bot_ratings.json``: the loader, a level's first rated game
starting from it, and the lobby's "Hard bot, about N"."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from fanfold.agents.levels import LEVELS
from fanfold.server.app import create_app
from fanfold.server.ratings import (
    BOT_RATINGS,
    MU,
    SIGMA,
    AnchorError,
    RatedGame,
    bot_anchors,
    first_rating,
    rating_changes,
    read_anchors,
)
from fanfold.server.store import Store
from tests.server.support import ROOMY, refused, sqlite_url


def test_the_checked_in_file_gives_every_level_of_morris_a_rating() -> None:
    anchors = read_anchors(BOT_RATINGS)
    assert anchors == bot_anchors()
    morris = [anchors[("morris", level)] for level in LEVELS]
    assert [mu for mu, _ in morris] == sorted(mu for mu, _ in morris)  # easy < medium < hard
    assert all(sigma > 0 for _, sigma in morris)
    assert not any(level == "random" for _, level in anchors)  # a yardstick, not a level
    data = json.loads(BOT_RATINGS.read_text())
    assert "rate_bots.py" in data["families"]["morris"]["command"]


def test_a_damaged_file_is_refused_with_its_name(tmp_path: Path) -> None:
    path = tmp_path / "bot_ratings.json"
    path.write_text('{"families": {"morris": {"ratings": {"hard": {"mu": 1}}}}}')
    with pytest.raises(AnchorError, match=r"bot_ratings.json cannot be read: 'sigma'"):
        read_anchors(path)
    path.write_text('{"families": {"morris": {"ratings": {"hard": {"mu": 1, "sigma": 0}}}}}')
    with pytest.raises(AnchorError, match=r"sigma 0\.0 is not positive"):
        read_anchors(path)
    path.write_text("not JSON")
    with pytest.raises(AnchorError, match="cannot be read"):
        read_anchors(path)


def test_first_ratings_anchor_bots_and_nobody_else() -> None:
    assert first_rating("morris", "bot:morris:hard") == bot_anchors()[("morris", "hard")]
    assert first_rating("morris", "a:7") == (MU, SIGMA)
    assert first_rating("no-such-family", "bot:x:hard") == (MU, SIGMA)


def test_a_levels_first_rated_game_starts_from_its_measured_rating(tmp_path: Path) -> None:
    store = Store(sqlite_url(tmp_path))
    game = RatedGame("g1", "morris", "morris", ("a:1", "bot:morris:hard"), ((0,), (1,)), (-1, 1))
    with store.engine.begin() as connection:
        assert game.apply(connection)
    with store.engine.connect() as connection:
        rows = {row.player: row for row in connection.execute(sa.select(rating_changes))}
    hard = bot_anchors()[("morris", "hard")]
    assert (rows["bot:morris:hard"].mu_before, rows["bot:morris:hard"].sigma_before) == hard
    assert (rows["a:1"].mu_before, rows["a:1"].sigma_before) == (MU, SIGMA)
    # an expected win moves the strong bot less than an even game would
    assert 0 < rows["bot:morris:hard"].mu_after - hard[0] < 100
    store.close()


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url(tmp_path), bot_seconds=0.5, limits=ROOMY)) as client:
        yield client


def test_the_lobby_asks_for_each_levels_rating(client: TestClient) -> None:
    found = client.get("/api/bot-ratings", params={"game": "morris"}).json()
    assert found["family"] == "morris"
    by_level = {line["level"]: line for line in found["levels"]}
    assert set(by_level) == set(LEVELS)
    mu, sigma = bot_anchors()[("morris", "hard")]
    assert by_level["hard"] == {
        "level": "hard",
        "rating": round(mu),
        "uncertainty": round(2 * sigma),
        "games": 0,
        "provisional": True,
        "measured": True,
    }
    alone = client.get("/api/bot-ratings", params={"game": "fan"}).json()
    assert alone == {"family": None, "levels": []}
    unknown = client.get("/api/bot-ratings", params={"game": "chess"})
    assert "chess" in refused(unknown, unknown.status_code)["error"]
    assert unknown.status_code in (400, 404)


def test_the_script_rates_the_levels_and_keeps_the_other_families(tmp_path: Path) -> None:
    """``scripts/rate_bots.py`` on a few Morris games: the file it writes is one the loader
    reads, with the command, and a family it did not run stays as it was."""
    out = tmp_path / "bot_ratings.json"
    out.write_text(
        json.dumps({"families": {"fantan": {"ratings": {"hard": {"mu": 1, "sigma": 2}}}}})
    )
    script = Path(__file__).resolve().parents[2] / "scripts" / "rate_bots.py"
    done = subprocess.run(
        [sys.executable, str(script), "--families", "morris", "--games", "4", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    anchors = read_anchors(out)
    assert anchors[("fantan", "hard")] == (1.0, 2.0)
    morris = [anchors[("morris", level)][0] for level in LEVELS]
    assert morris == sorted(morris)  # perfect play with fewer mistakes ranks higher
    data = json.loads(out.read_text())
    assert data["families"]["morris"]["games"] == 24  # six pairs, four games each
    assert "--families morris --games 4" in data["families"]["morris"]["command"]
    refused = subprocess.run(
        [sys.executable, str(script), "--families", "chess", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert refused.returncode == 2
    assert "no family chess" in refused.stderr
