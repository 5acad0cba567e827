"""The site a new player meets, over HTTP: the daily Fan deal, the How-to-play pages and a
loaded finished record listed as finished (the browser tests are in test_site_browser.py)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from fanfold.games.fan import FanConfig, FanGame
from fanfold.server import daily
from fanfold.server.store import Store, tables
from fanfold.solvers.fan import solve
from tests.server.support import serve, sqlite_url
from tests.server.test_api import morris_record


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with serve(tmp_path) as test_client:
        yield test_client


# ------------------------------------------------------------------ the daily deal

DAYS = [dt.date(2026, 11, 24), dt.date(2026, 11, 26), dt.date(2027, 2, 28), dt.date(2028, 2, 29)]


@pytest.mark.parametrize("day", DAYS, ids=str)
def test_a_daily_deal_is_winnable_and_the_first_such_candidate(day: dt.date) -> None:
    deal = daily.daily_deal(day)
    candidates = list(daily.candidates(day))
    assert deal in candidates
    state = FanGame().new_state(FanConfig(), deal)
    assert solve(state, max_states=daily.BUDGET).verdict == "solved"
    for earlier in candidates[: candidates.index(deal)]:
        verdict = solve(FanGame().new_state(FanConfig(), earlier), max_states=daily.BUDGET)
        assert verdict.verdict != "solved"


def test_the_daily_deal_depends_on_the_date_only() -> None:
    day = dt.date(2026, 11, 24)
    first = daily.daily_deal(day)
    daily.daily_deal.cache_clear()  # as a fresh process would
    assert daily.daily_deal(day) == first
    # 20261124 itself (the old daily deal) cannot be won; no two days share a candidate
    assert solve(FanGame().new_state(FanConfig(), 20261124)).verdict == "unsolvable"
    assert not set(daily.candidates(day)) & set(daily.candidates(day + dt.timedelta(days=1)))


def test_no_winnable_candidate_is_said_in_a_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(daily, "BUDGET", 1)
    monkeypatch.setattr(daily, "CANDIDATES", 2)
    day = dt.date(1999, 1, 1)
    with pytest.raises(daily.NoDailyDealError, match="none of the 2 candidate deals of 1999"):
        daily.daily_deal.__wrapped__(day)


def test_api_daily_answers_todays_deal(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    day = dt.date(2026, 11, 26)
    monkeypatch.setattr("fanfold.server.routes.tables.today", lambda: day)
    answer = client.get("/api/daily")
    assert answer.status_code == 200
    assert answer.json() == {
        "game": "fan",
        "deal": daily.daily_deal(day),
        "variant": "classic",
        "date": "2026-11-26",
    }
    assert client.get("/api/daily").json() == answer.json()


# --------------------------------------------------------- a loaded finished record


def test_a_loaded_finished_record_is_stored_as_finished(client: TestClient, tmp_path: Path) -> None:
    answer = client.post("/api/records", json={"record": morris_record(29)})
    assert answer.status_code == 200, answer.text
    table = answer.json()["table"]
    store = Store(sqlite_url(tmp_path))
    try:
        stored = store.load(table)
        assert stored is not None
        assert stored.outcome is not None
        assert table not in [found for found, _ in store.to_resume()]
        with store.engine.begin() as connection:  # as if it had been opened to the public
            connection.execute(sa.update(tables).where(tables.c.id == table).values(listed=True))
    finally:
        store.close()
    listed = client.get("/api/tables").json()
    assert [(row["table"], row["over"]) for row in listed] == [(table, True)]
