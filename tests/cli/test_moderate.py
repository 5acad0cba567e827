"""``fanfold moderate assistance``: rated Fano330-R-Morris games played through the server,
then read from its store: the accounts, their counts and verdicts, one account by name or
number, the store left as it was, and clear errors for a bad URL or a foreign database."""

from __future__ import annotations

import hashlib
import sqlite3
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from fanfold.cli.app import app
from fanfold.core.records import GameRecord
from fanfold.games.morris import GAME as MORRIS
from fanfold.games.morris import MorrisState
from fanfold.play.assistance import AssistanceStats, critical_decisions
from fanfold.server.app import create_app
from fanfold.solvers.morris import best_actions, load_table
from tests.server.support import ROOMY, look, sqlite_url
from tests.server.test_accounts import create, csrf
from tests.server.test_ratings import second_browser
from tests.server.test_store import _postgres_url, postgres_cluster  # noqa: F401 (fixture)

runner = CliRunner()

#: Who chooses a person's move: the state, its legal texts in, the text to play out.
Chooser = Callable[[MorrisState, list[str]], str]


def solver_move(state: MorrisState, legal: list[str]) -> str:
    """The solved table's best move (what a player copying the solver plays)."""
    return MORRIS.action_text(best_actions(load_table(state.config.adjacency), state)[0])


def first_move(state: MorrisState, legal: list[str]) -> str:
    return legal[0]


def play(
    client: TestClient, level: str, seat: int, choose: Chooser, *, rated: bool = True
) -> GameRecord:
    """Open a Morris table (rated unless told) against the bot ``level`` with the person at
    ``seat``, play the person's moves with ``choose`` until the game ends; returns the stored
    game."""
    seats = ["you", level] if seat == 0 else [level, "you"]
    answer = client.post(
        "/api/tables", json={"game": "morris", "seats": seats, "rated": rated}, headers=csrf(client)
    )
    assert answer.status_code == 200, answer.text
    table, token = answer.json()["table"], answer.json()["token"]
    store = client.app.state.hub.store  # type: ignore[attr-defined]
    deadline = time.monotonic() + 120  # a guard against a game that never ends, not a timing
    while True:
        message = look(client, table, token)
        stored = store.load(table)
        record = GameRecord(
            stored.game, stored.config, stored.seed, tuple(text for _, text in stored.actions)
        )
        if message["outcome"] is not None:
            return record
        assert time.monotonic() < deadline, "the game did not end"
        if (
            message["decider"] != seat
            or not message["legal"]
            or len(record.actions) != message["version"]  # the bot's move is being stored
        ):
            time.sleep(0.02)
            continue
        played = client.post(
            f"/api/tables/{table}/act",
            json={
                "token": token,
                "action": choose(record.replay(), message["legal"]),
                "version": message["version"],
            },
            headers=csrf(client),
        )
        assert played.status_code in (200, 409), played.text


@dataclass(frozen=True)
class Played:
    """The store after the games, and what each account's games hold."""

    url: str
    path: Path
    alice: AssistanceStats
    bob: AssistanceStats


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """alice copies the solver in rated games against ``hard``, colours in turn, until she has
    the evidence for a verdict; bob plays two rated games (his first legal move each time);
    alice also plays a casual game, which the check never reads."""
    folder = tmp_path_factory.mktemp("moderate")
    url = sqlite_url(folder)
    alice_stats = bob_stats = AssistanceStats()
    app_ = create_app(url, bot_seconds=0.2, limits=ROOMY)
    with TestClient(app_) as alice:
        bob = second_browser(alice)
        create(alice, "alice")
        create(bob, "bob")
        number = 0
        while alice_stats.games < 5 or alice_stats.critical < 40:
            seat = number % 2
            record = play(alice, "hard", seat, solver_move)
            alice_stats = alice_stats.add_game(critical_decisions(record, seat))
            number += 1
            assert number < 20
        for seat in (0, 1):
            record = play(bob, "easy", seat, first_move)
            bob_stats = bob_stats.add_game(critical_decisions(record, seat))
        play(alice, "hard", 0, solver_move, rated=False)
    return Played(url, folder / "fanfold.db", alice_stats, bob_stats)


def moderate(*arguments: str) -> Any:
    return runner.invoke(app, ["moderate", "assistance", *arguments])


def row_of(output: str, name: str) -> list[str]:
    """The cells of the table's row for ``name``."""
    for line in output.splitlines():
        cells = [cell.strip() for cell in line.replace("┃", "│").split("│")]
        cells = [cell for cell in cells if cell]
        if cells and cells[0] == name:
            return cells
    raise AssertionError(f"no row for {name} in:\n{output}")


def test_every_account_is_listed_with_its_counts_and_verdict(played: Played) -> None:
    result = moderate("--db", played.url)
    assert result.exit_code == 0, result.output
    alice, bob = played.alice, played.bob
    assert alice.matched == alice.critical >= 40
    assert row_of(result.output, "alice") == [
        "alice",
        str(alice.games),
        str(alice.critical),
        "100.0%",
        "flagged",
    ]
    share = "-" if not bob.critical else f"{bob.matched / bob.critical:.1%}"
    assert row_of(result.output, "bob") == [
        "bob",
        "2",
        str(bob.critical),
        share,
        "not enough evidence",
    ]
    assert "alice: Flagged for a moderator" in result.output
    assert "bob:" not in result.output  # sentences for flagged accounts only


def test_one_account_by_name_or_number_with_its_sentence(played: Played) -> None:
    by_name = moderate("--db", played.url, "--account", "ALICE")
    assert by_name.exit_code == 0, by_name.output
    assert row_of(by_name.output, "alice")[-1] == "flagged"
    assert "bob" not in by_name.output
    with sqlite3.connect(played.path) as connection:
        (bob_id,) = connection.execute("SELECT id FROM accounts WHERE name = 'bob'").fetchone()
    by_number = moderate("--db", played.url, "--account", str(bob_id))
    assert by_number.exit_code == 0, by_number.output
    assert row_of(by_number.output, "bob")[-1] == "not enough evidence"
    assert "bob: Not enough evidence" in by_number.output
    assert "alice" not in by_number.output
    # More evidence may be asked for: then alice has not enough either.
    stricter = moderate(
        "--db", played.url, "--account", "alice", "--min-games", str(played.alice.games + 1)
    )
    assert stricter.exit_code == 0, stricter.output
    assert row_of(stricter.output, "alice")[-1] == "not enough evidence"
    unknown = moderate("--db", played.url, "--account", "nobody")
    assert unknown.exit_code == 2
    assert "no account is called 'nobody'" in unknown.output


def test_the_store_is_only_read(played: Played) -> None:
    def files() -> dict[str, str]:
        return {
            path.name: hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(played.path.parent.iterdir())
            if path.is_file()
        }

    before = files()
    assert moderate("--db", played.url).exit_code == 0
    after = files()
    # The database file is unchanged; SQLite may leave its write-ahead log (empty: nothing was
    # written) and the log's shared-memory index beside it when a reader opens it.
    assert after[played.path.name] == before[played.path.name]
    wal = played.path.with_name(played.path.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0
    assert set(after) - set(before) <= {wal.name, played.path.name + "-shm"}


def test_the_minimums_may_not_be_lowered(played: Played) -> None:
    for option in (["--min-critical", "39"], ["--min-games", "4"]):
        result = moderate("--db", played.url, *option)
        assert result.exit_code == 2
        assert "may raise those, not lower them" in result.output


def test_a_bad_url_or_a_database_without_the_store_is_a_clear_error(tmp_path: Path) -> None:
    bad = moderate("--db", "not a url")
    assert bad.exit_code == 2
    assert "--db is no database URL: give sqlite:///" in bad.output
    missing = moderate("--db", sqlite_url(tmp_path, "missing.db"))
    assert missing.exit_code == 2
    assert "there is no SQLite file at" in missing.output
    assert not (tmp_path / "missing.db").exists()  # never created
    foreign = tmp_path / "other.db"
    with sqlite3.connect(foreign) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
    answer = moderate("--db", sqlite_url(tmp_path, "other.db"))
    assert answer.exit_code == 2
    assert "holds no fanfold store" in answer.output
    assert "rated_games" in answer.output
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not a database file at all, only words" * 100)
    damaged = moderate("--db", sqlite_url(tmp_path, "junk.db"))
    assert damaged.exit_code == 2
    assert "cannot be read: file is not a database" in damaged.output


def test_an_empty_store_has_no_account_to_list(tmp_path: Path) -> None:
    from fanfold.server.store import Store

    Store(sqlite_url(tmp_path)).close()
    result = moderate("--db", sqlite_url(tmp_path))
    assert result.exit_code == 0, result.output
    assert "No account has a finished rated Fano330-R-Morris game." in result.output


def test_the_help_tells_what_the_check_does() -> None:
    result = runner.invoke(app, ["moderate", "assistance", "--help"])
    assert result.exit_code == 0, result.output
    for words in ("--db", "--account", "--min-critical", "--min-games", "critical positions"):
        assert words in result.output
    group = runner.invoke(app, ["moderate", "--help"])
    assert group.exit_code == 0
    assert "assistance" in group.output


def _new_database(cluster: str) -> str:
    """The URL of a new, empty database in the test cluster."""
    name = f"t_{uuid.uuid4().hex[:16]}"
    engine = sa.create_engine(_postgres_url(cluster, "postgres"), isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(sa.text(f"CREATE DATABASE {name}"))
    engine.dispose()
    return _postgres_url(cluster, name)


def test_a_postgresql_store_is_read_too(postgres_cluster: str) -> None:  # noqa: F811
    url = _new_database(postgres_cluster)
    with TestClient(create_app(url, bot_seconds=0.2, limits=ROOMY)) as client:
        create(client, "carol")
        record = play(client, "medium", 1, solver_move)
    stats = AssistanceStats().add_game(critical_decisions(record, 1))
    result = moderate("--db", url)
    assert result.exit_code == 0, result.output
    share = "-" if not stats.critical else "100.0%"
    assert row_of(result.output, "carol") == [
        "carol",
        "1",
        str(stats.critical),
        share,
        "not enough evidence",
    ]
    foreign = moderate("--db", _new_database(postgres_cluster))
    assert foreign.exit_code == 2
    assert "holds no fanfold store" in foreign.output
    missing = moderate("--db", _postgres_url(postgres_cluster, "no_such_database"))
    assert missing.exit_code == 2
    assert "cannot be read" in missing.output
    assert "no_such_database" in missing.output
