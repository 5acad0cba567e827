"""Exploiters that model a look-ahead (``exploit(model_deals=K)``,
:mod:`fanfold.agents.ladder.modelled`): the compiled redeal keeps the viewer's view and reads
nothing the viewer cannot see; the modelled opponent decides as ``ladder(deals=K, budget=B)``
(the member's move on a promotion, its look-ahead among the member's best moves otherwise);
in a continuation the modelled opponent's choice does not change when the searcher's hidden
cards are swapped; the exploiter is seeded and reproducible, its totals differ from the
unmodelled exploiter's, and it plays legal games in both editions."""

from __future__ import annotations

import random

import numpy as np
import pytest

from fanfold.agents import create_agent, parse_agent
from fanfold.agents.ladder import compiled
from fanfold.agents.ladder.exploit import ExploitAgent
from fanfold.agents.ladder.styles import Style, params
from fanfold.core.errors import ConfigError
from fanfold.games.fano.fast import codec
from tests.agents.test_ladder import _game
from tests.agents.test_ladder_lookahead import _midgames, _swap_hidden
from tests.games.fano.helpers import FANO

EDITIONS = ["classic", "trionfey"]


def test_the_model_s_settings_are_checked() -> None:
    with pytest.raises(ConfigError, match="model_deals must be from 0 to 64"):
        parse_agent("exploit(target=hard, model_deals=-1)")
    with pytest.raises(ConfigError, match="model_budget must be from 1 to 10000"):
        parse_agent("exploit(target=hard, model_deals=2, model_budget=0)")


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_redeal_keeps_the_viewer_s_view_and_reads_nothing_it_cannot_see(
    edition: str,
) -> None:
    """Every seat's view of the redealt state is the view it had; another state with the same
    view, redealt on the same seed, gives the same state; other seeds deal other cards."""
    rng = random.Random(3)
    moved = 0
    for state in _midgames(edition, 5, 8):
        for viewer in range(state.config.players):
            view = FANO.observe(state, viewer)
            redealt = compiled.redealt(state, viewer, 11)
            assert FANO.observe(redealt, viewer) == view
            other = FANO.sample_state(view, rng)
            assert FANO.observe(other, viewer) == view
            assert compiled.redealt(other, viewer, 11).players == redealt.players
            again = compiled.redealt(state, viewer, 12)
            moved += again.players != redealt.players
    assert moved > 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_modelled_opponent_looks_ahead_among_the_member_s_best_moves(edition: str) -> None:
    """Within its budget the modelled decision is one of the member's ``budget // deals`` best
    moves by its own search; with a budget of one deal of one move it is the member's move;
    and on some positions its look-ahead picks another move than the member's."""
    member = params(Style.BALANCED, FANO.preset(edition).config)
    differ = 0
    for state in _midgames(edition, 9, 8):
        seat = FANO.current_player(state)
        assert seat is not None
        legal = FANO.legal_actions(state)
        own = compiled.decide(state, seat, legal, member)
        assert compiled.modelled_decide(state, seat, legal, member, 1, 1, 3) == own
        ids = np.array([codec.action_id(action) for action in legal], np.int64)
        values = compiled.root_values(state, seat, ids, member)
        choice = compiled.modelled_decide(state, seat, legal, member, 2, 6, 3)
        if values is not None:
            order = sorted(range(len(legal)), key=lambda i: (i != own, -values[i], i))
            assert choice in order[:3]
        differ += choice != own
    assert differ > 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_modelled_replies_ignore_the_searcher_s_hidden_cards(edition: str) -> None:
    """At each opponent decision of a continuation (a deal of the searcher's view, a move, the
    game carried on by the modelled look-ahead), swapping the searcher's unseen hand cards for
    cards of its draw pile leaves the opponent's view and its modelled choice unchanged."""
    rng = random.Random(8)
    checked = 0
    for state in _midgames(edition, 7, 4):
        searcher = FANO.current_player(state)
        assert searcher is not None
        dealt = FANO.sample_state(FANO.observe(state, searcher), rng)
        legal = FANO.legal_actions(dealt)
        dealt = FANO.apply_legal(dealt, legal[rng.randrange(len(legal))])
        for step in range(16):
            mover = FANO.current_player(dealt)
            if mover is None:
                break
            moves = FANO.legal_actions(dealt)
            member = params(Style.BALANCED, dealt.config)
            if mover == searcher:
                choice = compiled.decide(dealt, mover, moves, member)
            else:
                choice = compiled.modelled_decide(dealt, mover, moves, member, 2, 6, step)
                swapped = _swap_hidden(dealt, searcher)
                if swapped != dealt:
                    assert FANO.observe(swapped, mover) == FANO.observe(dealt, mover)
                    again = compiled.modelled_decide(swapped, mover, moves, member, 2, 6, step)
                    assert again == choice
                    checked += 1
            dealt = FANO.apply_legal(dealt, moves[choice])
    assert checked > 5


def _chosen(spec: str, edition: str) -> list[tuple[object, int, list[float]]]:
    seen: list[tuple[object, int, list[float]]] = []
    for state in _midgames(edition, 13, 4):
        seat = FANO.current_player(state)
        assert seat is not None
        agent = create_agent(spec, FANO, seed=6)
        assert isinstance(agent, ExploitAgent)
        move = agent.choose(FANO.observe(state, seat), FANO.legal_actions(state))
        assert agent.last_totals is not None
        seen.append((move, agent.last_totals[0], [float(x) for x in agent.last_totals[1]]))
    return seen


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_modelling_exploiter_is_reproducible_and_differs_from_the_plain_one(
    edition: str,
) -> None:
    spec = "exploit(target=hard, deals=2, model_deals=1, model_budget=4)"
    first = _chosen(spec, edition)
    assert first == _chosen(spec, edition)
    plain = _chosen("exploit(target=hard, deals=2)", edition)
    assert [totals for _, _, totals in first] != [totals for _, _, totals in plain]


@pytest.mark.parametrize("edition", EDITIONS)
def test_modelling_exploiters_play_legal_games(edition: str) -> None:
    config = FANO.preset(edition).config.replace(turns_per_player=4)
    seats = ["exploit(target=hard, deals=1, model_deals=1, model_budget=2)", "medium"]
    assert _game(config, seats, 5)


@pytest.mark.parametrize(
    "text",
    [
        "fano player=2 | field=3D,6D hidden=6D | hand=5H field=2H",
        "fano player=2 | hand=AD,5D field=3D,2D,6D hidden=6D | hand=5H,4H field=2H",
    ],
)
def test_a_redeal_deals_the_others_face_down_cards_in_play_again(text: str) -> None:
    """Trionfey's Perfect defense: the owner's face-down card stays; another seat's redeal
    deals it again among that owner's unseen combat cards, every view kept."""
    config = FANO.preset("trionfey-specials").config.replace(suits="DH")
    state = FANO.parse_position(text, config)
    hidden = state.players[0].hidden
    others: set[tuple[int, ...]] = set()
    for seed in range(8):
        for viewer in range(2):
            redealt = compiled.redealt(state, viewer, seed)
            assert FANO.observe(redealt, viewer) == FANO.observe(state, viewer)
        assert compiled.redealt(state, 0, seed).players[0].hidden == hidden
        dealt = compiled.redealt(state, 1, seed).players[0]
        assert all(1 <= card >> 4 <= 7 for card in dealt.hidden)
        assert set(dealt.hidden) <= set(dealt.field)
        others.add(dealt.hidden)
    assert len(others) > 1
