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


def test_options_that_clash_and_an_agents_bad_setting_are_refused_with_codes(
    tmp_path: Path,
) -> None:
    """A game's options that do not go together and a bot's setting out of its bounds: the
    refusal's code and params go beside the English, and the page words them in French (the
    same templates as ``Messages.worded``), nothing made."""
    from fanfold.server.i18n import messages

    french = messages("fr")
    with serve(tmp_path) as client:
        before = client.get("/api/tables").json()
        clash = refused(
            client.post(
                "/api/tables",
                json={
                    "game": "fantan",
                    "seats": ["you", "random", "random"],
                    "options": {"ante": "2"},
                },
            ),
            400,
        )
        assert clash["code"] == "fantan.config_chips_only"
        assert clash["error"] == "ante only applies to chip scoring (scoring=chips)"
        assert french.worded(clash) == (
            "ante ne s\u2019applique qu\u2019au décompte en jetons (scoring=chips)"
        )
        agent = refused(
            client.post(
                "/api/tables",
                json={"game": "morris", "seats": ["you", "mcts(seconds=0)"]},
            ),
            400,
        )
        assert agent["code"] == "agent.bad_option"
        assert agent["params"]["reason"]["code"] == "agent.more_than_zero"
        assert french.worded(agent) == "agent mcts : seconds doit être supérieur à 0, pas 0.0"
        assert client.get("/api/tables").json() == before  # nothing was made
