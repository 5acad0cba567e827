"""The compiled fast path (``fanfold.games.fano.fast``) against the reference rules.

Seeded random games of every preset the fast path supports, at every player count the preset
allows: at each step the legal actions (as reference values, in order), the state (decoded
from the array) and the outcome must equal the reference's, to the end of the game; the
reshuffles go through the reference's seed-derived permutation.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fanfold.games.fano import (
    PRESETS,
    Allow,
    Attack,
    Combine,
    CombineCounter,
    Declare,
    Defend,
    FanoAction,
    FanoConfig,
    Play,
    Promote,
    Recruit,
    Shuffle,
    Substitute,
    fast,
)
from fanfold.games.fano.actions import Flip, PlaceJoker, Sacrifice
from fanfold.games.fano.cards import is_joker, parse_card
from fanfold.games.fano.fast import codec, engine

from .helpers import FANO, tribute_config, trionfey_position

SUPPORTED = [preset for preset in PRESETS if fast.supports(preset.config)]
#: (preset name, player count) for every supported preset and the counts it allows.
CASES = [(preset.name, count) for preset in SUPPORTED for count in preset.player_counts]


def _config(name: str, players: int, turns_per_player: int) -> FanoConfig:
    config = FANO.with_players(FANO.preset(name).config, players)
    return config.replace(turns_per_player=turns_per_player)


def _choose(legal: Sequence[FanoAction], choices: random.Random, greedy: bool) -> FanoAction:
    """A random action; ``greedy`` mostly promotes, combines or plays when it can, so that
    games reach promotions and wins (uniform random play rarely does)."""
    if greedy:
        for kind in (Promote, Combine, Play):
            found = [action for action in legal if isinstance(action, kind)]
            if found and choices.random() < 0.9:
                return found[choices.randrange(len(found))]
    return legal[choices.randrange(len(legal))]


def _play_both(config: FanoConfig, seed: int, choice_seed: int, greedy: bool = False) -> int:
    """One random game on both paths, compared at every step; the actions played."""
    choices = random.Random(choice_seed)
    state = FANO.new_state(config, seed)
    quick = engine.encode(state)
    assert engine.decode(quick) == state
    played = 0
    while True:
        legal = FANO.legal_actions(state)
        assert engine.legal_actions(quick) == tuple(legal), f"step {played}"
        assert engine.outcome(quick) == FANO.outcome(state)
        if not legal:
            assert FANO.outcome(state) is not None
            return played
        action = _choose(legal, choices, greedy)
        state = FANO.apply_legal(state, action)
        quick = engine.apply(quick, action)
        assert engine.decode(quick) == state, f"after {action} (step {played})"
        played += 1


def test_every_preset_is_supported_at_every_player_count() -> None:
    assert list(PRESETS) == SUPPORTED
    for preset in PRESETS:
        for players in preset.player_counts:
            assert fast.supports(FANO.with_players(preset.config, players))
    # The largest decks and the most Temporary Jokers still fit the layout's piles.
    assert fast.supports(FanoConfig(two_suit=True, jokers=True, promotions_to_win=9))


@pytest.mark.parametrize(("name", "players"), CASES)
def test_a_seeded_game_agrees_action_by_action(name: str, players: int) -> None:
    config = _config(name, players, turns_per_player=max(6, 60 // players))
    played = sum(_play_both(config, seed, seed + 100, greedy=seed == 1) for seed in range(2))
    assert played > 20


@settings(max_examples=25, deadline=None)
@given(
    case=st.sampled_from(CASES),
    seed=st.integers(0, 2**32),
    choice_seed=st.integers(0, 10_000),
    ends_main=st.booleans(),
    mulligan=st.booleans(),
    greedy=st.booleans(),
)
def test_random_games_agree_to_the_end(
    case: tuple[str, int],
    seed: int,
    choice_seed: int,
    ends_main: bool,
    mulligan: bool,
    greedy: bool,
) -> None:
    name, players = case
    config = _config(name, players, turns_per_player=max(4, 40 // players)).replace(
        promotion_ends_main=ends_main, mulligan=mulligan
    )
    _play_both(config, seed, choice_seed, greedy)


def test_long_games_reach_reshuffles_and_promotions() -> None:
    """The comparison covers the rare steps: reshuffles and promotions happen, and games end
    by a win and by the turn limit."""
    reshuffled = promoted = won = drawn = 0
    for seed in range(6):
        config = _config("classic", 2, turns_per_player=40)
        choices = random.Random(seed)
        state = FANO.new_state(config, seed)
        quick = engine.encode(state)
        while legal := FANO.legal_actions(state):
            action = _choose(legal, choices, greedy=seed % 2 == 1)
            state = FANO.apply_legal(state, action)
            quick = engine.apply(quick, action)
            assert engine.decode(quick) == state
        reshuffled += sum(player.shuffles for player in state.players)
        promoted += sum(player.level for player in state.players)
        result = FANO.outcome(state)
        assert result is not None
        assert engine.outcome(quick) == result
        won += not result.by_limit
        drawn += result.by_limit
    assert reshuffled > 0
    assert promoted > 0
    assert won > 0
    assert drawn > 0


def test_action_ids_round_trip() -> None:
    state = FANO.new_state(FANO.preset("two-suit").config, 3)
    rng = random.Random(3)
    for _ in range(200):
        legal = FANO.legal_actions(state)
        if not legal:
            break
        for action in legal:
            assert codec.to_action(codec.action_id(action)) == action
        ids = engine.legal_action_ids(engine.encode(state))
        assert [codec.action_id(action) for action in legal] == ids.tolist()
        state = FANO.apply_legal(state, legal[rng.randrange(len(legal))])


def test_compiled_playouts_end_in_a_legal_final_state() -> None:
    """A compiled playout (its own shuffles) ends in a state the reference accepts: no
    invariant broken, and finished (a win, or the turn limit)."""
    for players in (2, 5):
        config = _config("classic", players, turns_per_player=30)
        engine.seed(players)
        start = engine.encode(FANO.new_state(config, players))
        end, played = engine.playout(start)
        assert played > 0
        final = engine.decode(end)
        assert FANO.invariant_violations(final) == []
        assert FANO.outcome(final) is not None
        assert np.array_equal(start.array, engine.encode(FANO.new_state(config, players)).array)


def test_compiled_deals_play_whole_games() -> None:
    config = _config("classic", 2, turns_per_player=10)
    engine.seed(5)
    first = engine.random_games(config, 20)
    engine.seed(5)
    assert engine.random_games(config, 20) == first  # the fast generator is seeded
    assert first >= 20 * 2 * 10  # at least one action a turn unless a game is won early


def _special_kind(action: FanoAction) -> str | None:
    """The special or joker an action uses, if any."""
    if isinstance(action, Attack) and action.reverse:
        return "reverse"
    if isinstance(action, Combine) and action.oversum:
        return "oversum"
    if isinstance(action, Defend):
        return "defend"
    if isinstance(action, Shuffle) and action.joker:
        return "temporary joker"
    cards = [getattr(action, name, 0) for name in ("support", "result", "card")]
    if any(is_joker(card) for card in cards if isinstance(card, int)):
        return "joker into play"
    return None


def test_the_specials_and_jokers_are_compared_too() -> None:
    """Games that use every special and the jokers whenever they can, compared step by step:
    the comparison reaches each of them, and two Temporary Jokers in one seat's game."""
    seen: set[str] = set()
    for name, players in (("everything", 2), ("specials-choice", 3), ("specials", 4)):
        for seed in range(3):
            config = _config(name, players, turns_per_player=25)
            choices = random.Random(seed)
            state = FANO.new_state(config, seed)
            quick = engine.encode(state)
            while legal := FANO.legal_actions(state):
                assert engine.legal_actions(quick) == tuple(legal)
                special = [action for action in legal if _special_kind(action)]
                if special and choices.random() < 0.7:
                    action = special[choices.randrange(len(special))]
                else:
                    action = _choose(legal, choices, greedy=True)
                kind = _special_kind(action)
                if kind:
                    seen.add(kind)
                state = FANO.apply_legal(state, action)
                quick = engine.apply(quick, action)
                assert engine.decode(quick) == state
            assert engine.outcome(quick) == FANO.outcome(state)
    assert seen == {"reverse", "oversum", "defend", "temporary joker", "joker into play"}


def test_two_temporary_jokers_list_each_move_once() -> None:
    """Two Temporary Jokers in hand (one added at each commander level): the moves they make
    alike are listed once, as the reference lists them, and play goes on equal."""
    config = _config("specials-choice", 2, turns_per_player=12)
    state = FANO.new_state(config, 7)
    seat = state.turn_player
    me = state.players[seat]
    temporary = parse_card("TJ")
    jokers = replace(me, hand=(temporary, temporary, me.hand[-1]), temp_jokers=2, level=1)
    players = tuple(jokers if other == seat else p for other, p in enumerate(state.players))
    state = replace(state, players=players)
    legal = FANO.legal_actions(state)
    assert len(set(legal)) == len(legal)
    assert engine.legal_actions(engine.encode(state)) == tuple(legal)
    choices = random.Random(7)
    quick = engine.encode(state)
    while legal := FANO.legal_actions(state):
        assert engine.legal_actions(quick) == tuple(legal)
        action = _choose(legal, choices, greedy=True)
        state = FANO.apply_legal(state, action)
        quick = engine.apply(quick, action)
        assert engine.decode(quick) == state


def _trionfey_kind(action: FanoAction) -> str | None:
    """The Trionfey move an action is, for the coverage check."""
    if isinstance(action, CombineCounter):
        return "recruit counter" if action.recruiters else "counter"
    if isinstance(action, Play | Substitute) and action.face_down:
        return "face down"
    if isinstance(action, Promote) and action.owners:
        return "partners' promotion"
    names = {
        Declare: "declare",
        Recruit: "recruit",
        Sacrifice: "sacrifice",
        Flip: "flip",
        PlaceJoker: "joker",
        Allow: "allow",
    }
    return next((name for kind, name in names.items() if isinstance(action, kind)), None)


#: Trionfey moves a coverage game prefers, rarest first, with the chance of taking one (a
#: face-down card is flipped rarely, so that it is there to sacrifice).
_RARE_FIRST = (
    ("recruit counter", 0.9),
    ("partners' promotion", 0.9),
    ("joker", 0.8),
    ("face down", 0.8),
    ("counter", 0.6),
    ("recruit", 0.6),
    ("flip", 0.1),
)


def test_the_trionfey_moves_are_compared_too() -> None:
    """Trionfey games that make every kind of Trionfey move whenever they can, compared step
    by step: counters (with a recruit too), face-down cards flipped and sacrificed, the Spades
    joker, promotions paid by partners."""
    seen: set[str] = set()
    cases = (
        ("trionfey-specials", 2, "HD"),
        ("trionfey-specials", 3, "DSH"),
        ("trionfey-specials", 2, "SC"),
        ("trionfey-one-for-all", 4, ""),
        ("trionfey-all-for-one", 6, ""),
    )
    for name, players, suits in cases:
        for seed in range(3):
            config = _config(name, players, turns_per_player=20).replace(suits=suits)
            choices = random.Random(seed)
            state = FANO.new_state(config, seed)
            quick = engine.encode(state)
            while legal := FANO.legal_actions(state):
                assert engine.legal_actions(quick) == tuple(legal)
                action = _choose(legal, choices, greedy=True)
                for wanted, chance in _RARE_FIRST:
                    found = [a for a in legal if _trionfey_kind(a) == wanted]
                    if found and choices.random() < chance:
                        action = found[choices.randrange(len(found))]
                        break
                kind = _trionfey_kind(action)
                if kind:
                    seen.add(kind)
                state = FANO.apply_legal(state, action)
                quick = engine.apply(quick, action)
                assert engine.decode(quick) == state
            assert engine.outcome(quick) == FANO.outcome(state)
    assert seen == {
        "declare",
        "allow",
        "counter",
        "recruit counter",
        "recruit",
        "face down",
        "flip",
        "joker",
        "partners' promotion",
    }


def test_a_face_down_card_sacrificed_instead_of_the_attacked_one() -> None:
    """Diamonds' Perfect defense: the support is shown, the defender sacrifices 6D."""
    text = "fano player=2 | field=3D,6D hidden=6D | hand=5H field=2H"
    state = trionfey_position(text, tribute_config("DH"))
    quick = engine.encode(state)
    for move in ("2H>3D", "allow", "sacrifice 6D"):
        action = FANO.parse_action(move)
        legal = FANO.legal_actions(state)
        assert action in legal
        assert engine.legal_actions(quick) == tuple(legal)
        state = FANO.apply_legal(state, action)
        quick = engine.apply(quick, action)
        assert engine.decode(quick) == state
    assert state.players[0].down == (parse_card("6D"),)


def test_greedy_playouts_are_legal_games_that_reach_promotions() -> None:
    """The compiled greedy playout ends in a state the reference accepts, and, preferring
    promotions and prestige combinations, ends games by a win where uniform play does not."""
    config = _config("classic", 2, turns_per_player=100)
    engine.seed(11)
    wins = {"greedy": 0, "uniform": 0}
    for seed in range(10):
        start = engine.encode(FANO.new_state(config, seed))
        for name, play in (("greedy", engine.greedy_playout), ("uniform", engine.playout)):
            end, played = play(start)
            final = engine.decode(end)
            assert played > 0
            assert FANO.invariant_violations(final) == []
            result = FANO.outcome(final)
            assert result is not None
            wins[name] += not result.by_limit
    assert wins["greedy"] >= 5
    assert wins["greedy"] > wins["uniform"]
