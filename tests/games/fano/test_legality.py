"""One source of legality: ``why_illegal`` against the legal actions, on random games.

Seeded random games of every preset (with their smallest and largest tables) check that every
legal action gets no explanation, and that near misses (a legal action with another card,
target, support, returned card, seat or flag, and actions legal in a sibling state) that are not
legal get a sentence, which ``apply`` raises.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import fields, replace
from typing import Any

import pytest

from fanfold.core.errors import IllegalActionError, NotationError
from fanfold.games.fano import PRESETS, FanoAction, FanoConfig, FanoState, SpecialsMode, rules
from fanfold.games.fano.cards import TEMP_JOKER, WILD_JOKER, declared_as

from .helpers import FANO

STEPS = 40
#: The explanation given when no check names the broken rule: near misses must not need it.
GENERIC = "is not a legal move here"

CASES = [
    pytest.param(preset.config, players, seed, id=f"{preset.name}-{players}p-{seed}")
    for preset in PRESETS
    for players in sorted({min(preset.player_counts), max(preset.player_counts)})
    for seed in (1, 2)
]


def _pool(state: FanoState, rng: random.Random) -> list[int]:
    """Cards a near miss may name: mostly the cards in hands and in play (so that the checks
    go deep), some from anywhere on the table, and jokers with every value."""
    near = {card for player in state.players for card in (*player.hand, *player.field)}
    anywhere = sorted(
        {card for player in state.players for zone in _zones(player) for card in zone}
    )
    pool = sorted(near) * 3 + rng.sample(anywhere, min(6, len(anywhere)))
    for joker in (WILD_JOKER, TEMP_JOKER):
        pool.extend(declared_as(joker, value) for value in range(8))
    return pool


def _by_kind(legal: Sequence[FanoAction], rng: random.Random) -> list[FanoAction]:
    """Up to two legal actions of each kind."""
    kinds: dict[type, list[FanoAction]] = {}
    for action in legal:
        kinds.setdefault(type(action), []).append(action)
    return [action for group in kinds.values() for action in rng.sample(group, min(2, len(group)))]


def _zones(player: Any) -> tuple[tuple[int, ...], ...]:
    return (player.hand, player.field, player.draw, player.up, player.down)


def _near_misses(action: Any, pool: list[int], rng: random.Random) -> Iterator[Any]:
    """``action`` with one field changed: a card, a seat, a flag or a list of cards."""
    for field in fields(action):
        value = getattr(action, field.name)
        if isinstance(value, bool):
            yield replace(action, **{field.name: not value})
        elif field.name == "seat" or field.name == "owners":
            for seat in (None, 0, 1, 2, 3):
                if field.name == "owners":
                    yield replace(action, owners=(seat, None, None))
                else:
                    yield replace(action, seat=seat)
        elif isinstance(value, int):
            for card in rng.sample(pool, min(4, len(pool))):
                yield replace(action, **{field.name: card})
        elif isinstance(value, tuple) and value:
            for card in rng.sample(pool, min(3, len(pool))):
                index = rng.randrange(len(value))
                changed = (*value[:index], card, *value[index + 1 :])
                yield replace(action, **{field.name: changed})


def _canonical(action: Any) -> FanoAction | None:
    """The action as its text reads back (None when the text is not a move)."""
    try:
        return FANO.parse_action(str(action))
    except (NotationError, ValueError, IndexError):
        return None


def _check_illegal(state: FanoState, action: FanoAction, generic: list[str]) -> None:
    reason = rules.why_illegal(state, action)
    assert reason, f"{action} is illegal but has no explanation"
    assert not FANO.is_legal(state, action)
    if GENERIC in reason:
        generic.append(f"{action} in {FANO.format_position(state)}")
    with pytest.raises(IllegalActionError) as raised:
        FANO.apply(state, action)
    assert str(raised.value) == reason


def _check_game(state: FanoState, rng: random.Random, steps: int) -> None:
    """Play ``steps`` random moves from ``state``, checking every legal action and near misses
    at each position."""
    generic: list[str] = []
    for _ in range(steps):
        legal = FANO.legal_actions(state)
        if not legal:
            break
        legal_set = set(legal)
        for action in legal:
            assert rules.why_illegal(state, action) is None, str(action)
        pool = _pool(state, rng)
        candidates: list[FanoAction] = []
        for action in _by_kind(legal, rng):
            for miss in _near_misses(action, pool, rng):
                canonical = _canonical(miss)
                if canonical is not None:
                    candidates.append(canonical)
        # Actions legal in a sibling state: the position after another legal action.
        sibling = FANO.apply_legal(state, legal[rng.randrange(len(legal))])
        candidates.extend(FANO.legal_actions(sibling))
        for action in candidates:
            if action in legal_set:
                assert rules.why_illegal(state, action) is None, str(action)
            else:
                _check_illegal(state, action, generic)
        state = FANO.apply_legal(state, legal[rng.randrange(len(legal))])
    assert not generic, "near misses explained only generically:\n" + "\n".join(generic[:10])


@pytest.mark.parametrize(("config", "players", "seed"), CASES)
def test_legal_actions_are_exactly_the_unexplained_ones(
    config: FanoConfig, players: int, seed: int
) -> None:
    config = FANO.with_players(config, players)
    _check_game(FANO.new_state(config, seed), random.Random(seed), STEPS)


TRIONFEY = FANO.preset("trionfey").config
TRIBUTE = FANO.preset("trionfey-specials").config.replace(suits="DH")
COUNTER_WINDOWS = [
    (TRIONFEY, "fano player=1 | hand=5H field=2H | hand=4C field=3C,AC", "2H>3C"),
    (TRIONFEY, "fano player=1 | hand=5H field=2H | hand=4C,7C field=AC,2C,3C", "2H>3C"),
    (
        TRIBUTE.replace(suits="HC"),
        "fano player=1 | hand=5H,AH field=2H,4H | tribute=4 hand=4C,TJ,7C field=AC,2C,3C",
        "2H>3C",
    ),
    (TRIBUTE, "fano player=2 | field=3D,6D hidden=6D | hand=5H field=2H", "2H>3D"),
    (TRIBUTE, "fano player=2 | hand=AD,5D field=3D,2D,6D hidden=6D | hand=5H,4H field=2H", "2H>3D"),
]


@pytest.mark.parametrize(("config", "text", "declaration"), COUNTER_WINDOWS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_counter_windows_are_explained_from_the_same_checks(
    config: FanoConfig, text: str, declaration: str, seed: int
) -> None:
    state = FANO.apply_text(FANO.parse_position(text, config), declaration)
    _check_game(state, random.Random(seed), 6)


def test_the_reverse_attack_support_is_the_third_card_of_the_line() -> None:
    """Classic Reverse Fano: 4 may attack 3 with a 6 (4 -> 6 -> 3 reversed)."""
    config = FanoConfig(specials=SpecialsMode.CHOICE)
    state = FANO.parse_position("fano player=1 | hand=6H,5H field=4H | field=3C", config)
    assert rules.why_illegal(state, FANO.parse_action("4H>3C:6H reverse")) is None
    reason = rules.why_illegal(state, FANO.parse_action("4H>3C:5H reverse"))
    assert reason == "4 -> 3 needs a 6 in hand as support, not 5H"
    normal = FANO.parse_position("fano player=1 | hand=3H field=4H | field=6C", config)
    reversed_ = rules.why_illegal(normal, FANO.parse_action("4H>6C:3H reverse"))
    assert reversed_ is not None
    assert "without Reverse Fano" in reversed_
    assert rules.why_illegal(normal, FANO.parse_action("4H>6C:3H")) is None


def test_the_explanation_is_what_apply_raises() -> None:
    state = FANO.parse_position("fano player=1 | hand=TH field=8H,9H | field=3C")
    action = FANO.parse_action("promote 8H 9H TH")
    reason = rules.why_illegal(state, action)
    assert reason is not None
    with pytest.raises(IllegalActionError, match="three prestige cards"):
        FANO.apply(state, action)
    assert FANO.explain_illegal(state, action) == reason
