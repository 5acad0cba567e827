"""The bot levels' starting ratings, measured by arena runs (``scripts/rate_bots.py``) and
read from ``src/fanfold/server/bot_ratings.json``: the loader, a level's first rated game
starting from it, the lobby's "Hard bot, about N", and the levels on the leaderboards and their
own pages from the start (one line each once they have played)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

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
    anchor_runs,
    bot_anchors,
    first_rating,
    read_anchor_runs,
    read_anchors,
)
from fanfold.server.store import Store, rating_changes, ratings
from tests.server.support import ROOMY, refused, sqlite_url
from tests.server.test_accounts import create
from tests.server.test_ratings import second_browser


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


def _rate(client: TestClient, game: RatedGame) -> None:
    with client.app.state.hub.store.engine.begin() as connection:  # type: ignore[attr-defined]
        assert game.apply(connection)


def _morris(table: str, players: tuple[str, str], returns: tuple[float, float]) -> RatedGame:
    return RatedGame(table, "morris", "morris", players, ((0,), (1,)), returns)


def test_the_file_says_how_each_level_was_measured() -> None:
    hard = anchor_runs()[("fano-trionfey", "hard")]
    assert (hard.game, hard.key) == ("fano", "bot:fano:hard")
    assert (hard.mu, hard.sigma) == bot_anchors()[("fano-trionfey", "hard")]
    assert hard.games > 0
    assert "--families fano-trionfey" in hard.command


def test_a_family_without_its_game_is_named_after_it(tmp_path: Path) -> None:
    path = tmp_path / "bot_ratings.json"
    path.write_text('{"families": {"fano-classic": {"ratings": {"easy": {"mu": 9, "sigma": 2}}}}}')
    easy = read_anchor_runs(path)[("fano-classic", "easy")]
    assert (easy.key, easy.games, easy.command) == ("bot:fano:easy", 0, "")


def test_every_measured_level_is_on_its_leaderboard_before_its_first_game(
    client: TestClient,
) -> None:
    for family_name in ("morris", "fantan", "fano-classic", "fano-trionfey"):
        board = client.get(f"/api/leaderboard/{family_name}").json()
        measured = {
            level: (mu, sigma)
            for (name, level), (mu, sigma) in bot_anchors().items()
            if name == family_name
        }
        assert [line["level"] for line in board] == sorted(
            measured, key=lambda level: -measured[level][0]
        ), family_name  # best first
        for line in board:
            mu, sigma = measured[line["level"]]
            assert line["rating"] == round(mu)
            assert line["uncertainty"] == round(2 * sigma)
            assert line["bot"] is True
            assert line["anchored"] is True
            assert line["games"] == 0
            assert line["name"] == f"{line['level'].capitalize()} bot"
            assert line["page"] == f"/bots/{family_name}/{line['level']}"
    two = client.get("/api/leaderboard/morris", params={"limit": 2}).json()
    assert [line["level"] for line in two] == ["hard", "medium"]


@pytest.mark.usefixtures("listed_at_once")
def test_a_level_that_played_has_one_line_moved_by_its_games(client: TestClient) -> None:
    create(client, "ada")
    _rate(client, _morris("t1", ("a:1", "bot:morris:easy"), (1, -1)))  # ada beats easy
    board = client.get("/api/leaderboard/morris").json()
    names = [line["name"] for line in board]
    assert sorted(names) == ["Easy bot", "Hard bot", "Medium bot", "ada"]  # no second easy
    easy = next(line for line in board if line["name"] == "Easy bot")
    measured = bot_anchors()[("morris", "easy")][0]
    assert easy["games"] == 1
    assert easy["anchored"] is False
    assert easy["rating"] < round(measured)  # it lost
    assert next(line for line in board if line["name"] == "ada")["page"] == "/players/ada"
    page = client.get("/leaderboard/morris").text
    assert page.count(">Easy bot</a>") == 1
    assert page.count("(from games between bots)") == 2  # medium and hard, not yet played
    assert "arena" not in page  # the players' words, not the developers'
    hard = '<a href="/bots/morris/hard">Hard bot</a> <span class="tag">bot</span>'  # worded
    assert hard in page


def test_a_level_row_that_never_played_reads_as_its_measured_rating(client: TestClient) -> None:
    """A level at several seats of one game has a row but no game: it reads (and later
    starts) from the measured rating the server has now, not an older one."""
    with client.app.state.hub.store.engine.begin() as connection:  # type: ignore[attr-defined]
        connection.execute(
            ratings.insert().values(
                family="morris", player="bot:morris:hard", mu=1.0, sigma=9.0, games=0, updated=0
            )
        )
    mu, sigma = bot_anchors()[("morris", "hard")]
    board = client.get("/api/leaderboard/morris").json()
    assert board[0]["name"] == "Hard bot"
    assert (board[0]["rating"], board[0]["anchored"]) == (round(mu), True)
    assert sum(line["name"] == "Hard bot" for line in board) == 1
    create(client, "ada")
    _rate(client, _morris("t1", ("a:1", "bot:morris:hard"), (-1, 1)))
    with client.app.state.hub.store.engine.connect() as connection:  # type: ignore[attr-defined]
        change = connection.execute(
            sa.select(rating_changes).where(rating_changes.c.player == "bot:morris:hard")
        ).one()
    assert (change.mu_before, change.sigma_before) == (mu, sigma)


def test_a_levels_page_before_and_after_games_against_people(client: TestClient) -> None:
    before = client.get("/api/bots/fantan/hard").json()
    mu, sigma = bot_anchors()[("fantan", "hard")]
    assert before["name"] == "Hard bot"
    assert before["rating"]["rating"] == round(mu)
    assert before["rating"]["anchored"] is True
    assert before["measured"]["rating"] == round(mu)
    assert before["measured"]["uncertainty"] == round(2 * sigma)
    assert before["measured"]["games"] == anchor_runs()[("fantan", "hard")].games
    assert "rate_bots.py" in before["measured"]["command"]
    assert before["history"] == before["against_people"] == []
    page = client.get("/bots/fantan/hard")
    assert page.status_code == 200
    assert "How its rating started" in page.text
    assert "rate_bots" not in page.text  # players' words, not the command that measured it
    assert "no rated game against people yet" in page.text
    create(client, "ada")
    create(second_browser(client), "bea")
    fantan = ((0,), (1,), (2,))
    _rate(
        client,
        RatedGame("t1", "fantan", "fantan", ("a:1", "a:2", "bot:fantan:hard"), fantan, (0, -1, 1)),
    )
    _rate(
        client,
        RatedGame("t2", "fantan", "fantan", ("bot:fantan:hard", "a:1", "a:2"), fantan, (-1, 1, 0)),
    )
    after = client.get("/api/bots/fantan/hard").json()
    assert after["rating"]["games"] == 2
    assert after["rating"]["anchored"] is False
    assert [point["table"] for point in after["history"]] == ["t1", "t2"]
    assert after["against_people"] == [
        {"name": "ada", "page": "/players/ada", "won": 1, "lost": 1, "drawn": 0},
        {"name": "bea", "page": "/players/bea", "won": 1, "lost": 1, "drawn": 0},
    ]
    assert after["measured"] == before["measured"]  # how it started stays said
    page = client.get("/bots/fantan/hard").text
    assert '<a href="/players/ada" translate="no">ada</a>' in page
    assert "/table/t2?replay=1" in page
    assert "<svg" in page
    profile = client.get("/api/players/ada").json()
    assert profile["against_bots"][0]["page"] == "/bots/fantan/hard"
    assert 'href="/bots/fantan/hard"' in client.get("/players/ada").text


def test_a_level_or_family_with_no_rating_has_no_page(client: TestClient) -> None:
    for path, said in [
        ("/api/bots/morris/random", "no bot 'random'"),
        ("/api/bots/morris/grandmaster", "no bot 'grandmaster'"),
        ("/api/bots/chess/hard", "no leaderboard called 'chess'"),
    ]:
        assert said in refused(client.get(path), 404)["error"], path
    assert client.get("/bots/morris/random").status_code == 404


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


def test_a_run_stopped_part_way_keeps_the_families_it_finished(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each family is written as soon as it is rated: a run stopped in its second family (a
    timeout, a kill) keeps the first, and the families it did not reach as they were."""
    script = Path(__file__).resolve().parents[2] / "scripts" / "rate_bots.py"
    spec = importlib.util.spec_from_file_location("rate_bots_script", script)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = tmp_path / "bot_ratings.json"
    out.write_text(json.dumps({"families": {"fantan": {"ratings": {}}}}))

    def rate(
        name: str, games: int, seed: int, workers: int, members: tuple[str, ...]
    ) -> dict[str, object]:
        if name == "fano-trionfey":
            raise KeyboardInterrupt  # stopped while this family plays
        return {"ratings": {"hard": {"mu": 2000.0, "sigma": 300.0, "games": games}}}

    monkeypatch.setattr(module, "rate_family", rate)
    with pytest.raises(KeyboardInterrupt):
        module.main(["--families", "morris,fano-trionfey", "--games", "4", "--out", str(out)])
    families = json.loads(out.read_text())["families"]
    assert sorted(families) == ["fantan", "morris"]
    assert families["morris"]["ratings"]["hard"]["games"] == 4
    assert "--families morris --games 4" in families["morris"]["command"]


def _script() -> ModuleType:
    script = Path(__file__).resolve().parents[2] / "scripts" / "rate_bots.py"
    spec = importlib.util.spec_from_file_location("rate_bots_script", script)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_ladder_members_are_kept_apart_from_the_levels(tmp_path: Path) -> None:
    """A Fano family's ladder members sit under ``members``: the server reads the levels
    only, as from a file written before there were members."""
    path = tmp_path / "bot_ratings.json"
    level = {"mu": 2000.0, "sigma": 300.0, "games": 12}
    member = {"mu": 2100.0, "sigma": 310.0, "games": 12}
    family = {"game": "fano.v1", "ratings": {"random": level, "medium": level}, "command": "c"}
    path.write_text(json.dumps({"families": {"fano-classic": family}}))
    old = read_anchor_runs(path)
    assert list(old) == [("fano-classic", "medium")]
    family["members"] = {"ladder(style=attack)": member, "hard": member}
    path.write_text(json.dumps({"families": {"fano-classic": family}}))
    assert read_anchor_runs(path) == old  # a member named like a level is still no level
    assert read_anchors(path) == {("fano-classic", "medium"): (2000.0, 300.0)}
    checked_in = json.loads(BOT_RATINGS.read_text())["families"]
    for name, part in checked_in.items():
        for member_name in part.get("members", {}):
            assert (name, member_name) not in bot_anchors()


def test_a_tiny_run_rates_ladder_members_with_the_levels(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two fast levels and two ladder members, two games a pair: every player meets every
    other, the members' ratings are written under ``members`` with the command that gives
    them, the progress is said as the games are played, and the server reads the levels."""
    module = _script()
    monkeypatch.setitem(
        module.FAMILIES, "fano-classic", ("fano", "classic", 2, ("random", "medium"))
    )
    out = tmp_path / "bot_ratings.json"
    members = "ladder(style=attack),ladder(style=rush)"
    module.main(
        ["--families", "fano-classic", "--games", "2", "--members", members, "--out", str(out)]
    )
    part = json.loads(out.read_text())["families"]["fano-classic"]
    assert part["games"] == 12  # six pairs of four players, two games each
    assert sorted(part["ratings"]) == ["medium", "random"]
    assert sorted(part["members"]) == ["ladder(style=attack)", "ladder(style=rush)"]
    for rating in [*part["ratings"].values(), *part["members"].values()]:
        assert rating["games"] == 6  # each of the three others, both seats
        assert 0 < rating["sigma"] < SIGMA
    assert part["members"]["ladder(style=attack)"]["mu"] > part["ratings"]["random"]["mu"]
    assert part["command"] == (
        "python3 scripts/rate_bots.py --families fano-classic --games 2 --seed 1 "
        f"--members '{members}'"
    )
    assert list(read_anchor_runs(out)) == [("fano-classic", "medium")]
    said = capsys.readouterr().err
    assert "fano-classic: 1/12 games," in said
    assert "fano-classic: 12/12 games," in said
    assert "ladder(style=attack):" in said


def test_each_fano_edition_has_its_members_and_bad_members_change_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    module = _script()
    assert sorted(module.MEMBERS) == ["fano-classic", "fano-trionfey"]
    for name, members in module.MEMBERS.items():
        assert 0 < len(members) <= module.MAX_MEMBERS
        assert module.family_members(name, None) == members
        assert all(member.startswith("ladder(style=") for member in members)
    assert module.family_members("morris", None) == ()
    assert module.family_members("fano-classic", []) == ()  # --members '': the levels alone
    out = tmp_path / "bot_ratings.json"
    out.write_text('{"families": {}}')
    for members, said in [
        # medium is the balanced member looking ahead a little
        ("ladder(deals=4, budget=32)", "budget=32) plays as one of the levels"),
        ("hard", "hard plays as one of the levels"),
        ("ladder(style=nosuch)", "nosuch"),
        ("ladder(style=rush),,ladder(style=attack)", "comma-separated list of agents"),
        (
            ",".join(f"ladder(style={s})" for s in ("rush", "attack", "defend", "bluff", "call")),
            "at most 4",
        ),
    ]:
        with pytest.raises(SystemExit) as stopped:
            module.main(["--families", "fano-classic", "--members", members, "--out", str(out)])
        assert stopped.value.code == 2
        assert said in capsys.readouterr().err, members
        assert out.read_text() == '{"families": {}}'
    with pytest.raises(SystemExit):
        module.main(["--families", "morris", "--members", "ladder(style=rush)", "--out", str(out)])
    assert "members are rated in fano-classic, fano-trionfey only" in capsys.readouterr().err
