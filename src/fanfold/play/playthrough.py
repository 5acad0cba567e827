"""Golden playthroughs: seeded random games written down in full, to pin what a seed deals and
the order of legal actions from one version of fanfold to the next.

A playthrough is dealt from a seed and played by a :class:`random.Random` seeded with the same
number, which picks uniformly among the legal actions (no agent takes part, so a change to a
bot never changes one). It is cut after :data:`MAX_ACTIONS` actions so that long games stay
small. The JSON pins the start position; every action with the number and a digest of the
legal actions' texts in order, and those texts in full and the position every :data:`EVERY`
actions; the spectator's view at the start and each seat's and the spectator's after the last
step; the outcome and the record. ``tests/golden`` keeps one file
per game, variant, player count and seed; ``scripts/write_golden.py`` writes them::

    >>> from fanfold.core.registry import get_game
    >>> data = playthrough(get_game("morris"), "geometric", None, seed=1)
    >>> data["legal"]["1"][:3], data["ended"]
    (['C1', 'C2', 'C3'], True)
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from fanfold.core.config import GameConfig, JSONObject, JSONValue
from fanfold.core.records import GameRecord
from fanfold.core.registry import AnyGame, all_games

#: Actions after which a playthrough is cut (the file says so).
MAX_ACTIONS = 150
#: The legal actions' texts are written in full, and the position, every this many actions
#: (the position after the last step too); every step has their number and digest.
EVERY = 25
#: What every golden file says about itself.
ABOUT = (
    "A golden playthrough written by scripts/write_golden.py: the game dealt from 'seed', each "
    "action chosen by random.Random(seed) uniformly among the legal actions, cut after "
    f"{MAX_ACTIONS} actions ('ended' says whether the game ended). A change to what a seed deals "
    "or to the order of legal actions needs a new game id or a record migration (docs/api.md)."
)
#: What each entry of a file's ``steps`` holds.
STEP_FORMAT = (
    "[step, decider, action, number of legal actions, first 12 hex digits of the SHA-256 of "
    "the legal actions' texts in order, one a line]"
)
#: The seeds each case is played with.
SEEDS = (1, 2)


@dataclass(frozen=True)
class Case:
    """One golden playthrough: a game's preset at a player count, dealt from a seed.

    ``players`` is ``None`` for the preset's own count (the file name leaves it out)."""

    game: AnyGame
    preset: str
    players: int | None
    seed: int

    @property
    def path(self) -> str:
        """The file's path under ``tests/golden``: ``<game id>/<preset>[-<n>p]-s<seed>.json``."""
        count = "" if self.players is None else f"-{self.players}p"
        return f"{self.game.id}/{self.preset}{count}-s{self.seed}.json"

    def play(self) -> JSONObject:
        """The playthrough, built now."""
        return playthrough(self.game, self.preset, self.players, self.seed)


def cases(games: list[AnyGame] | None = None) -> Iterator[Case]:
    """Every golden playthrough of ``games`` (every registered game when ``None``): each
    preset at its own player count dealt from the first of :data:`SEEDS`; the default preset
    from every seed, and also at the fewest and the most players it allows where no preset
    seats that count already (a representative few: the other presets' counts are the same
    rules at other tables)."""
    for game in all_games() if games is None else games:
        presets = game.presets()
        seen = {_key(preset.config) for preset in presets}
        for number, preset in enumerate(presets):
            yield from (Case(game, preset.name, None, seed) for seed in SEEDS[: 1 + (number == 0)])
            counts = preset.player_counts if number == 0 else ()
            for players in sorted({min(counts, default=0), max(counts, default=0)} - {0}):
                config = game.with_players(preset.config, players)
                if _key(config) not in seen:
                    seen.add(_key(config))
                    yield Case(game, preset.name, players, SEEDS[0])


def _key(config: GameConfig) -> str:
    return json.dumps(config.to_json(), sort_keys=True)


def digest(texts: list[str]) -> str:
    """The first 12 hex digits of the SHA-256 of ``texts``, one a line."""
    return hashlib.sha256("\n".join(texts).encode()).hexdigest()[:12]


def playthrough(game: AnyGame, preset: str, players: int | None, seed: int) -> JSONObject:
    """A seeded random playthrough of ``game``'s ``preset`` at ``players`` seats (``None``:
    the preset's own count), as the golden file holds it."""
    config = game.preset(preset).config
    if players is not None:
        config = game.with_players(config, players)
    seats = game.num_players(config)
    choices = random.Random(seed)
    state = game.new_state(config, seed)
    record = GameRecord.start(game, config, seed)
    views: dict[str, JSONValue] = {"0": _views(game, state, 0)}
    steps: list[JSONValue] = []
    legal_texts: dict[str, JSONValue] = {}
    positions: dict[str, JSONValue] = {}
    while len(steps) < MAX_ACTIONS:
        legal = game.legal_actions(state)
        if not legal:
            break
        number = len(steps) + 1
        texts = [game.action_text(each) for each in legal]
        index = choices.randrange(len(legal))
        action = legal[index]
        steps.append(
            [
                number,
                game.current_player(state),
                texts[index],
                len(texts),
                digest(texts),
            ]
        )
        if number % EVERY == 1:
            legal_texts[str(number)] = list(texts)
        state = game.apply(state, action)
        record = record.extend(game, action)
        if number % EVERY == 0:
            positions[str(number)] = game.format_position(state)
    positions[str(len(steps))] = game.format_position(state)
    views[str(len(steps))] = _views(game, state, seats)
    outcome = game.outcome(state)
    if outcome is not None:
        record = GameRecord(
            record.game, record.config, record.seed, record.actions, outcome=outcome.to_json()
        )
    return {
        "about": ABOUT,
        "game": game.id,
        "preset": preset,
        "players": seats,
        "config": config.to_json(),
        "seed": str(seed),
        "ended": outcome is not None,
        "start": game.format_position(game.new_state(config, seed)),
        "step_format": STEP_FORMAT,
        "steps": steps,
        "legal": legal_texts,
        "positions": positions,
        "views": views,
        "outcome": None if outcome is None else outcome.to_json(),
        "record": record.to_json(),
    }


def dumps(data: JSONObject) -> str:
    """A playthrough as the golden file's text: one entry a line (one step, one list of legal
    actions, one position, one seat's view), so that a diff names what changed."""
    lines = ["{"]
    for number, (key, value) in enumerate(data.items()):
        comma = "," if number < len(data) - 1 else ""
        lines.append(f" {json.dumps(key)}: {_block(value, 1, 3 if key == 'views' else 2)}{comma}")
    return "\n".join([*lines, "}"]) + "\n"


def _block(value: JSONValue, depth: int, expand: int) -> str:
    """``value`` as JSON, its containers opened on lines of their own down to ``expand``."""
    if depth >= expand or not isinstance(value, (dict, list)) or not value:
        return json.dumps(value, ensure_ascii=False)
    pad = " " * (depth + 1)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k)}: {_block(v, depth + 1, expand)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * depth + "}"
    items = [pad + _block(v, depth + 1, expand) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * depth + "]"


def _views(game: AnyGame, state: Any, seats: int) -> JSONObject:
    """The spectator's view (seat 0's where the game has none) and each of ``seats``'s."""
    data: JSONObject = {str(seat): game.observe(state, seat).to_json() for seat in range(seats)}
    try:
        data["public"] = game.public_view(state)
    except NotImplementedError:
        data.setdefault("0", game.observe(state, 0).to_json())
    return data
