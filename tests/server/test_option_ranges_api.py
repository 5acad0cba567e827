"""The server checks a table's options against their ranges: in ``POST /api/tables`` and in
a record's config (``POST /api/records``), refused with the option's sentence, nothing made."""

from __future__ import annotations

from pathlib import Path

from fanfold.core.registry import get_game
from fanfold.play.setup import new_table
from tests.server.support import refused, serve


def test_an_option_out_of_range_is_refused_with_its_sentence(tmp_path: Path) -> None:
    with serve(tmp_path) as client:
        before = client.get("/api/tables").json()
        body = refused(
            client.post(
                "/api/tables",
                json={
                    "game": "fano",
                    "seats": ["you", "random"],
                    "options": {"turns_per_player": "1e23"},
                },
            ),
            400,
        )
        assert body == {
            "error": "turns_per_player must be from 1 to 10000, not 1e+23",
            "kind": "ConfigError",
            # its code and params, for a page to word it in its reader's language
            "code": "config.range",
            "params": {"name": "turns_per_player", "low": 1, "high": 10000, "value": "1e+23"},
        }
        body = refused(
            client.post(
                "/api/tables",
                json={
                    "game": "fantan",
                    "seats": ["you", "random", "random"],
                    "options": {"hands": "1001"},
                },
            ),
            400,
        )
        assert body["error"] == "hands must be from 0 to 1000, not 1001"
        record = new_table(get_game("morris"), seats=["human", "human"], seed=1).finish().to_json()
        fano = new_table(get_game("fano"), seats=["human", "human"], seed=1).finish().to_json()
        assert isinstance(fano["config"], dict)
        fano["config"]["turns_per_player"] = 10**23
        body = refused(client.post("/api/records", json={"record": fano}), 400)
        assert body["error"].endswith(": turns_per_player must be from 1 to 10000, not 1e+23")
        assert client.get("/api/tables").json() == before  # nothing was made
        assert client.post("/api/records", json={"record": record}).status_code == 200
