"""The server's limits on bots: agent texts from clients are checked against the server's
budget (time cap and search budgets), texts already in a store are capped when their table is
rebuilt, and bots think in a pool where no table holds more than its share."""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path

import pytest

from fanfold.agents.base import parse_agent, registered_agents
from fanfold.agents.levels import LEVELS
from fanfold.agents.strategy import LEVELS as GAME_LEVELS
from fanfold.core.registry import all_games, get_game
from fanfold.server.budget import MAXIMA, NOT_BUDGETS, SECONDS, BotBudget, BudgetError
from fanfold.server.store import Store, token_hash
from tests.server.support import look, open_table, refused, serve, sqlite_url

MORRIS = get_game("morris")
HOG = "mcts(iterations=100000000, seconds=600)"


# ------------------------------------------------------------- the limits


@pytest.mark.parametrize(
    ("text", "limit"),
    [
        ("mcts(iterations=100000000)", "iterations may be at most 5000 on this server"),
        ("mcts(seconds=600)", "seconds may be at most 0.5 on this server"),
        (HOG, "on this server"),
        ("mcts(rollout_limit=100000)", "rollout_limit may be at most 400 on this server"),
        ("mcts(deals=100000)", "deals may be at most 2000 on this server"),
        ("hard(seconds=30)", "seconds may be at most 0.5 on this server"),
    ],
)
def test_an_over_budget_agent_text_is_refused_with_the_limit_named(
    tmp_path: Path, text: str, limit: str
) -> None:
    with serve(tmp_path, bot_seconds=0.5) as client:
        before = client.get("/api/tables").json()
        answer = client.post("/api/tables", json={"game": "morris", "seats": ["you", text]})
        body = refused(answer, 400)
        assert limit in body["error"], body
        assert body["kind"] == "BudgetError"
        assert client.get("/api/tables").json() == before  # nothing opened


def test_pimc_budgets_are_limited_too(tmp_path: Path) -> None:
    with serve(tmp_path, bot_seconds=0.5) as client:
        for text, limit in [
            ("pimc(deals=1000000)", "deals may be at most 2000"),
            ("pimc(lookahead=40)", "lookahead may be at most 2"),
        ]:
            seats = ["you", text, "random", "random"]
            answer = client.post("/api/tables", json={"game": "fantan", "seats": seats})
            assert limit in refused(answer, 400)["error"]


def test_a_record_loaded_with_an_over_budget_bot_is_refused(tmp_path: Path) -> None:
    with serve(tmp_path, bot_seconds=0.5) as client:
        created = open_table(client, game="morris", seats=["you", "friend"])
        table = created["table"]
        record = client.get(f"/api/tables/{table}/record").json()
        answer = client.post("/api/records", json={"record": record, "seats": ["you", HOG]})
        assert "on this server" in refused(answer, 400)["error"]


def test_the_levels_and_a_normal_mcts_pass_with_the_time_cap_added(tmp_path: Path) -> None:
    with serve(tmp_path, bot_seconds=0.5) as client:
        for text, seated in [
            ("hard", "hard(seconds=0.5)"),
            ("easy", "easy(seconds=0.5)"),
            ("mcts", "mcts(seconds=0.5)"),
            ("mcts(iterations=2000, seconds=0.25)", "mcts(iterations=2000, seconds=0.25)"),
            ("perfect(mistakes=0.1)", "perfect(mistakes=0.1)"),
        ]:
            created = open_table(client, game="morris", seats=["you", text])
            message = look(client, created["table"], created["token"])
            assert message["seats"][1]["player"] == seated


def test_every_level_and_every_agent_the_lobby_offers_is_within_the_limits() -> None:
    budget = BotBudget(seconds=1.0)
    for levels in GAME_LEVELS.values():
        for level in LEVELS:
            spec = parse_agent(levels[level])
            assert budget.check(spec) is not None  # the game's own agent behind the level
    for game in all_games():
        for entry in registered_agents(game):
            budget.check(parse_agent(entry.name))


def test_every_numeric_agent_option_is_a_budget_with_a_limit_or_known_not_to_be() -> None:
    """A new agent option that makes decisions cost more must get a server maximum."""
    for entry in registered_agents():
        for spec_field in dataclasses.fields(entry.config):
            value = getattr(entry.config, spec_field.name)
            if isinstance(value, bool) or not isinstance(value, int | float | type(None)):
                continue
            name = spec_field.name
            assert name in MAXIMA or name in NOT_BUDGETS or name == SECONDS, (entry.name, name)


def test_the_budget_caps_what_it_would_refuse() -> None:
    budget = BotBudget(seconds=0.3)
    with pytest.raises(BudgetError, match="iterations may be at most 5000"):
        budget.check(parse_agent(HOG))
    capped, said = budget.cap(parse_agent(HOG))
    assert str(capped) == "mcts(iterations=5000, seconds=0.3)"
    assert said == ["iterations 100000000 -> 5000", "seconds 600 -> 0.3"]
    assert budget.cap(parse_agent("hard"))[0] == parse_agent("hard(seconds=0.3)")
    assert budget.cap(parse_agent("random")) == (parse_agent("random"), [])


# ------------------------------------------------------- texts in the store


def test_a_stored_over_budget_bot_is_capped_when_its_table_is_resumed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = Store(sqlite_url(tmp_path))
    token = "creator-token"
    store.create(
        "hogged",
        MORRIS.id,
        MORRIS.default_config().to_json(),
        7,
        None,
        ["human", HOG],
        [token_hash(token), None],
        allow_undo=True,
        options={},
    )
    store.close()
    with (
        caplog.at_level(logging.WARNING, logger="fanfold.server.hub"),
        serve(tmp_path, bot_seconds=0.5) as client,
    ):
        message = look(client, "hogged", token)
        assert message["seats"][1]["player"] == "mcts(iterations=5000, seconds=0.5)"
    assert any(
        "over this server's limits" in record.getMessage() and HOG in record.getMessage()
        for record in caplog.records
    ), caplog.text
