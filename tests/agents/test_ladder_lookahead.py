"""The ladder looking ahead (``ladder(deals=N)``, :mod:`fanfold.agents.ladder.lookahead`):
its settings are checked; it plays the best mean over its deals (the member's own move on a
tie); two true states with the same view get the same choice and the same totals; in the
continuations, an opponent's choice does not change when the searcher's hidden cards are
swapped."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from fanfold.agents import create_agent, parse_agent
from fanfold.agents.ladder import compiled
from fanfold.agents.ladder.agent import LadderAgent
from fanfold.agents.ladder.styles import Style, params
from fanfold.core.errors import ConfigError
from fanfold.games.fano import FanoState
from fanfold.games.fano.actions import Promote
from fanfold.games.fano.fast import codec, engine
from tests.games.fano.helpers import FANO


def _midgames(edition: str, seed: int, count: int) -> list[FanoState]:
    """Positions of a game between two ladder members where the seat to move has a choice."""
    config = FANO.preset(edition).config
    players = [create_agent("ladder", FANO, seed=seed + seat) for seat in range(2)]
    state = FANO.new_state(config, seed)
    found: list[FanoState] = []
    while (seat := FANO.current_player(state)) is not None and len(found) < count:
        legal = FANO.legal_actions(state)
        if len(legal) > 2 and not any(isinstance(action, Promote) for action in legal):
            found.append(state)
        state = FANO.apply_legal(state, players[seat].choose(FANO.observe(state, seat), legal))
    return found[::2]


def _looker(seed: int = 1, deals: int = 3, keep: int = 0) -> LadderAgent:
    agent = create_agent(f"ladder(deals={deals}, keep={keep})", FANO, seed=seed)
    assert isinstance(agent, LadderAgent)
    return agent


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("ladder(deals=-1)", "deals must be from 0 to 100000"),
        ("ladder(deals=4, seconds=0)", "seconds must be more than 0"),
    ],
)
def test_bad_settings_are_refused(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_agent(text)


@pytest.mark.parametrize("edition", ["classic", "trionfey"])
def test_it_plays_the_best_mean_and_the_member_s_move_on_a_tie(edition: str) -> None:
    member = create_agent("ladder", FANO)
    changed = 0
    for state in _midgames(edition, 3, 12):
        seat = FANO.current_player(state)
        assert seat is not None
        view, legal = FANO.observe(state, seat), FANO.legal_actions(state)
        agent = _looker()
        chosen = agent.choose(view, legal)
        assert agent.last_totals is not None
        dealt, totals = agent.last_totals
        assert dealt == 3
        own = member.choose(view, legal)
        top = max(totals)
        assert totals[legal.index(chosen)] == top
        if totals[legal.index(own)] == top:
            assert chosen == own
        changed += chosen != own
    assert changed > 0


@pytest.mark.parametrize(("edition", "keep"), [("classic", 0), ("trionfey", 0), ("trionfey", 2)])
def test_states_with_the_same_view_get_the_same_choice_and_totals(edition: str, keep: int) -> None:
    """The same view and seed: the same choice, deals and totals (``keep`` too: the moves kept
    are ranked on the view's own deal, never on the true state)."""
    rng = random.Random(4)
    for state in _midgames(edition, 5, 8):
        seat = FANO.current_player(state)
        assert seat is not None
        view = FANO.observe(state, seat)
        other = FANO.sample_state(view, rng)
        assert FANO.observe(other, seat) == view
        hidden = [(player.hand, player.draw) for player in state.players]
        assert [(player.hand, player.draw) for player in other.players] != hidden
        seen = []
        for true_state in (state, other):
            agent = _looker(seed=9, keep=keep)
            move = agent.choose(FANO.observe(true_state, seat), FANO.legal_actions(true_state))
            assert agent.last_totals is not None
            seen.append((move, agent.last_totals[0], list(agent.last_totals[1])))
        assert seen[0] == seen[1]


def _swap_hidden(state: FanoState, seat: int) -> FanoState:
    """``state`` with the seat's hand cards that nobody has seen exchanged for cards of its
    draw pile (what the other seats see is unchanged)."""
    player = state.players[seat]
    hidden = [card for card in player.hand if card not in player.known]
    count = min(len(hidden), len(player.draw))
    if count == 0:
        return state
    hand = tuple(
        sorted([c for c in player.hand if c not in hidden[:count]] + [*player.draw[:count]])
    )
    draw = (*hidden[:count], *player.draw[count:])
    players = list(state.players)
    players[seat] = dataclasses.replace(player, hand=hand, draw=draw)
    return dataclasses.replace(state, players=tuple(players))


def replies_checked(edition: str, opponents: Style) -> int:
    """At each opponent's decision of a continuation (a deal of the searcher's view, a move,
    the game carried on, the opponents played by the member of ``opponents`` and the
    searcher by the balanced one), swapping the searcher's unseen hand cards for cards of its
    draw pile leaves the opponent's view and its choice unchanged: asserted, and the
    decisions checked counted."""
    rng = random.Random(8)
    checked = 0
    for state in _midgames(edition, 7, 6):
        searcher = FANO.current_player(state)
        assert searcher is not None
        dealt = FANO.sample_state(FANO.observe(state, searcher), rng)
        legal = FANO.legal_actions(dealt)
        dealt = FANO.apply_legal(dealt, legal[rng.randrange(len(legal))])
        for _ in range(30):
            mover = FANO.current_player(dealt)
            if mover is None:
                break
            moves = FANO.legal_actions(dealt)
            member = params(opponents if mover != searcher else Style.BALANCED, dealt.config)
            choice = compiled.decide(dealt, mover, moves, member)
            if mover != searcher:
                swapped = _swap_hidden(dealt, searcher)
                if swapped != dealt:
                    assert FANO.observe(swapped, mover) == FANO.observe(dealt, mover)
                    assert compiled.decide(swapped, mover, moves, member) == choice
                    checked += 1
            dealt = FANO.apply_legal(dealt, moves[choice])
    return checked


@pytest.mark.parametrize("edition", ["classic", "trionfey"])
def test_an_opponent_s_reply_in_a_continuation_ignores_the_searcher_s_hidden_cards(
    edition: str,
) -> None:
    """The continuations are the member's decisions for every seat: an opponent's reply
    ignores the searcher's unseen cards (:func:`replies_checked`)."""
    assert replies_checked(edition, Style.BALANCED) > 10


def test_the_compiled_look_ahead_adds_one_value_a_move_a_deal() -> None:
    state = _midgames("trionfey", 2, 2)[0]
    seat = FANO.current_player(state)
    assert seat is not None
    legal = FANO.legal_actions(state)
    ids = np.array([codec.action_id(action) for action in legal], np.int64)
    chosen = params(Style.BALANCED, state.config)
    deal = engine.encode(state)
    once = np.zeros(len(legal))
    compiled.look_ahead([deal], seat, ids, chosen, once)
    twice = np.zeros(len(legal))
    compiled.look_ahead([deal, deal], seat, ids, chosen, twice)
    assert np.allclose(twice, 2 * once)
    assert np.all(np.abs(once) <= 20.0)


def test_a_negative_keep_is_refused() -> None:
    with pytest.raises(ConfigError, match="keep must be from 0 to 1000"):
        parse_agent("ladder(deals=4, keep=-1)")


def test_the_compiled_root_values_are_the_python_search_s() -> None:
    """The member's value of each root move (:func:`compiled.root_values`) equals the Python
    twin's (:meth:`Decision.child`, the moves searched in order as ``choose`` searches them),
    and the member's choice is the first best of them."""
    from fanfold.agents.ladder.search import Decision

    checked = 0
    for edition in ("classic", "trionfey"):
        for state in _midgames(edition, 11, 5):
            seat = FANO.current_player(state)
            assert seat is not None
            legal = FANO.legal_actions(state)
            chosen = params(Style.BALANCED, state.config)
            ids = np.array([codec.action_id(action) for action in legal], np.int64)
            values = compiled.root_values(state, seat, ids, chosen)
            if values is None:
                continue
            decision = Decision(state, seat, chosen)
            twin = [decision.child(state, action, 1) for action in legal]
            assert values == pytest.approx(twin, rel=1e-9, abs=1e-9)
            assert compiled.decide(state, seat, legal, chosen) == int(np.argmax(values))
            checked += 1
    assert checked > 3


@pytest.mark.parametrize("edition", ["classic", "trionfey"])
def test_keep_looks_ahead_only_on_the_member_s_best_moves(edition: str) -> None:
    """``keep=K`` looks ahead on the member's K best moves by its own search (its own move
    among them), and chooses the best mean among them; ``keep`` at or above the legal moves
    changes nothing."""
    pruned = 0
    for state in _midgames(edition, 3, 12):
        seat = FANO.current_player(state)
        assert seat is not None
        view, legal = FANO.observe(state, seat), FANO.legal_actions(state)
        every, kept, wide = _looker(), _looker(keep=2), _looker(keep=len(legal))
        full_choice = every.choose(view, legal)
        choice = kept.choose(view, legal)
        assert wide.choose(view, legal) == full_choice
        assert every.last_totals is not None
        assert wide.last_totals is not None
        assert list(wide.last_totals[1]) == list(every.last_totals[1])
        assert kept.last_totals is not None
        assert len(kept.last_kept) == min(2, len(legal))
        own = create_agent("ladder", FANO).choose(view, legal)
        assert legal.index(own) in kept.last_kept
        assert legal.index(choice) in kept.last_kept
        ids = np.array([codec.action_id(action) for action in legal], np.int64)
        sampled = FANO.sample_state(view, random.Random(0))
        values = compiled.root_values(sampled, seat, ids, params(Style.BALANCED, state.config))
        assert values is not None
        floor = min(values[index] for index in kept.last_kept)
        left = [i for i in range(len(legal)) if i not in kept.last_kept]
        assert all(values[i] <= floor for i in left)
        assert all(kept.last_totals[1][i] == 0.0 for i in left)
        pruned += len(left) > 0
    assert pruned > 0


def test_a_negative_budget_is_refused() -> None:
    with pytest.raises(ConfigError, match="budget must be from 0 to 100000000"):
        parse_agent("ladder(deals=4, budget=-1)")


@pytest.mark.parametrize("edition", ["classic", "trionfey"])
def test_the_budget_bounds_the_continuations_and_leaves_cheaper_decisions_alone(
    edition: str,
) -> None:
    """``budget=B``: a decision whose moves x deals exceed B plays at most B continuations
    (the member's best moves by its own search, its own move among them, on every deal; or,
    where the member does not search the turn, every move on fewer deals); a decision within
    B makes the same choice with the same totals as without the budget."""
    deals, budget = 3, 42
    bitten = unchanged = 0
    for state in _midgames(edition, 3, 12):
        seat = FANO.current_player(state)
        assert seat is not None
        view, legal = FANO.observe(state, seat), FANO.legal_actions(state)
        free = _looker(deals=deals)
        bounded = create_agent(f"ladder(deals={deals}, budget={budget})", FANO, seed=1)
        assert isinstance(bounded, LadderAgent)
        free_choice = free.choose(view, legal)
        choice = bounded.choose(view, legal)
        assert free.last_totals is not None
        assert bounded.last_totals is not None
        dealt, _ = bounded.last_totals
        assert len(bounded.last_kept) * dealt <= budget
        assert legal.index(choice) in bounded.last_kept
        if len(legal) * deals <= budget:
            assert choice == free_choice
            assert bounded.last_totals[0] == free.last_totals[0]
            assert list(bounded.last_totals[1]) == list(free.last_totals[1])
            unchanged += 1
            continue
        bitten += 1
        if dealt == deals:
            own = create_agent("ladder", FANO).choose(view, legal)
            assert legal.index(own) in bounded.last_kept
            assert len(bounded.last_kept) == budget // deals
    assert bitten > 0
    assert unchanged > 0


def test_the_budget_keeps_the_choice_the_same_for_the_same_view() -> None:
    """A bounded decision is the same for two true states with the same view and seed."""
    rng = random.Random(4)
    checked = 0
    for state in _midgames("trionfey", 5, 8):
        seat = FANO.current_player(state)
        assert seat is not None
        view = FANO.observe(state, seat)
        other = FANO.sample_state(view, rng)
        seen = []
        for true_state in (state, other):
            agent = create_agent("ladder(deals=3, budget=6)", FANO, seed=9)
            assert isinstance(agent, LadderAgent)
            move = agent.choose(FANO.observe(true_state, seat), FANO.legal_actions(true_state))
            assert agent.last_totals is not None
            seen.append((move, agent.last_kept, list(agent.last_totals[1])))
        assert seen[0] == seen[1]
        checked += len(seen[0][1]) < len(FANO.legal_actions(state))
    assert checked > 0


def test_where_the_member_does_not_search_the_budget_deals_fewer_times(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where the member's search gives no ranking (``root_values`` is ``None``: a shuffle, a
    mulligan, a defender's answer), a decision over the budget looks ahead on every legal move
    with ``budget // moves`` deals (at least one)."""
    monkeypatch.setattr(compiled, "root_values", lambda *args: None)
    checked = 0
    for state in _midgames("trionfey", 3, 12):
        seat = FANO.current_player(state)
        assert seat is not None
        view, legal = FANO.observe(state, seat), FANO.legal_actions(state)
        for budget in (len(legal) * 2 + 1, 1):
            agent = create_agent(f"ladder(deals=4, budget={budget})", FANO, seed=1)
            assert isinstance(agent, LadderAgent)
            assert agent.choose(view, legal) in legal
            assert agent.last_totals is not None
            assert agent.last_kept == tuple(range(len(legal)))
            assert agent.last_totals[0] == max(1, budget // len(legal))
            checked += 1
    assert checked > 0


def test_the_warm_up_compiles_every_kernel_hard_s_budget_calls() -> None:
    """A bot worker's first ``hard`` decision over its budget ranks the moves by the member's
    own search: the build's warm-up compiles (or loads) those kernels too, so that a freshly
    built server does not compile them in every worker on its first such decision. Run in a
    fresh interpreter, where nothing else has compiled them."""
    import subprocess
    import sys

    code = (
        "from fanfold.agents.ladder import compiled, kernels\n"
        "compiled.warm_up()\n"
        "for f in (kernels.decide, kernels.root_values):\n"
        "    assert f.signatures, f.__name__\n"
        "print('warm')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "warm"
