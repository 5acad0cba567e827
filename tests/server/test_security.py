"""No hidden card reaches a seat that may not see it, and no malformed message changes a table.

Over seeded bot games of Fan Tan and Fano, every message :func:`message_for` would send to each
seat at each step is checked three ways:

* no text of a card hidden from that seat (computed from the full state: the other hands,
  draw piles and face-down cards, less every card the seat may see) appears in it; a new log
  entry may not name a card hidden from the seat both before and after the action;
* it is unchanged when the hidden part of the state is dealt again at random from the seat's
  own view (``game.sample_state``): the message is a function of what the seat may see, so a
  leak of any hidden detail (not only card texts) makes it differ;
* no card of another seat's hand appears in the ``view`` part.

Then Hypothesis sends random JSON and text through HTTP and the WebSocket and checks that the
answer is an error (or a harmless answer to a well-formed request) and the table unchanged.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fanfold.core.config import JSONValue
from fanfold.core.game import Choice
from fanfold.core.registry import AnyGame, get_game
from fanfold.games.fano.actions import Mulligan
from fanfold.games.fano.cards import TEMP_JOKER, base_card, card_text
from fanfold.games.fano.choices import card_name
from fanfold.games.fantan.cards import cards_of
from fanfold.games.fantan.game import FanTanGame
from fanfold.play.setup import new_table
from fanfold.play.table import Table
from fanfold.server.hub import LiveTable, message_for
from fanfold.server.table_options import TableOptions
from tests.server.support import (
    JSON,
    fingerprint,
    friends_table,
    hello,
    look,
    receive,
    serve,
)

FANTAN = get_game("fantan")
FANO = get_game("fano")

#: A card's text inside a longer text: ``7D``, ``TH``, ``10H``, ``JK``, ``JK4``, ``TJ2``.
CARD = re.compile(r"(?<![A-Za-z0-9])(?:(?:10|[A2-9TJQK])[CDHS]|(?:JK|TJ)[1-7]?)(?![A-Za-z0-9])")


#: A card named for a person, with its suit symbol: ``A♥``, ``10♠``.
SYMBOL = re.compile(r"(?<![A-Za-z0-9])(10|[A2-9TJQK])([♣♦♥♠])")


def _as_notation(found: re.Match[str]) -> str:
    rank, suit = found.groups()
    return ("T" if rank == "10" else rank) + "CDHS"["♣♦♥♠".index(suit)]


def card_tokens(value: Any) -> set[str]:
    """Every card-like word in the strings of a JSON value, in notation (``AH``) or with a
    suit symbol (``A♥``, read as ``AH``); a view's public ``config`` left out: a variant may
    name a card, such as the opening seven of hearts."""
    if isinstance(value, dict):
        value = {key: item for key, item in value.items() if key != "config"}
    text = json.dumps(value, ensure_ascii=False).replace("\\n", " ")
    return set(CARD.findall(SYMBOL.sub(_as_notation, text)))


# ------------------------------------------------------- what a seat may see


def fano_texts(cards: Any) -> set[str]:
    return {card_text(card) for card in cards} | {card_text(base_card(card)) for card in cards}


def fano_hidden(state: Any, seat: int | None) -> tuple[set[str], set[str]]:
    """Fano: (cards hidden from ``seat``, the other seats' hand cards it may not see); a
    spectator (``None``) sees no seat's own cards."""
    visible: set[str] = set()
    if seat is not None:
        me = state.players[seat]
        visible = fano_texts((*me.hand, *me.down, *me.hidden, *me.field))
    for player in state.players:
        shown = [card for card in player.field if card not in player.hidden]
        visible |= fano_texts((*shown, *player.up, *player.known, *player.protected))
    pending = state.pending
    if pending is not None:
        visible |= fano_texts((pending.attacker, pending.target))
        if pending.support:
            visible |= fano_texts((pending.support,))
    if state.config.trionfey and any(TEMP_JOKER in player.draw for player in state.players):
        visible |= fano_texts((TEMP_JOKER,))  # Spades jokers lie face up on the draw piles
    hidden = fano_texts(state.players[seat].draw) if seat is not None else set()  # its order
    hands: set[str] = set()
    for other, player in enumerate(state.players):
        if other != seat:
            unknown = [card for card in player.hand if card not in player.known]
            hands |= fano_texts(unknown)
            hidden |= fano_texts((*unknown, *player.draw, *player.down, *player.hidden))
    return hidden - visible, hands - visible


def fantan_hidden(state: Any, seat: int | None) -> tuple[set[str], set[str]]:
    """Fan Tan: the other hands (every hand for a spectator, ``None``), until the end of the
    match shows them."""
    if state.finished:
        return set(), set()
    others = {
        str(card) for n, hand in enumerate(state.hands) if n != seat for card in cards_of(hand)
    }
    return others, others


def hidden_from(game: AnyGame, state: Any, seat: int | None) -> tuple[set[str], set[str]]:
    if game is FANO:
        return fano_hidden(state, seat)
    return fantan_hidden(state, seat)


def has_spectators(game: AnyGame, state: Any) -> bool:
    """Whether the game shows spectators anything (a game with hidden cards needs a view for
    them, which not every game has)."""
    try:
        game.public_view(state)
    except NotImplementedError:
        return False
    return True


# ------------------------------------------------------------ the messages


def seat_message(live: LiveTable, seat: int | None) -> JSON:
    """What a watcher holding ``seat`` alone (``None``: a spectator) is sent."""
    return message_for(live, seat, frozenset() if seat is None else frozenset({seat}))


def redealt_message(live: LiveTable, seat: int | None, rng: random.Random) -> JSON:
    """The message with the hidden part of the state dealt again from the seat's view (for a
    spectator, from a seat picked at random: the spectator sees less than any seat)."""
    table = live.table
    real = table.state
    dealer = seat if seat is not None else rng.randrange(len(table.seats))
    table.state = table.game.sample_state(table.view(dealer), rng)
    try:
        return seat_message(live, seat)
    finally:
        table.state = real


def check_step(
    live: LiveTable,
    seat: int | None,
    hidden: set[str],
    hands: set[str],
    hidden_before: set[str] | None,
    rng: random.Random,
) -> str | None:
    """Check the seat's message now (its log cut to the last action, which keeps the check
    linear in the game's length); returns the last action as announced to the seat."""
    table = live.table
    everything = table.played
    table.played = everything[-1:]
    try:
        message = seat_message(live, seat)
        where = f"{'a spectator' if seat is None else f'seat {seat}'} at version {table.version}"
        parts = {key: message[key] for key in ("text", "legal", "choices", "outcome", "seats")}
        parts["view"] = {key: item for key, item in message["view"].items() if key != "config"}
        leaked = card_tokens(parts) & hidden
        assert not leaked, f"{where}: hidden cards {sorted(leaked)} in {parts}"
        in_view = card_tokens(message["view"]) & hands
        assert not in_view, f"{where}: another seat's hand cards {sorted(in_view)} in its view"
        announced = None
        if message["log"]:
            entry = message["log"][-1]
            announced = str(entry["text"])
            assert hidden_before is not None
            for told in (announced, entry["words"], entry["highlight"]):
                named = card_tokens(told) & hidden & hidden_before
                assert not named, f"{where}: {told!r} names hidden cards {sorted(named)}"
        again = redealt_message(live, seat, rng)
        assert again == message, f"{where}: the message depends on hidden cards"
        return announced
    finally:
        table.played = everything


def check_whole_log(
    live: LiveTable, observers: list[int | None], heard: list[list[str]], rng: random.Random
) -> None:
    """At the end: each observer's whole log is what it heard action by action, and the same
    when every earlier position is dealt again from that observer's view of it (a spectator's:
    from the view of the seat after the one that acted, which does not see the actor's hand)."""
    table = live.table
    game = table.game
    everything = table.played
    for number, seat in enumerate(observers):
        log = seat_message(live, seat)["log"]
        assert [entry["text"] for entry in log] == heard[number]
        table.played = [
            dataclasses.replace(
                played,
                before=game.sample_state(
                    game.observe(
                        played.before,
                        seat if seat is not None else (played.seat + 1) % len(table.seats),
                    ),
                    rng,
                ),
            )
            for played in everything
        ]
        try:
            assert seat_message(live, seat)["log"] == log, f"observer {seat}: the log leaks"
        finally:
            table.played = everything


def bot_table(game: AnyGame, preset: str, players: int, seed: int) -> Table:
    config = game.with_players(game.preset(preset).config, players)
    return new_table(
        game, config, ["random"] * players, seed=seed, agent_seed=seed, allow_undo=False
    )


GAMES = [
    ("fantan", "standard", 3, range(12)),
    ("fantan", "standard", 4, range(12)),
    ("fantan", "domino", 4, range(6)),
    ("fantan", "sevens-online", 5, range(3)),
    ("fano", "classic", 2, range(6)),
    ("fano", "classic", 4, range(3)),
    ("fano", "trionfey", 2, range(6)),
    ("fano", "trionfey", 4, range(3)),
    ("fano", "trionfey", 3, range(1)),
    ("fano", "trionfey-specials", 2, range(2)),
]


@pytest.mark.parametrize(
    ("name", "preset", "players", "seed"),
    [
        pytest.param(name, preset, players, seed, id=f"{name}-{preset}-{players}p-{seed}")
        for name, preset, players, seeds in GAMES
        for seed in seeds
    ],
)
def test_no_hidden_card_reaches_a_seat(name: str, preset: str, players: int, seed: int) -> None:
    game = get_game(name)
    table = bot_table(game, preset, players, seed)
    live = LiveTable("t", table, [None] * players, TableOptions())
    rng = random.Random(seed)
    observers: list[int | None] = list(range(players))
    if has_spectators(game, table.state):
        observers.append(None)
    heard: list[list[str]] = [[] for _ in observers]
    before: list[set[str]] | None = None
    while True:
        sets = [hidden_from(game, table.state, seat) for seat in observers]
        for number, seat in enumerate(observers):
            hidden, hands = sets[number]
            announced = check_step(
                live, seat, hidden, hands, None if before is None else before[number], rng
            )
            if announced is not None:
                heard[number].append(announced)
        before = [hidden for hidden, _ in sets]
        if table.step() is None:
            break
    assert table.is_over
    assert len(table.played) > 10
    assert 0 < len(heard[0]) <= len(table.played)  # actions a seat is not told of leave no entry
    check_whole_log(live, observers, heard, rng)


def test_the_checks_see_a_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks above fail on a view that shows another seat's hand, and on announcements
    that name the cards discarded face down."""
    table = bot_table(FANTAN, "standard", 4, 1)
    live = LiveTable("t", table, [None] * 4, TableOptions())
    hidden, hands = hidden_from(FANTAN, table.state, 0)
    check_step(live, 0, hidden, hands, None, random.Random(0))  # the real game passes
    table.game = _LeakyFanTan()
    with pytest.raises(AssertionError, match="hidden cards"):
        check_step(live, 0, hidden, hands, None, random.Random(0))
    with pytest.raises(AssertionError, match="depends on hidden cards"):  # even unnamed
        check_step(live, 0, set(), set(), None, random.Random(0))
    table.game = _LeakyChoicesFanTan()
    seat = table.game.current_player(table.state)
    assert seat is not None
    hidden, hands = hidden_from(FANTAN, table.state, seat)
    with pytest.raises(AssertionError, match="hidden cards"):  # a choice naming them
        check_step(live, seat, hidden, hands, None, random.Random(0))
    monkeypatch.setattr(  # words naming the discarded cards with suit symbols
        type(FANO),
        "describe_action",
        lambda self, state, action, observer, after=None: "; ".join(
            card_name(card) for card in getattr(action, "cards", ())
        ),
    )
    with pytest.raises(AssertionError, match="names hidden cards"):
        test_no_hidden_card_reaches_a_seat("fano", "classic", 2, 0)
    monkeypatch.undo()
    monkeypatch.setattr(
        type(FANO), "public_action_text", lambda self, state, action, observer: str(action)
    )
    with pytest.raises(AssertionError, match="names hidden cards"):
        test_no_hidden_card_reaches_a_seat("fano", "classic", 2, 0)


class _LeakyFanTan(FanTanGame):
    """Fan Tan whose views show the next seat's hand as the seat's own."""

    def observe(self, state: Any, player: int) -> Any:
        view = super().observe(state, player)
        return dataclasses.replace(view, hand=state.hands[(player + 1) % len(state.hands)])


class _LeakyChoicesFanTan(FanTanGame):
    """Fan Tan whose choices tell the deciding seat the next seat's hand."""

    def choices(self, state: Any) -> list[Choice]:
        seat = self.current_player(state)
        assert seat is not None
        following = [str(card) for card in cards_of(state.hands[(seat + 1) % len(state.hands)])]
        return [
            dataclasses.replace(choice, details={"next_hand": list[JSONValue](following)})
            for choice in super().choices(state)
        ]


def test_others_do_not_learn_of_a_kept_mulligan() -> None:
    found = 0
    for seed in range(40):
        table = bot_table(FANO, "classic", 2, seed)
        table.play_agents()
        live = LiveTable("t", table, [None, None], TableOptions())
        for played in table.played:
            if isinstance(played.action, Mulligan) and played.text == "keep":
                found += 1
                other = 1 - played.seat
                hidden_phase = FANO.observe(played.before, other).phase
                assert hidden_phase != played.before.phase  # the view hides it...
                log = seat_message(live, other)["log"]
                told = [entry for entry in log if entry["number"] == played.number]
                assert told == []  # ... and so does the log: no entry at all
        if found >= 3:
            break
    assert found


# ---------------------------------------------------------------- fuzzing

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=10,
)
KEYS = st.sampled_from(["token", "action", "version", "seat", "type", "extra", "seats"]) | st.text(
    max_size=8
)
FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    database=None,
)


def fuzz_bodies(tokens: list[str]) -> Any:
    """Random request bodies: JSON values, objects with known and unknown keys (holding real
    tokens sometimes), and raw text."""
    objects = st.dictionaries(KEYS, JSON_VALUES | st.sampled_from(tokens), max_size=5)
    return st.one_of(
        JSON_VALUES.map(json.dumps),
        objects.map(json.dumps),
        st.text(max_size=60),
    )


def test_fuzzed_http_requests_are_refused_and_change_nothing(tmp_path: Path) -> None:
    with serve(tmp_path) as client:
        table, token, friend = friends_table(client)
        before = fingerprint(look(client, table, token))
        listed = len(client.get("/api/tables").json())

        @FUZZ
        @given(body=fuzz_bodies([friend, "forged"]), path=st.sampled_from(["act", "undo"]))
        def check(body: str, path: str) -> None:
            answer = client.post(
                f"/api/tables/{table}/{path}",
                content=body.encode(),
                headers={"content-type": "application/json"},
            )
            if answer.status_code == 200:
                # only a well-formed undo by the friend, which is refused: nothing to take back
                assert path == "undo"
                assert answer.json()["ok"] is False
            else:
                assert 400 <= answer.status_code < 500, (body, answer.text)
                assert isinstance(answer.json()["error"], str)
            assert fingerprint(look(client, table, token)) == before

        check()

        @FUZZ
        @given(
            body=st.one_of(
                fuzz_bodies(["morris", "fan", "fantan", "fano"]),
                st.fixed_dictionaries(
                    {"game": st.sampled_from(["morris", "fan", "fantan", "fano"])},
                    optional={
                        "variant": st.text(max_size=12) | st.sampled_from(["classic", "trionfey"]),
                        "players": st.integers(min_value=-2, max_value=20),
                        "options": st.dictionaries(st.text(max_size=10), st.text(max_size=10)),
                        "seats": st.lists(st.sampled_from(["you", "x(", "random()"]), max_size=9),
                        "seed": st.integers(min_value=-5, max_value=2**60),
                        "position": st.text(max_size=40),
                    },
                ).map(json.dumps),
            ),
            path=st.sampled_from(["/api/tables", "/api/records"]),
        )
        def check_opening(body: str, path: str) -> None:
            answer = client.post(
                path, content=body.encode(), headers={"content-type": "application/json"}
            )
            assert answer.status_code < 500, (body, answer.text)
            if answer.status_code != 200:
                assert isinstance(answer.json()["error"], str)

        check_opening()
        assert fingerprint(look(client, table, token)) == before
        assert len(client.get("/api/tables", params={"limit": 100}).json()) >= listed


def test_fuzzed_socket_messages_are_refused_and_change_nothing(tmp_path: Path) -> None:
    with serve(tmp_path) as client:
        table, token, friend = friends_table(client)
        before = fingerprint(look(client, table, token))

        @FUZZ
        @given(message=fuzz_bodies([friend, "forged"]))
        def check(message: str) -> None:
            with _socket(client, table) as socket:
                assert hello(socket, friend)["type"] == "state"
                socket.send_text(message)
                answer = receive(socket)
                try:
                    data = json.loads(message)
                except ValueError:
                    data = None
                wellformed = isinstance(data, dict) and data.get("type") in ("undo", "view")
                if not wellformed:
                    assert answer["type"] == "error", (message, answer)
                    assert isinstance(answer["error"], str)
                elif answer["type"] == "ok":
                    assert answer == {"protocol": 1, "type": "ok", "undone": False}
                else:
                    assert answer["type"] in ("error", "state"), answer
            assert fingerprint(look(client, table, token)) == before

        check()


def _socket(client: TestClient, table: str) -> Any:
    return client.websocket_connect(f"/ws/tables/{table}")
