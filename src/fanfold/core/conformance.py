"""The conformance suite every registered game and preset must pass.

:func:`check_playouts` plays seeded random games and checks, after every action, the
properties every fanfold game promises:

* the game is over exactly when no player has a legal action, and ``outcome`` agrees;
* legal actions are distinct and their texts round-trip through ``parse_action``;
* the position notation round-trips and the reloaded position has the same legal actions;
* every view is JSON, and a state sampled from a player's view gives that player the same view
  and the same legal actions (so the view is all that player knows, and hidden cards can be
  redealt without the view changing: views leak nothing that resampling changes);
* the choices (:meth:`Game.choices`) are the legal actions in order, each text parsing back to
  its action, and name nothing the deciding player's view does not show: every reference in
  ``points`` and every text in ``details`` appears in that view's JSON, and a state sampled
  from the view gives the same choices;
* an action that is not legal raises :class:`IllegalActionError` and changes nothing;
* the game's own invariants hold;
* the same seed gives the same game, and the record replays to the same final position;
* the game ends only in the ways its plugin declares (``GamePlugin.terminations``, where it
  declares them).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from fanfold.core.errors import IllegalActionError
from fanfold.core.game import Choice
from fanfold.core.records import GameRecord
from fanfold.core.registry import AnyGame, plugin_of


class ConformanceError(AssertionError):
    """A game broke a promise of the game API."""


@dataclass(frozen=True)
class PlayoutReport:
    """What a playout did, for the caller's own checks."""

    actions: tuple[str, ...]
    final_position: str
    outcome_reason: str


def _fail(game: AnyGame, seed: int, step: int, message: str) -> ConformanceError:
    return ConformanceError(f"{game.id} seed {seed} after {step} actions: {message}")


def check_state(
    game: AnyGame,
    state: Any,
    *,
    seed: int = 0,
    step: int = 0,
    check_views: bool = True,
    rng: random.Random | None = None,
) -> None:
    """Check every per-state property on ``state``."""
    rng = rng or random.Random(seed)
    config = game.config_of(state)
    player = game.current_player(state)
    outcome = game.outcome(state)
    legal = list(game.legal_actions(state))
    if (player is None) != (outcome is not None):
        raise _fail(game, seed, step, f"current_player={player} but outcome={outcome}")
    if (player is None) != (not legal):
        raise _fail(game, seed, step, f"current_player={player} with {len(legal)} legal actions")
    if len(set(legal)) != len(legal):
        raise _fail(game, seed, step, "legal_actions has duplicates")
    for action in legal:
        text = game.action_text(action)
        parsed = game.parse_action(text)
        if parsed != action or game.action_text(parsed) != text:
            raise _fail(game, seed, step, f"action text {text!r} does not round-trip")
    choices = check_choices(game, state, legal, seed=seed, step=step)
    problems = game.invariant_violations(state)
    if problems:
        raise _fail(game, seed, step, "invariant broken: " + "; ".join(problems))
    position = game.format_position(state)
    reloaded = game.parse_position(position, config)
    if game.format_position(reloaded) != position:
        raise _fail(game, seed, step, f"position {position!r} does not round-trip")
    if player is not None and list(game.legal_actions(reloaded)) != legal:
        raise _fail(game, seed, step, f"position {position!r} reloads with other legal actions")
    if not check_views:
        return
    for seat in range(game.num_players(config)):
        view = game.observe(state, seat)
        if view.player != seat:
            raise _fail(game, seed, step, f"observe(state, {seat}) is seat {view.player}'s view")
        json.dumps(view.to_json())
        if game.observe(state, seat) != view:
            raise _fail(game, seed, step, "observe is not deterministic")
        sampled = game.sample_state(view, rng)
        if game.observe(sampled, seat) != view:
            raise _fail(
                game, seed, step, f"a state sampled from seat {seat}'s view looks different"
            )
        extra = game.invariant_violations(sampled)
        if extra:
            raise _fail(game, seed, step, "sampled state breaks: " + "; ".join(extra))
        if seat == player and list(game.legal_actions(sampled)) != legal:
            raise _fail(game, seed, step, "a sampled state gives the mover other legal actions")
        if seat == player and game.choices(sampled) != choices:
            raise _fail(game, seed, step, "a sampled state gives the mover other choices")


def check_choices(
    game: AnyGame, state: Any, legal: list[Any], *, seed: int = 0, step: int = 0
) -> list[Choice]:
    """Check the choices of the player who decides in ``state`` (``legal``: the legal actions
    there) and return them: one per legal action, in order, whose text parses back to it, with
    a kind and a label, and naming in ``points`` and ``details`` only texts that the deciding
    player's view JSON shows."""
    choices = game.choices(state)
    texts = [choice.text for choice in choices]
    wanted = [game.action_text(action) for action in legal]
    if texts != wanted:
        raise _fail(game, seed, step, f"the choices {texts} are not the legal actions {wanted}")
    player = game.current_player(state)
    if player is None:
        return choices
    visible = _strings(game.observe(state, player).to_json(), keys=True)
    for choice, action in zip(choices, legal, strict=True):
        if game.parse_action(choice.text) != action:
            raise _fail(game, seed, step, f"choice {choice.text!r} does not parse to its action")
        if not choice.kind or not choice.label:
            raise _fail(game, seed, step, f"choice {choice.text!r} has no kind or no label")
        json.dumps(choice.to_json())
        named = [*choice.points, *_strings(choice.details, keys=False)]
        unseen = sorted({text for text in named if text not in visible})
        if unseen:
            raise _fail(game, seed, step, f"choice {choice.text!r} names {unseen}, not in the view")
    return choices


def _strings(data: Any, *, keys: bool) -> set[str]:
    """Every text inside a JSON value (and every key of its objects when ``keys``)."""
    found: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            if keys:
                found.update(item)
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


def playout(
    game: AnyGame,
    config: Any,
    seed: int,
    *,
    max_actions: int = 100_000,
    check: bool = True,
    check_views_every: int = 1,
) -> PlayoutReport:
    """Play one seeded random game, checking every state when ``check`` is set."""
    rng = random.Random(seed)
    state = game.new_state(config, seed)
    seen: list[Any] = []
    actions: list[str] = []
    for step in range(max_actions + 1):
        if check:
            check_state(
                game,
                state,
                seed=seed,
                step=step,
                rng=random.Random(seed * 1_000_003 + step),  # never the moves' generator
                check_views=step % check_views_every == 0,
            )
        legal = game.legal_actions(state)
        if not legal:
            break
        if check:
            _check_illegal_rejected(game, state, legal, seen, seed, step)
            seen.extend(legal[:4])
            del seen[:-64]
        action = legal[rng.randrange(len(legal))]
        actions.append(game.action_text(action))
        state = game.apply(state, action)
    else:
        raise _fail(game, seed, max_actions, "the game did not end")
    outcome = game.outcome(state)
    if outcome is None:
        raise _fail(game, seed, len(actions), "no legal actions but no outcome")
    if len(outcome.returns) != game.num_players(config):
        raise _fail(game, seed, len(actions), "outcome.returns has the wrong length")
    declared = plugin_of(game).terminations
    if declared and not any(outcome.termination is ending for ending in declared):
        raise _fail(
            game,
            seed,
            len(actions),
            f"the game ended with the termination {outcome.termination.value!r}, which its "
            f"plugin does not declare (GamePlugin.terminations: "
            f"{', '.join(ending.value for ending in declared)})",
        )
    return PlayoutReport(tuple(actions), game.format_position(state), outcome.reason)


def _check_illegal_rejected(
    game: AnyGame, state: Any, legal: Any, seen: list[Any], seed: int, step: int
) -> None:
    legal_set = set(legal)
    candidates = [action for action in seen if action not in legal_set]
    if not candidates:
        return
    before = game.format_position(state)
    action = candidates[-1]
    try:
        game.apply(state, action)
    except IllegalActionError as error:
        if not str(error):
            raise _fail(game, seed, step, "an illegal action was refused with no message") from None
    else:
        raise _fail(game, seed, step, f"illegal action {action} was accepted")
    if game.format_position(state) != before:
        raise _fail(game, seed, step, "a refused action changed the state")


def check_playouts(
    game: AnyGame,
    config: Any,
    seeds: range,
    *,
    max_actions: int = 100_000,
    check_views_every: int = 1,
) -> list[PlayoutReport]:
    """Run :func:`playout` for each seed, then the determinism and replay checks."""
    reports = [
        playout(game, config, seed, max_actions=max_actions, check_views_every=check_views_every)
        for seed in seeds
    ]
    for seed, report in zip(seeds, reports, strict=True):
        again = playout(game, config, seed, max_actions=max_actions, check=False)
        if again != report:
            raise ConformanceError(f"{game.id} seed {seed}: the same seed played differently")
        record = GameRecord(game.id, config.to_json(), seed, report.actions)
        restored = GameRecord.loads(record.dumps())
        final = restored.replay()
        if game.format_position(final) != report.final_position:
            raise ConformanceError(f"{game.id} seed {seed}: the record replays to another position")
        outcome = game.outcome(final)
        if outcome is None or outcome.reason != report.outcome_reason:
            raise ConformanceError(f"{game.id} seed {seed}: the record replays to another outcome")
    return reports
