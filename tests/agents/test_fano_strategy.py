"""Fano's strategy: legal moves everywhere, a sane evaluation, moves a player would make,
determinizations true to the view, and a clear edge over random play."""

from __future__ import annotations

import random

import pytest

from fanfold.agents import create_agent
from fanfold.agents.strategy import has_knowledge, knowledge_for
from fanfold.agents.strategy.fano_knowledge import (
    PROTECTION,
    FanoKnowledge,
    _Turn,
    evaluation,
    potential,
)
from fanfold.games.fano import FanoConfig, FanoState
from fanfold.games.fano.config import SpecialsMode
from fanfold.games.fano.game import FanoGame
from fanfold.games.fano.state import Phase
from fanfold.play import play_game
from tests.games.fano.helpers import FANO

PRESETS = [preset.name for preset in FANO.presets()]


def _knowledge() -> FanoKnowledge:
    knowledge = knowledge_for(FANO)
    assert isinstance(knowledge, FanoKnowledge)
    return knowledge


def _short(name: str, turns: int, players: int | None = None) -> FanoConfig:
    config: FanoConfig = FANO.preset(name).config
    if players is not None:
        config = FANO.with_players(config, players)
    return config.replace(turns_per_player=turns)


def _positions(config: FanoConfig, seed: int) -> list[FanoState]:
    """Every decision's state of a heuristic self-play game."""
    agents = [create_agent("heuristic", FANO, seed=seed + seat) for seat in range(config.players)]
    state = FANO.new_state(config, seed)
    states = []
    while (seat := FANO.current_player(state)) is not None:
        states.append(state)
        legal = FANO.legal_actions(state)
        action = agents[seat].choose(FANO.observe(state, seat), legal)
        assert action in legal, f"{action} is not legal in {FANO.format_position(state)}"
        state = FANO.apply_legal(state, action)
    return states


def test_fano_has_a_strategy() -> None:
    assert has_knowledge(FANO)
    assert isinstance(knowledge_for(FANO), FanoKnowledge)


@pytest.mark.parametrize("name", PRESETS)
def test_the_heuristic_plays_only_legal_moves_in_every_preset(name: str) -> None:
    config = _short(name, 30)
    for seed in range(2):
        assert _positions(config, seed)


@pytest.mark.parametrize(("name", "players"), [("trionfey", 3), ("trionfey-specials", 3)])
def test_the_heuristic_chooses_whom_to_attack(name: str, players: int) -> None:
    assert _positions(_short(name, 30, players), 4)


@pytest.mark.parametrize("name", ["classic", "trionfey", "trionfey-specials", "everything"])
def test_every_level_plays_only_legal_moves(name: str) -> None:
    config = _short(name, 2)
    for level in ("easy", "medium", "hard"):
        table = play_game(FANO, config, [level, "heuristic"], seed=5)
        assert table.outcome is not None


def test_determinizations_keep_what_the_view_shows() -> None:
    rng = random.Random(9)
    for name in ("classic", "everything", "trionfey-specials", "trionfey-one-for-all"):
        states = _positions(_short(name, 25), 1)
        for state in states[::3]:
            seat = FANO.current_player(state)
            assert seat is not None
            for observer in {seat, (seat + 1) % state.config.players}:
                view = FANO.observe(state, observer)
                dealt = FANO.sample_state(view, rng)
                assert FANO.observe(dealt, observer) == view
                assert not FANO.invariant_violations(dealt)
                if observer == seat:
                    assert FANO.legal_actions(dealt) == FANO.legal_actions(state)


def test_the_evaluation_is_zero_sum_bounded_and_rewards_promotions() -> None:
    for name in ("classic", "trionfey-specials"):
        for state in _positions(_short(name, 40), 2)[::5]:
            values = evaluation(state)
            assert len(values) == 2
            assert all(-1 < value < 1 for value in values)
            assert values[0] == pytest.approx(-values[1])
    even = FANO.parse_position("fano player=1 | hand=2H field=3H,5H | hand=2C field=3C,5C")
    assert evaluation(even) == pytest.approx((0.0, 0.0))
    ahead = FANO.parse_position("fano player=1 | level=1 hand=2H field=3H,5H | hand=2C field=3C,5C")
    prestige = FANO.parse_position("fano player=1 | hand=2H field=8H,5H | hand=2C field=3C,5C")
    assert evaluation(ahead)[0] > evaluation(prestige)[0] > 0
    assert evaluation(ahead)[1] < 0


def test_in_all_for_one_a_partners_lead_is_a_rivals_in_one_for_all_the_partnerships() -> None:
    """ "All for one": each player wins alone, so a partner ahead is a rival like any other;
    "One for all": partners share one commander and stand together against the others."""
    cells = ["hand=2H field=3H,5H", "hand=2C field=3C,5C", "hand=2S field=3S,5S"]
    cells += ["hand=2D field=3D,5D"]
    partner_ahead = [*cells[:2], "level=1 " + cells[2], *cells[3:]]
    alone = FANO.preset("trionfey-all-for-one").config
    values = evaluation(FANO.parse_position("fano player=1 | " + " | ".join(partner_ahead), alone))
    assert values[2] > 0
    assert values[0] < 0
    assert values[0] == pytest.approx(values[1]) == pytest.approx(values[3])
    shared = FANO.preset("trionfey-one-for-all").config
    together = ["level=1 " + partner_ahead[0], *partner_ahead[1:]]
    values = evaluation(FANO.parse_position("fano player=1 | " + " | ".join(together), shared))
    assert values[0] > 0
    assert values[0] == pytest.approx(values[2])
    assert values[1] == pytest.approx(values[3]) == pytest.approx(-values[0])


def test_knowledge_evaluates_an_ended_game_by_its_outcome() -> None:
    won = FANO.parse_position("fano player=1 | level=3 | level=1")
    assert _knowledge().evaluate(won) == (1.0, -1.0)


def test_potential_climbs_the_road_to_a_promotion() -> None:
    nothing = potential((), (3,), (2, 9), 3)
    half = potential((), (3,), (6, 9), 3)  # 3 in play, 6 and 9 in hand
    ready = potential((), (3, 6), (9,), 2)  # 3 + 6 in play, 9 in hand
    done = potential((9,), (), (), 3)
    assert nothing < half < ready < done
    assert potential((8, 9), (), (), 2) < potential((8, 9, 10), (), (), 1)


def _choice(position: str, seed: int = 0, config: FanoConfig | None = None) -> str:
    state = FANO.parse_position(position, config)
    legal = FANO.legal_actions(state)
    return str(_knowledge().playout_action(state, legal, random.Random(seed)))


def test_the_heuristic_promotes_and_combines_for_prestige() -> None:
    assert _choice("fano player=1 | hand=2H field=8H,9H,TH | field=3C") == "promote 8H 9H TH"
    assert _choice("fano player=1 | hand=9H,2H field=3H,6H,8H | field=AC").startswith("3H+6H=9H")


def test_the_heuristic_plays_the_card_that_completes_a_pair() -> None:
    # 4 in play and 10 in hand: the 6 makes the pair (it was once discarded instead).
    position = "fano player=1 | hand=3H,6H,TH field=4H,8H,9H | hand=5C field=2C,4C"
    assert _choice(position) == "play 6H"


def test_the_heuristic_attacks_the_card_that_completes_a_pair() -> None:
    # 2C + 6C would make the 8C in hand; the 4H attacks the 6C with the 3H.
    position = "fano player=1 | hand=3H,5H field=4H,AH | hand=8C field=2C,6C"
    assert _choice(position) == "4H>6C:3H"


def test_the_defender_counters_only_a_real_attack() -> None:
    # 2H declares on the 4C (support 1): a combine counter 3C+4C=7C is open to the defender.
    bluff = "fano player=1 | hand=5H field=2H | hand=7C,9C field=3C,4C"
    real = "fano player=1 | hand=AH field=2H | hand=7C,9C field=3C,4C"
    trionfey = FANO.preset("trionfey").config
    for position, answer in ((bluff, "allow"), (real, "counter")):
        state = FANO.parse_position(position, trionfey)
        state = FANO.apply_text(state, "2H>4C")
        assert state.phase is Phase.REACT
        legal = FANO.legal_actions(state)
        action = _knowledge().playout_action(state, legal, random.Random(1))
        assert str(action).startswith(answer)


@pytest.mark.parametrize("name", ["classic", "trionfey"])
def test_the_heuristic_beats_random_play(name: str) -> None:
    config = _short(name, 150)
    wins = 0
    for game in range(4):
        seats = ["heuristic", "random"] if game % 2 == 0 else ["random", "heuristic"]
        table = play_game(FANO, config, seats, seed=game)
        assert table.outcome is not None
        wins += table.outcome.returns[seats.index("heuristic")] > 0
    assert wins == 4


def test_the_game_type_is_checked() -> None:
    from fanfold.agents.strategy import fano
    from fanfold.core.registry import get_game

    assert isinstance(FANO, FanoGame)
    with pytest.raises(TypeError, match="Fano's strategy plays Fano"):
        fano.KNOWLEDGE(get_game("morris"))


def test_search_with_the_strategy_beats_random_play() -> None:
    # A small budget of the hard level's kind of search (strength claims live in the arena).
    agent = "mcts(playout=heuristic, iterations=12, rollout_limit=4, widening=1)"
    config = _short("classic", 120)
    for game in range(2):
        seats = [agent, "random"] if game % 2 == 0 else ["random", agent]
        table = play_game(FANO, config, seats, seed=game)
        assert table.outcome is not None
        assert table.outcome.returns[seats.index(agent)] > 0


def test_search_asks_the_strategy_for_priors_and_obvious_moves() -> None:
    from fanfold.agents.mcts import MCTSAgent

    agent = create_agent("mcts(playout=heuristic, iterations=30, widening=1)", FANO, seed=2)
    assert isinstance(agent, MCTSAgent)
    state = FANO.parse_position("fano player=1 | hand=2H,3H field=8H,9H,TH | field=3C")
    legal = FANO.legal_actions(state)
    assert str(agent.choose(FANO.observe(state, 0), legal)) == "promote 8H 9H TH"
    scores = _knowledge().priors(state, legal)
    assert len(scores) == len(legal)
    assert max(scores) == scores[[str(a) for a in legal].index("promote 8H 9H TH")]


# Perfect defense: diamonds (seat 1) against clubs, specials by suit (diamonds may use Perfect
# defense only) or by choice (every special, one a commander level).
BY_SUIT = FANO.preset("specials-choice").config.replace(specials=SpecialsMode.SUIT, suits="DC")
BY_CHOICE = FANO.preset("specials-choice").config.replace(suits="DC")
# 2D + 6D would make an 8; the AC attacks the 2D with a 4 (and nothing else of seat 1's).
PAIR_UNDER_ATTACK = "fano player=1 | hand=3D,7D field=2D,6D | hand=4C,9C known=4C field=AC"


def test_perfect_defense_protects_the_card_the_opponent_can_attack() -> None:
    assert _choice(PAIR_UNDER_ATTACK, config=BY_SUIT) == "defend 2D"
    # The 4C known to be in the discards, not in hand: nothing can attack the 2D.
    safe = "fano player=1 | hand=3D,7D field=2D,6D | hand=9C known=9C up=4C field=AC"
    assert _choice(safe, config=BY_SUIT) == "play 7D"
    # Once the level's special is used, Perfect defense is not offered again.
    used = PAIR_UNDER_ATTACK.replace("field=2D,6D", "field=2D,6D specials=0:defend protected=2D")
    state = FANO.parse_position(used, BY_SUIT)
    assert not any(str(action).startswith("defend") for action in FANO.legal_actions(state))


def test_perfect_defense_goes_on_the_card_whose_loss_costs_most() -> None:
    # The AC attacks the 2D (support 4) and the 5D (support 6): both supports are known in
    # hand; the 2D makes an 8 with the 6D, the 5D makes nothing that is missing.
    position = "fano player=1 | hand=3D field=2D,5D,6D,9D | hand=4C,6C known=4C,6C field=AC"
    state = FANO.parse_position(position, BY_SUIT)
    turn = _Turn(state)
    two, five = (card for card in state.players[0].field if card >> 4 in (2, 5))
    assert turn.threat(two) == turn.threat(five) == pytest.approx(1.0)
    assert turn.defend(two) > turn.defend(five)
    assert _choice(position, config=BY_SUIT) == "defend 2D"


def test_perfect_defense_is_dearer_when_the_level_could_buy_another_special() -> None:
    # A lone 2D (worth less than a pair): defended when Perfect defense is the seat's only
    # special, kept for Oversum or Reverse Fano when the seat may choose any special.
    lone = "fano player=1 | hand=3D,7D field=2D | hand=4C,9C known=4C field=AC"
    assert _choice(lone, config=BY_SUIT) == "defend 2D"
    assert _choice(lone, config=BY_CHOICE) == "play 7D"


def test_the_chance_of_the_support_reads_only_what_is_in_sight() -> None:
    # Clubs: AC in play, two unknown cards in hand, seven in the draw pile; one 4C among the
    # nine hidden cards, so the chance that the hand holds it is 1 - C(8,2)/C(9,2) = 2/9.
    for hand in ("4C,9C", "5C,9C"):  # the dealt hand does not matter, only what is seen
        state = FANO.parse_position(
            f"fano player=1 | hand=3D,7D field=2D,6D | hand={hand} field=AC", BY_SUIT
        )
        turn = _Turn(state)
        assert turn.holds(1, 4) == pytest.approx(2 / 9)
        assert turn.threat(state.players[0].field[0]) == pytest.approx(2 / 9)
    seen = FANO.parse_position("fano player=1 | field=2D | hand=5C,9C up=4C field=AC", BY_SUIT)
    assert _Turn(seen).holds(1, 4) == 0.0
    known = FANO.parse_position("fano player=1 | field=2D | hand=4C,9C known=4C field=AC", BY_SUIT)
    assert _Turn(known).holds(1, 4) == 1.0
    # The 6D is attacked by a 4 or a 5 (supports 3 and 1); the AC does not attack it.
    six = FANO.parse_position("fano player=1 | field=6D | hand=4C known=4C field=AC", BY_SUIT)
    assert _Turn(six).threat(six.players[0].field[0]) == 0.0


def test_a_protected_card_is_used_only_for_more_than_its_protection() -> None:
    # The 2D attacks the 4C with the AD; under Perfect defense, that attack gives it up.
    free = "fano player=1 | hand=AD field=2D,6D | hand=9C field=4C"
    state = FANO.parse_position(free, BY_SUIT)
    protected = FANO.parse_position(
        free.replace("field=2D,6D", "field=2D,6D specials=0:defend protected=2D"), BY_SUIT
    )
    attack = FANO.parse_action("2D>4C:AD")
    before = _knowledge().scores(state, [attack])[0]
    after = _knowledge().scores(protected, [attack])[0]
    assert before - after == pytest.approx(PROTECTION)


def test_the_heuristic_uses_perfect_defense_in_play() -> None:
    config = BY_SUIT.replace(turns_per_player=80)
    defended = 0
    for seed in range(3):
        table = play_game(FANO, config, ["heuristic", "heuristic"], seed=seed)
        assert table.outcome is not None
        defended += sum(1 for text in table.record.actions if text.startswith("defend"))
    assert defended >= 3
