"""A table's options as one typed value (:mod:`fanfold.server.table_options`): every form a
release has stored loads, the current form goes back to the store unchanged, options a newer
release wrote are kept, and a value no release writes is refused with a sentence."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from fanfold.core.config import JSONObject
from fanfold.server.clocks import Clocks
from fanfold.server.store import Store, token_hash
from fanfold.server.table_options import FLAGS, OptionsError, TableOptions, TimeControl
from tests.server.support import act, look, open_table, serve, sqlite_url, store_table

#: The flags as the store writes them for a table that set none.
NO_FLAGS: JSONObject = dict.fromkeys(FLAGS, False)

# --------------------------------------------------------- forms stored by earlier releases

#: The first stored tables (commit 1e16f5a, 2026-11-23): the variant, analysis, hot-seat.
FIRST: JSONObject = {"variant": "classic", "analysis": True, "hotseat": False}
#: With a time limit per decision (commit 8375212, 2026-11-23).
TIME_LIMIT: JSONObject = {
    "variant": "classic",
    "time_limit": 30,
    "analysis": False,
    "hotseat": False,
}
#: With the flags of a fair game and the lobby's list, and resumption (commit ad0f2e4).
FLAGGED: JSONObject = {
    "variant": "geometric",
    "analysis": True,
    "hotseat": False,
    "chosen_deal": False,
    "practice": False,
    "listed": True,
    "fair": True,
    "resume": True,
}
#: Release v0.1.0 (``git show v0.1.0:src/fanfold/server/hub.py``): a rated rematch with a
#: bot's level, a seat that was open, an aid, an offered draw and a ruling.
V0_1_0: JSONObject = {
    "variant": "classic",
    "rematch_of": "t-old",
    "rated": True,
    "levels": {"1": "hard"},
    "open": [],
    "analysis": False,
    "hotseat": False,
    "chosen_deal": False,
    "practice": False,
    "listed": True,
    "fair": True,
    "aids": ["hint"],
    "draw_offer": 0,
    "rematch": "t-new",
    "ruling": {"ending": "draw", "seat": 1, "actions": 12},
    "resume": False,
}
#: Today's form: a clock and the process holding it, a person who left.
CLOCKED: JSONObject = {
    "variant": "classic",
    "rated": True,
    "levels": {},
    "time_control": {"speed": "blitz", "base": 180.0, "increment": 2.0},
    "clock_state": {"left": [170.5, None, 180.0], "running": 0, "since": 1700000000.0},
    "clock_holder": "s1",
    **NO_FLAGS,
    "fair": True,
    "left": {"1": 7},
    "resume": True,
}
#: A daily game, its seat taken by a guest who then left.
DAILY: JSONObject = {
    "variant": "classic",
    "time_control": {"speed": "daily", "per_move": 86400.0},
    "clock_state": {"left": [86400.0, 86400.0], "running": None, "since": None},
    **NO_FLAGS,
    "left": {"0": None},
}


def test_the_first_stored_form_loads_with_every_later_option_off() -> None:
    options = TableOptions.from_stored(FIRST)
    assert (options.variant, options.analysis) == ("classic", True)
    assert (options.rated, options.fair, options.listed, options.practice) == (False,) * 4
    assert (options.time_limit, options.time_control, options.open_seats) == (None,) * 3
    assert (options.levels, options.aids) == ({}, ())
    # Written back in today's form: every flag, each as it was read.
    assert options.to_stored() == {**NO_FLAGS, **FIRST}


def test_a_time_limit_and_the_flags_load() -> None:
    assert TableOptions.from_stored(TIME_LIMIT).time_limit == 30
    flagged = TableOptions.from_stored(FLAGGED)
    assert (flagged.fair, flagged.listed, flagged.resume) == (True, True, True)


def test_release_0_1_0s_options_load_typed() -> None:
    options = TableOptions.from_stored(V0_1_0)
    assert (options.rated, options.levels) == (True, {1: "hard"})
    assert (options.open_seats, options.aids) == ((), ("hint",))
    assert (options.rematch_of, options.rematch, options.draw_offer) == ("t-old", "t-new", 0)
    assert options.ruling == {"ending": "draw", "seat": 1, "actions": 12}
    assert options.resume is False


def test_clocks_and_who_left_load_typed() -> None:
    options = TableOptions.from_stored(CLOCKED)
    assert options.time_control == TimeControl("blitz", 180.0, 2.0)
    assert options.clocks == Clocks((170.5, None, 180.0), 0, 1700000000.0)
    assert (options.clock_holder, options.left) == ("s1", {1: 7})
    daily = TableOptions.from_stored(DAILY)
    assert daily.time_control == TimeControl("daily", per_move=86400.0)
    assert daily.left == {0: None}


def test_nothing_stored_is_a_table_with_no_options() -> None:
    assert TableOptions.from_stored(None) == TableOptions.from_stored({}) == TableOptions()


@pytest.mark.parametrize("stored", [FLAGGED, V0_1_0, CLOCKED, DAILY], ids=lambda s: str(len(s)))
def test_todays_forms_go_back_to_the_store_unchanged(stored: JSONObject) -> None:
    options = TableOptions.from_stored(stored)
    again = options.to_stored()
    assert again == stored
    assert json.loads(json.dumps(again)) == stored  # plain JSON: what the column holds
    assert TableOptions.from_stored(again) == options


def test_options_a_newer_release_wrote_are_kept() -> None:
    newer: JSONObject = {**FLAGGED, "review": {"shared": True}, "chat": "friends"}
    options = TableOptions.from_stored(newer)
    assert options.extra == {"review": {"shared": True}, "chat": "friends"}
    assert options.to_stored() == newer


# ------------------------------------------------------------- the tables the server stores


def test_every_table_the_server_stores_round_trips(client: TestClient) -> None:
    """Tables of each kind, opened and played by the server: their stored options load and
    go back unchanged."""
    made = [
        open_table(client, game="morris", seats=["you", "random"]),
        open_table(client, game="morris", seats=["you", "friend"], speed="blitz"),
        open_table(client, game="fano", seats=["you", "random"], time_limit=30),
        open_table(client, game="fantan", seats=["you", "open", "random"], players=3, public=True),
        open_table(client, game="morris", seats=["hotseat", "hotseat"], seed=4),
    ]
    clocked = made[1]
    assert act(client, clocked["table"], clocked["token"], "C1", version=0).status_code == 200
    store = client.app.state.hub.store  # type: ignore[attr-defined]
    for created in made:
        stored = store.load(created["table"]).options
        options = TableOptions.from_stored(stored)
        assert options.to_stored() == stored, created["table"]
        assert options.extra == {}  # every option the server writes is a known one
    assert TableOptions.from_stored(store.load(made[1]["table"]).options).clocks is not None
    assert TableOptions.from_stored(store.load(made[3]["table"]).options).open_seats == (1,)


def test_a_table_stored_in_the_first_form_opens_and_plays_on(tmp_path: Path) -> None:
    """A store from before the flags: its table loads, is shown with them off, plays on,
    and goes back to the store in today's form."""
    store = Store(sqlite_url(tmp_path))
    token = "the creator's token"
    store_table(
        store,
        "old",
        game="morris.v1",
        config={"adjacency": "geometric"},
        seed=4,
        start_position=None,
        players=["human", "human"],
        token_hashes=[token_hash(token), token_hash(token)],
        allow_undo=True,
        options={"variant": "geometric", "analysis": True, "hotseat": True},
    )
    store.close()
    with serve(tmp_path) as client:
        shown = look(client, "old", token, seat=0)["options"]
        assert shown == {**NO_FLAGS, "variant": "geometric", "analysis": True, "hotseat": True}
        assert act(client, "old", token, "C1", version=0, seat=0).status_code == 200
        stored = client.app.state.hub.store.load("old").options  # type: ignore[attr-defined]
    assert stored == {**shown, "resume": False}


# --------------------------------------------------------------------- refused, with a sentence


@pytest.mark.parametrize(
    ("stored", "sentence"),
    [
        ({"time_limit": 0}, "a time limit is 1 to 3600 seconds, not 0"),
        ({"time_limit": True}, "a time limit is 1 to 3600 seconds, not True"),
        ({"time_limit": 4000}, "a time limit is 1 to 3600 seconds, not 4000"),
        (
            {"time_limit": 30, "time_control": {"speed": "blitz", "base": 1.0, "increment": 0}},
            "a table has a time limit per decision or a clock, not both",
        ),
        ({"time_control": {"speed": "bullet"}}, "a speed is one of blitz, rapid"),
        ({"time_control": {"speed": "blitz", "base": 180.0}}, "has base and increment"),
        ({"time_control": {"speed": "daily", "per_move": -1}}, "per_move is seconds from 0"),
        ({"time_control": "blitz"}, "a time control is an object with a speed"),
        ({"clock_state": {"left": "lots"}}, "a table's clocks are left, running, since"),
        ({"rated": "yes"}, "rated is true or false, not 'yes'"),
        ({"fair": 1}, "fair is true or false, not 1"),
        ({"levels": {"1": "grandmaster"}}, "a bot at a rated table is a level"),
        ({"levels": {"one": "easy"}}, "levels is an object by seat number, not by 'one'"),
        ({"levels": ["easy"]}, "levels is an object by seat"),
        ({"open": [1, 1]}, "a seat is open once"),
        ({"open": [-1]}, "an open seat names a seat number from 0, not -1"),
        ({"open": 1}, "the open seats are a list"),
        ({"left": {"0": "guest"}}, "who left is an account number or a guest"),
        ({"draw_offer": "white"}, "a draw offer names a seat number from 0"),
        ({"variant": ""}, "a variant is a name of 1 to 60 characters"),
        ({"variant": "x" * 61}, "a variant is a name of 1 to 60 characters"),
        ({"rematch": 5}, "rematch is a name, not 5"),
        ({"aids": ["hint", 3]}, "the aids used are names"),
        ({"ruling": "draw"}, "a ruling is an object"),
    ],
)
def test_a_value_no_release_writes_is_refused_with_a_sentence(
    stored: JSONObject, sentence: str
) -> None:
    with pytest.raises(OptionsError, match=re.escape(sentence)):
        TableOptions.from_stored(stored)


def test_options_made_at_the_edge_are_checked_alike() -> None:
    with pytest.raises(OptionsError, match="a time limit is 1 to 3600 seconds"):
        TableOptions(variant="classic", time_limit=-5)
    with pytest.raises(OptionsError, match="not both"):
        TableOptions(time_limit=30, time_control=TimeControl("rapid", 600.0, 5.0))
    with pytest.raises(OptionsError, match="a table's options are an object"):
        TableOptions.from_stored(["variant"])  # type: ignore[arg-type]
    made = TableOptions(variant="classic", time_limit=30)
    assert made.to_stored() == {"variant": "classic", "time_limit": 30, **NO_FLAGS}


def test_a_bad_option_is_refused_with_a_code_worded_in_french() -> None:
    """A malformed option's refusal is a code and params beside the English sentence, each
    code with a French template; what names a seat is a word of the catalogues."""
    from fanfold.server.i18n import messages, refusal_codes

    french = messages("fr")
    with pytest.raises(OptionsError) as caught:
        TableOptions(time_limit=0)
    refusal = caught.value.refusal
    assert refusal is not None
    assert (refusal.code, refusal.params) == ("options.time_limit", {"most": 3600, "value": "0"})
    assert str(caught.value) == "a time limit is 1 to 3600 seconds, not 0"
    template = refusal_codes()["options.time_limit"]
    assert french.gettext(template) == "une limite de temps est de 1 à {most} secondes, non {value}"
    with pytest.raises(OptionsError) as seat:
        TableOptions(open_seats=(-1,))
    assert seat.value.refusal is not None
    assert seat.value.refusal.params == {"what": "an open seat", "value": "-1"}
    assert french.gettext("an open seat") == "une place ouverte"
    codes = [code for code in refusal_codes() if code.startswith("options.")]
    assert len(codes) == 25
    for code in codes:
        assert french.gettext(refusal_codes()[code]) != refusal_codes()[code], code
