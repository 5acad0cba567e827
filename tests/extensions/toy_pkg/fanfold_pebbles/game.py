"""The Pebbles game object: fanfold's game API over :mod:`fanfold_pebbles.rules`."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from fanfold.core.config import GameConfig, JSONObject
from fanfold.core.game import Choice, Game, Outcome, Preset, Traits

from . import rules
from .rules import PRESETS, SIDES, PebblesConfig, PebblesState, Take


@dataclass(frozen=True)
class PebblesView:
    """Pebbles has no hidden information: a seat sees the whole state."""

    player: int
    state: PebblesState

    def to_json(self) -> JSONObject:
        return {
            "player": self.player,
            "left": self.state.left,
            "most": self.state.config.most,
            "to_move": self.state.to_move,
        }


class PebblesGame(Game[PebblesConfig, PebblesState, Take, PebblesView]):
    """The rules engine of Pebbles."""

    id: ClassVar[str] = "pebbles.v1"
    title: ClassVar[str] = "Pebbles"
    summary: ClassVar[str] = "take one to three pebbles from a pile; 2 players, no chance"
    config_type: ClassVar[type[GameConfig]] = PebblesConfig
    traits: ClassVar[Traits] = Traits(chance=False, zero_sum=True, returns=(-1.0, 1.0))
    aliases: ClassVar[tuple[str, ...]] = ("nim-pile",)

    def presets(self) -> Sequence[Preset[PebblesConfig]]:
        return PRESETS

    def num_players(self, config: PebblesConfig) -> int:
        return 2

    def seat_name(self, config: PebblesConfig, seat: int) -> str:
        return SIDES[seat]

    def longest_game(self, config: PebblesConfig) -> int:
        return config.pebbles

    def new_state(self, config: PebblesConfig, seed: int = 0) -> PebblesState:
        return rules.new_state(config)

    def config_of(self, state: PebblesState) -> PebblesConfig:
        return state.config

    def current_player(self, state: PebblesState) -> int | None:
        return None if rules.outcome(state) is not None else state.to_move

    def legal_actions(self, state: PebblesState) -> Sequence[Take]:
        return rules.legal_actions(state)

    def is_legal(self, state: PebblesState, action: Take) -> bool:
        return rules.why_illegal(state, action) is None

    def explain_illegal(self, state: PebblesState, action: Take) -> str:
        return rules.why_illegal(state, action) or f"{action} is legal here"

    def apply_legal(self, state: PebblesState, action: Take) -> PebblesState:
        return rules.apply(state, action)

    def outcome(self, state: PebblesState) -> Outcome | None:
        return rules.outcome(state)

    def choices_for(self, view: PebblesView, actions: Sequence[Take]) -> list[Choice]:
        return [
            Choice(str(take), "take", f"Take {take.count} pebble{'s' * (take.count > 1)}")
            for take in actions
        ]

    def parse_action(self, text: str) -> Take:
        return rules.parse_action(text)

    def notation_help(self) -> str:
        return rules.NOTATION_HELP

    def format_position(self, state: PebblesState) -> str:
        return rules.format_position(state)

    def parse_position(self, text: str, config: PebblesConfig | None = None) -> PebblesState:
        return rules.parse_position(text, config or self.default_config())

    def observe(self, state: PebblesState, player: int) -> PebblesView:
        return PebblesView(player, state)

    def sample_state(self, view: PebblesView, rng: random.Random) -> PebblesState:
        return view.state

    def render(self, view: PebblesView) -> str:
        state = view.state
        return f"Pebbles: {'o' * state.left} ({state.left} left, take 1 to {state.config.most})"

    def describe(self, state: PebblesState) -> str:
        found = rules.outcome(state)
        if found is not None:
            return f"Game over: {found.reason}"
        return f"{SIDES[state.to_move]} to move, {state.left} pebbles left"
