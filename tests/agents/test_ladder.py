"""Fano's yardstick ladder (:mod:`fanfold.agents.ladder`): every member plays legal,
reproducible games in both editions at two, three and four players; a decision never reads
what the seat may not see; the compiled decision equals its Python twin decision by
decision; each style keeps its promise."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest

from fanfold.agents import create_agent, parse_agent, registered_agent
from fanfold.agents.ladder import MEMBERS, Style, compiled, search
from fanfold.agents.ladder.agent import LadderAgent
from fanfold.agents.ladder.features import Seen, comb, holds, hyper, match_pairs
from fanfold.agents.ladder.styles import params
from fanfold.core.errors import ConfigError
from fanfold.core.registry import get_game
from fanfold.games.fano import FanoConfig, FanoState, fast
from fanfold.games.fano.actions import (
    Allow,
    CombineCounter,
    Declare,
    FanoAction,
    Sacrifice,
)
from fanfold.games.fano.fast import codec, engine, layout
from fanfold.games.fano.rules.attacks import support_value
from fanfold.games.fano.state import Phase
from tests.games.fano.helpers import FANO

EDITIONS = ("classic", "trionfey")


def _config(edition: str, players: int, turns: int) -> FanoConfig:
    config: FanoConfig = FANO.with_players(FANO.preset(edition).config, players)
    return config.replace(turns_per_player=turns)


def _game(config: FanoConfig, agents: list[str], seed: int) -> list[str]:
    """The action texts of a game between ``agents`` (one a seat), each checked legal."""
    players = [create_agent(text, FANO, seed=seed + seat) for seat, text in enumerate(agents)]
    state = FANO.new_state(config, seed)
    actions = []
    while (seat := FANO.current_player(state)) is not None:
        legal = FANO.legal_actions(state)
        action = players[seat].choose(FANO.observe(state, seat), legal)
        assert action in legal, f"{action} is not legal in {FANO.format_position(state)}"
        actions.append(str(action))
        state = FANO.apply_legal(state, action)
    assert FANO.outcome(state) is not None
    return actions


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("member", MEMBERS)
def test_every_member_plays_legal_reproducible_games_against_the_yardstick(
    edition: str, member: str
) -> None:
    config = _config(edition, 2, 12)
    seats = [member, "planner(deals=1,nodes=20)"]
    first = _game(config, seats, 7)
    assert first == _game(config, seats, 7)


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_members_play_each_other_at_two_three_and_four_players(
    edition: str, players: int
) -> None:
    config = _config(edition, players, 8)
    for start in range(0, len(MEMBERS), players):
        seats = [MEMBERS[(start + seat) % len(MEMBERS)] for seat in range(players)]
        assert _game(config, seats, start) == _game(config, seats, start)


def test_a_whole_game_ends_in_a_win() -> None:
    table = _game(FANO.preset("trionfey").config, ["ladder", "ladder(style=rush)"], 3)
    assert any(text.startswith("promote") for text in table)


# ------------------------------------------------------------------------------ positions
def _positions(
    preset: str, games: int, seed: int, players: int | None = None, most: int = 150
) -> Iterator[FanoState]:
    """Decisions (two or more legal actions) of games played by a mix of the ladder and
    random moves, at most ``most`` of each game."""
    config: FanoConfig = FANO.preset(preset).config
    if players is not None:
        config = FANO.with_players(config, players)
    config = config.replace(turns_per_player=40)
    balanced = params(Style.BALANCED, config)
    for game in range(games):
        rng = random.Random(seed + game)
        state = FANO.new_state(config, seed + game)
        found = 0
        while (seat := FANO.current_player(state)) is not None and found < most:
            legal = FANO.legal_actions(state)
            if len(legal) > 1:
                found += 1
                yield state
            if rng.random() < 0.3:
                action = legal[rng.randrange(len(legal))]
            else:
                action = legal[search.decide(state, seat, legal, balanced)]
            state = FANO.apply_legal(state, action)


def _decider(state: FanoState) -> int:
    seat = FANO.current_player(state)
    assert seat is not None
    return seat


TWIN_PRESETS = [
    "classic",
    "trionfey",
    "four-players",
    "two-suit",
    "jokers-wild",
    "specials",
    "everything",
    "trionfey-specials",
    "trionfey-all-for-one",
    "trionfey-one-for-all",
]


@pytest.mark.parametrize("preset", TWIN_PRESETS)
def test_the_compiled_decision_equals_its_python_twin(preset: str) -> None:
    config = FANO.preset(preset).config
    assert fast.supports(config)
    styles = list(Style) if preset in ("classic", "trionfey-specials") else [Style.BALANCED]
    most = 40 if len(styles) > 1 else 150
    seen = 0
    for state in _positions(preset, 2, 40, most=most):
        seat = _decider(state)
        legal = FANO.legal_actions(state)
        for style in styles:
            chosen = params(style, state.config)
            python = search.decide(state, seat, legal, chosen)
            assert compiled.decide(state, seat, legal, chosen) == python, (
                f"{style.value}: {FANO.format_position(state)}"
            )
            seen += 1
    assert seen > 100


@pytest.mark.parametrize("preset", ["classic", "trionfey", "specials"])
def test_each_end_action_s_value_equals_its_python_twin_s(preset: str) -> None:
    """The compiled evaluation of every end action (its own cards after it, written by
    ``end_into`` into a buffer left dirty by the last one) is the Python twin's number,
    bit for bit, and ``end_into`` writes what ``end_state`` returns."""
    from fanfold.agents.ladder import kernels

    work = kernels.scratch()
    judged = 0
    for state in _positions(preset, 1, 50, most=60):
        seat = _decider(state)
        chosen = params(Style.BALANCED, state.config)
        weights, _, _ = compiled._arrays(chosen)
        fast_state = engine.encode(state)
        array, cfg = fast_state.array, fast_state.options
        ctx, later, _, pool, npool = kernels.context(
            array, cfg, seat, compiled._suits(state.config)
        )
        decision = search.Decision(state, seat, chosen)
        buffer = np.full_like(array, -7)
        for action in FANO.legal_actions(state):
            packed = np.int64(codec.action_id(action))
            if not kernels._is_end(packed & 255) or decision.refused(state, action):
                continue
            kernels.end_into(buffer, array, cfg, seat, packed)
            assert np.array_equal(buffer, kernels.end_state(array, cfg, seat, packed))
            value = kernels.value_of(buffer, cfg, ctx, later, pool, npool, weights, work)
            assert value == decision.end_value(state, action), FANO.format_position(state)
            judged += 1
    assert judged > 50


def test_the_twins_agree_at_three_players_and_on_small_budgets() -> None:
    for state in _positions("trionfey", 2, 60, players=3):
        seat = _decider(state)
        legal = FANO.legal_actions(state)
        for nodes in (1, 5, 300):
            chosen = params(Style.ATTACK, state.config, nodes)
            assert compiled.decide(state, seat, legal, chosen) == search.decide(
                state, seat, legal, chosen
            )


@pytest.mark.parametrize("preset", ["classic", "trionfey", "trionfey-specials", "everything"])
def test_a_decision_never_reads_what_the_seat_cannot_see(preset: str) -> None:
    """Dealing the hidden cards again (the others' hands, draw piles and face-down cards, the
    seat's own draw pile in another order) consistently with the seat's view changes
    nothing, in either twin."""
    rng = random.Random(5)
    checked = 0
    for state in list(_positions(preset, 2, 80))[::3]:
        seat = _decider(state)
        view = FANO.observe(state, seat)
        legal = FANO.legal_actions(state)
        chosen = params(Style.BALANCED, state.config)
        python = search.decide(state, seat, legal, chosen)
        ids = np.array([codec.action_id(action) for action in legal], np.int64)
        fast_choice = compiled.decide_array(engine.encode(state), seat, ids, chosen)
        for _ in range(3):
            dealt = FANO.sample_state(view, rng)
            assert FANO.observe(dealt, seat) == view
            assert FANO.legal_actions(dealt) == FANO.legal_actions(state)
            assert search.decide(dealt, seat, legal, chosen) == python
            again = compiled.decide_array(engine.encode(dealt), seat, ids, chosen)
            assert again == fast_choice
        checked += 1
    assert checked > 10


def test_the_dealt_state_keeps_the_seats_own_draw_pile() -> None:
    """The decision reads the values left in its own draw pile (not their order): a dealt
    state must keep them."""
    rng = random.Random(2)
    for state in list(_positions("trionfey-specials", 1, 90))[::4]:
        seat = _decider(state)
        dealt = FANO.sample_state(FANO.observe(state, seat), rng)
        assert sorted(dealt.players[seat].draw) == sorted(state.players[seat].draw)


# ------------------------------------------------------------------------------ the styles
def _choices(preset: str, style: Style, games: int = 3) -> Iterator[tuple[FanoState, FanoAction]]:
    chosen = None
    for state in _positions(preset, games, 100):
        if chosen is None:
            chosen = params(style, state.config)
        seat = _decider(state)
        legal = FANO.legal_actions(state)
        yield state, legal[compiled.decide(state, seat, legal, chosen)]


def _supported(state: FanoState, action: Declare) -> bool:
    need = support_value(action.attacker >> 4, action.target >> 4, action.reverse)
    hand = state.players[state.turn_player].hand
    return bool(need) and any(card >> 4 == need or card & 15 >= 4 for card in hand)


def test_the_honest_member_never_bluffs_and_the_bluffer_does() -> None:
    declared = 0
    for state, action in _choices("trionfey", Style.HONEST):
        if isinstance(action, Declare):
            declared += 1
            assert _supported(state, action), FANO.format_position(state)
    assert declared
    bluffs = sum(
        1
        for state, action in _choices("trionfey", Style.BLUFF)
        if isinstance(action, Declare) and not _supported(state, action)
    )
    assert bluffs


def test_the_caller_never_counters_and_the_counterer_always_does() -> None:
    reacted = countered = 0
    for state, action in _choices("trionfey", Style.CALL, 4):
        if state.phase is Phase.REACT:
            reacted += 1
            assert isinstance(action, Allow | Sacrifice)
    for state, action in _choices("trionfey", Style.COUNTER, 4):
        legal = FANO.legal_actions(state)
        if state.phase is Phase.REACT and any(isinstance(a, CombineCounter) for a in legal):
            countered += 1
            assert isinstance(action, CombineCounter)
    assert reacted
    assert countered


def test_the_hoarder_spends_no_tribute_below_the_cap() -> None:
    for state, action in _choices("trionfey-specials", Style.HOARD):
        if state.phase is Phase.MAIN and state.players[state.turn_player].tribute < 7:
            assert not search.spends_tribute(action), f"{action} in {FANO.format_position(state)}"


# ------------------------------------------------------------------------- the pieces
def test_the_chances_are_hypergeometric() -> None:
    assert comb(7, 3) == 35
    assert comb(3, 5) == 0
    assert hyper(7, 1, 3) == pytest.approx(3 / 7)
    assert hyper(7, 0, 3) == 0.0
    assert hyper(3, 1, 3) == 1.0
    # Three unknown cards after the draw from seven hidden ones; a 5 seen in play.
    seen = Seen(1, 2, 5, 0, 0, (), (0x51,), ())
    assert holds(seen, 5, True) == 0.0
    assert holds(seen, 6, True) == pytest.approx(3 / 7)
    assert holds(seen, 6, False) == pytest.approx(2 / 7)
    assert holds(Seen(1, 2, 5, 0, 0, (0x61,), (), ()), 6, False) == 1.0


def test_pairs_are_matched_by_what_is_held() -> None:
    order = [0.0] * 11
    order[10] = 2.0
    assert match_pairs([3, 7, 1], [8, 10], order) == [(10, 3, 7)]
    order[8] = 3.0
    assert match_pairs([3, 7, 1], [8, 10], order) == [(8, 7, 1)]


def test_the_agent_is_registered_for_fano_and_its_settings_are_checked() -> None:
    assert registered_agent("ladder").supports(FANO)
    assert not registered_agent("ladder").supports(get_game("morris"))
    for text in MEMBERS:
        assert isinstance(create_agent(text, FANO), LadderAgent)
        assert str(parse_agent(text)) == text
    with pytest.raises(ConfigError):
        parse_agent("ladder(style=reckless)")
    with pytest.raises(ConfigError):
        parse_agent("ladder(nodes=0)")


def test_variants_the_fast_path_does_not_cover_use_the_python_twin() -> None:
    config = FANO.with_players(FANO.preset("specials").config, 2)
    config = config.replace(joker_prestige=True, turns_per_player=10)
    assert not fast.supports(config)
    assert _game(config, ["ladder", "ladder(compiled=false)"], 2)


def test_fano_s_warm_up_loads_the_ladder_s_compiled_decision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The ladder's kernels are in Fano's warm-up, so the package build and the server's
    compile-ahead fill the cache with them (``hard`` is the ladder looking ahead)."""
    from fanfold.agents.strategy import fano_fast

    warmed: list[str] = []
    monkeypatch.setattr(compiled, "warm_up", lambda: warmed.append("ladder"))
    fano_fast.warm_up()
    assert warmed == ["ladder"]


def test_the_search_memo_table_finds_every_position_kept_as_it_grows() -> None:
    from fanfold.agents.ladder import kernels

    rng = np.random.default_rng(3)
    wanted = np.concatenate([[0, -1, 2**62], rng.integers(-(2**63), 2**63 - 1, 1000)])
    keys = np.zeros(kernels.MEMO_START, np.int64)
    values = np.zeros(kernels.MEMO_START, np.float64)
    used = np.zeros(kernels.MEMO_START, np.bool_)
    moves = np.full(kernels.MEMO_START, -1, np.int64)
    for n, key in enumerate(wanted):
        slot = kernels._slot(keys, used, key)
        assert not used[slot]
        keys[slot], values[slot], used[slot], moves[slot] = key, float(n), True, 7 * n
        if 2 * (n + 1) >= keys.shape[0]:
            keys, values, used, moves = kernels._grown(keys, values, used, moves)
    assert keys.shape[0] > kernels.MEMO_START
    assert int(used.sum()) == len(wanted)
    for n, key in enumerate(wanted):
        slot = kernels._slot(keys, used, key)
        assert used[slot]
        assert keys[slot] == key
        assert values[slot] == float(n)
        assert moves[slot] == 7 * n
    assert not used[kernels._slot(keys, used, 12345)]


def test_the_drawn_hand_is_valued_in_the_buffer_and_the_position_is_left_as_it_was() -> None:
    """:func:`kernels._drawn` (a hand drawn afresh) copies the position into the search's
    buffer before emptying the seat's hand: the position the search goes on with is untouched,
    and the value is the evaluation of that copy plus the style's fresh-hand bonus."""
    from fanfold.agents.ladder import kernels
    from fanfold.games.fano.fast.kernels.zones import _seat

    config = _config("classic", 2, 10)
    state = engine.encode(FANO.new_state(config, 4))
    seat = int(state.array[layout.TURN_PLAYER])
    suits = compiled._suits(config)
    weights, fparams, _ = compiled._arrays(params(Style.BALANCED, config))
    ctx, later, _, pool, npool = kernels.context(state.array, state.options, seat, suits)
    before = state.array.copy()
    assert before[_seat(seat) + layout.HAND] > 0
    buffer = np.full_like(before, 99)
    work = kernels.scratch()
    value = kernels._drawn(
        state.array, state.options, ctx, later, pool, npool, weights, fparams, work, buffer
    )
    assert np.array_equal(state.array, before)
    assert buffer[_seat(seat) + layout.HAND] == 0
    assert buffer[_seat(seat) + layout.KNOWN] == 0
    emptied = before.copy()
    at = _seat(seat)
    emptied[at + layout.HAND : at + layout.HAND + 1 + layout.HAND_CAP] = 0
    emptied[at + layout.KNOWN : at + layout.KNOWN + 1 + layout.KNOWN_CAP] = 0
    assert np.array_equal(buffer, emptied)
    expected = kernels.evaluate(emptied, state.options, ctx, later, pool, npool, weights)
    assert value == expected + fparams[kernels.F_FRESH]


def test_the_search_s_hot_kernels_count_no_references() -> None:
    """The evaluation, the end-action buffer, the settling of a searched action and the
    engine's zone helpers allocate nothing and are compiled without Numba's reference counts
    (``_nrt=False``: each array passed to a compiled call was two atomic counts, most of a
    decision's time); the search keeps them so."""
    from fanfold.agents.ladder import kernels
    from fanfold.games.fano.fast.kernels import cards, specials, zones

    hot = [
        kernels.value_of,
        kernels.end_into,
        kernels._record,
        kernels._settle,
        kernels._drawn,
        kernels.state_hash,
        kernels.holds,
        zones._leave_field,
        zones._enter_play,
        zones._take_from_hand,
        cards._insert,
        cards._remove,
        specials._earn,
        specials._spend,
    ]
    for kernel in hot:
        assert kernel.targetoptions.get("_nrt") is False, kernel.py_func.__name__
