"""The exact endgame solver of ``benchmarks/fantan_endgame_bound.py``, against brute force."""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest
from benchmarks import fantan_endgame_bound as bench

from fanfold.agents import create_agent
from fanfold.agents.strategy.fantan_scoring import PlayRecord, card_scores
from fanfold.games.fantan import GAME, FanTanState, rules
from fanfold.games.fantan.actions import Play

CONFIG = GAME.preset("standard").config
ALL = (1 << 52) - 1
#: Each suit's ranks from the outside of its row in: below the seven (2, 3, ...) and above it
#: (ace, king, ...), as rank bits.
DOWN = (1, 2, 3, 4)
UP = (0, 12, 11, 10)


class MissingError(Exception):
    """A policy has no card for a view reached."""

    def __init__(self, key: tuple[object, ...], choices: list[int]) -> None:
        self.key = key
        self.choices = choices


def _state(hands: tuple[int, ...], me: int) -> FanTanState:
    layout = ALL
    for hand in hands:
        layout &= ~hand
    base = GAME.new_state(CONFIG, 1)
    return dataclasses.replace(base, hands=hands, layout=layout, to_move=me, history=())


def _heuristic_cards(state: FanTanState, choices: int) -> list[int]:
    scores = card_scores(CONFIG, state.layout, state.start_rank, state.hands[state.to_move],
                         choices)  # fmt: skip
    top = max(scores.values())
    return sorted(index for index, score in scores.items() if score == top)


def _win(state: FanTanState, me: int, policy: dict[tuple[object, ...], int]) -> float:
    """The chance ``me`` goes out first from ``state``, playing ``policy`` (a card for each
    history seen), by the rules engine."""
    legal = rules.legal_actions(state)
    seat = state.to_move
    plays = [action.index for action in legal if isinstance(action, Play)]
    if len(plays) < 2:
        cards: list[int] = plays
    elif seat == me:
        key = tuple(state.history)
        if key not in policy:
            raise MissingError(key, plays)
        cards = [policy[key]]
    else:
        cards = _heuristic_cards(state, sum(1 << index for index in plays))
    if not cards:
        return _win(rules.step(state, legal[0]), me, policy)
    total = 0.0
    for index in cards:
        after = rules.step(state, Play(index))
        if not after.hands[seat]:
            total += seat == me
        else:
            total += _win(after, me, policy)
    return total / len(cards)


def _brute_force(worlds: list[bench.World], me: int) -> dict[int, float]:
    """Every pure policy of ``me`` (a card per history seen) tried on every world: the best
    weight won, for each first card."""
    best: dict[int, float] = {}
    states = [(weight, _state(hands, me)) for weight, hands, _ in worlds]
    stack: list[dict[tuple[object, ...], int]] = [{}]
    while stack:
        policy = stack.pop()
        try:
            won = sum(weight * _win(state, me, policy) for weight, state in states)
        except MissingError as missing:
            stack.extend({**policy, missing.key: card} for card in missing.choices)
            continue
        first = policy[()]
        best[first] = max(best.get(first, 0.0), won)
    return best


def _position(rng: random.Random, count: int = 4) -> tuple[list[bench.World], int]:
    """A random endgame: a few outer cards of some rows held, the rest played; ``me`` holds
    three cards with two or more playable, the others two each, and ``count`` of the
    splits of the others' cards, weighted at random."""
    solver = bench.Endgame(CONFIG, 0)
    while True:
        held = []
        for suit in range(4):
            held += [suit * 13 + bit for bit in DOWN[: rng.randrange(3)]]
            held += [suit * 13 + bit for bit in UP[: rng.randrange(3)]]
        if len(held) != 9:
            continue
        rng.shuffle(held)
        me = rng.randrange(4)
        mine = sum(1 << index for index in held[:3])
        layout = ALL
        for index in held:
            layout &= ~(1 << index)
        choices = mine & solver.playable(layout)
        if choices & (choices - 1):
            break
    rest = held[3:]
    splits = []
    for first in itertools.combinations(rest, 2):
        left = [index for index in rest if index not in first]
        for second in itertools.combinations(left, 2):
            third = [index for index in left if index not in second]
            seats = [sum(1 << index for index in part) for part in (first, second, third)]
            seats.insert(me, mine)
            splits.append(tuple(seats))
    worlds = [
        (rng.random() + 0.1, hands, layout) for hands in rng.sample(splits, min(count, len(splits)))
    ]
    return worlds, me


@pytest.mark.parametrize("seed", range(6))
def test_exact_play_per_view_equals_the_best_policy_found_by_brute_force(seed: int) -> None:
    worlds, me = _position(random.Random(seed))
    solver = bench.Endgame(CONFIG, me)
    assert solver.values(worlds) == pytest.approx(_brute_force(worlds, me), abs=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_exact_play_lies_between_the_heuristic_and_play_shown_every_hand(seed: int) -> None:
    worlds, me = _position(random.Random(seed))
    solver = bench.Endgame(CONFIG, me)
    exact = solver.value(worlds)
    perfect = sum(weight * solver.perfect(hands, layout) for weight, hands, layout in worlds)
    plain = sum(weight * solver.heuristic(hands, layout) for weight, hands, layout in worlds)
    assert plain <= exact + 1e-12
    assert exact <= perfect + 1e-12
    for _, hands, layout in worlds:  # one deal known: exact play is perfect play
        alone = [(1.0, hands, layout)]
        assert solver.value(alone) == pytest.approx(solver.perfect(hands, layout))
        assert solver.heuristic(hands, layout) <= solver.perfect(hands, layout) + 1e-12


@pytest.mark.parametrize("seed", [6, 30, 37])
def test_in_real_endgames_exact_play_wins_less_than_seeing_every_hand(seed: int) -> None:
    """Real endgames (four heuristic seats, every hand at most five cards) where the seat's
    card must serve every deal of its view: exact play wins less than the best card for each
    deal would, and no less than the heuristic."""
    state, seat = _view_with_small_hands(seed, 5)
    worlds = bench.posterior(GAME.observe(state, seat))
    solver = bench.Endgame(CONFIG, seat)
    perfect = sum(weight * solver.perfect(hands, layout) for weight, hands, layout in worlds)
    plain = sum(weight * solver.heuristic(hands, layout) for weight, hands, layout in worlds)
    assert plain - 1e-12 <= solver.value(worlds) < perfect - 0.01


def _view_with_small_hands(seed: int, cards: int) -> tuple[FanTanState, int]:
    state = GAME.new_state(CONFIG, seed)
    agents = [create_agent("heuristic", GAME, seed * 10 + seat) for seat in range(4)]
    while GAME.current_player(state) is not None:
        legal = GAME.legal_actions(state)
        seat = state.to_move
        view = GAME.observe(state, seat)
        if len(legal) > 1 and max(view.hand_counts) <= cards:
            return state, seat
        state = GAME.apply(state, agents[seat].choose(view, legal))
    raise AssertionError("no small endgame in this game")


@pytest.mark.parametrize("seed", [1, 11, 14])
def test_the_posterior_is_every_split_weighted_by_the_heuristics_chance_of_the_plays_seen(
    seed: int,
) -> None:
    state, seat = _view_with_small_hands(seed, 4)
    view = GAME.observe(state, seat)
    worlds = bench.posterior(view)
    assert len(worlds) > 1
    assert any(hands == state.hands for _, hands, _ in worlds)  # the real deal is possible
    assert sum(weight for weight, _, _ in worlds) == pytest.approx(1.0)
    # Brute force: every split of the hidden cards, its weight by the reading's own record.
    record = PlayRecord(view, 0.0)
    forbidden = rules.pass_constraints(CONFIG, view.leader, view.history)
    hidden = [index for index in range(52) if not (view.hand | view.layout) >> index & 1]
    others = [other for other in range(4) if other != seat]
    expected: dict[tuple[int, ...], float] = {}
    first, second, third = others
    for one in itertools.combinations(hidden, view.hand_counts[first]):
        left = [index for index in hidden if index not in one]
        for two in itertools.combinations(left, view.hand_counts[second]):
            three = [index for index in left if index not in two]
            hands = [0] * 4
            hands[seat] = view.hand
            for other, part in ((first, one), (second, two), (third, three)):
                hands[other] = sum(1 << index for index in part)
            weight = 1.0
            for other in others:
                if hands[other] & forbidden[other]:
                    weight = 0.0
                weight *= record.seat_likelihood(other, hands[other])
            expected[tuple(hands)] = weight
    total = sum(expected.values())
    got = {hands: weight for weight, hands, _ in worlds}
    assert got == pytest.approx({k: w / total for k, w in expected.items() if w > 0})


def test_bad_arguments_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--games", "0"], ["--cards", "0"], ["--cards", "14"], ["--limit", "0"]):
        with pytest.raises(SystemExit):
            bench.main(argv)
        assert "must be" in capsys.readouterr().err


def test_a_short_run_prints_its_table(capsys: pytest.CaptureFixture[str]) -> None:
    bench.main(["--games", "8", "--agent", "heuristic", "--cards", "5"])
    out = capsys.readouterr().out
    assert "8 games, seeds 1..8, heuristic" in out
    assert "hands lost to exact play" in out
