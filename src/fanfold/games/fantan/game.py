"""The Fan Tan game object: the core game API over the rules, notation and views."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from fanfold.core.config import GameConfig, JSONObject
from fanfold.core.errors import Refusal
from fanfold.core.game import (
    Choice,
    MoveWords,
    NarratedGame,
    Outcome,
    Preset,
    Traits,
    game_over,
)
from fanfold.core.phrases import Phrase
from fanfold.games.fantan import actions, choices, notation, render, rules, sampling, view, words
from fanfold.games.fantan.actions import PASS, FanTanAction
from fanfold.games.fantan.config import PRESETS, FanTanConfig
from fanfold.games.fantan.state import FanTanState
from fanfold.games.fantan.view import FanTanView


class FanTanGame(NarratedGame[FanTanConfig, FanTanState, FanTanAction, FanTanView]):
    """The Fan Tan rules engine: one hand, or a match of hands, of any variant."""

    id: ClassVar[str] = "fantan.v1"
    title: ClassVar[str] = "Fan Tan"
    summary: ClassVar[str] = "Sevens and its variants (seeds/003); 3-8 players, hidden hands"
    config_type: ClassVar[type[GameConfig]] = FanTanConfig
    has_hidden_information: ClassVar[bool] = True
    #: Chips and penalty points: a loose bound on a match's returns.
    traits: ClassVar[Traits] = Traits(chance=True, zero_sum=False, returns=(-1000.0, 1000.0))
    aliases: ClassVar[tuple[str, ...]] = ("sevens", "fan-tan", "parliament", "domino")

    def presets(self) -> Sequence[Preset[FanTanConfig]]:
        return PRESETS

    def num_players(self, config: FanTanConfig) -> int:
        return config.players

    def longest_game(self, config: FanTanConfig) -> int:
        """Every hand plays out at most the pack's 52 cards a player (a match with no hand
        limit, ended by its target, is bounded as though it lasted 200 hands)."""
        return (config.hands or 200) * 52 * config.players

    def seat_name(self, config: FanTanConfig, seat: int) -> str:
        return rules.seat_words(seat)

    def with_players(self, config: FanTanConfig, players: int) -> FanTanConfig:
        return config.replace(players=players)

    # ------------------------------------------------------------------ playing
    def new_state(self, config: FanTanConfig, seed: int = 0) -> FanTanState:
        return rules.new_state(config, seed)

    def config_of(self, state: FanTanState) -> FanTanConfig:
        return state.config

    def current_player(self, state: FanTanState) -> int | None:
        return None if state.finished else state.to_move

    def legal_actions(self, state: FanTanState) -> Sequence[FanTanAction]:
        return rules.legal_actions(state)

    def is_legal(self, state: FanTanState, action: FanTanAction) -> bool:
        return rules.is_legal(state, action)

    def explain_illegal(self, state: FanTanState, action: FanTanAction) -> str:
        reason = rules.why_illegal(state, action)
        return Refusal("game.is_legal", action=str(action)) if reason is None else reason

    def apply_legal(self, state: FanTanState, action: FanTanAction) -> FanTanState:
        return rules.apply(state, action)

    def outcome(self, state: FanTanState) -> Outcome | None:
        return rules.outcome(state)

    def ending_words(self, state: FanTanState) -> str | None:
        return rules.ending_words(state)

    # ----------------------------------------------------------------- notation
    def parse_action(self, text: str) -> FanTanAction:
        return actions.parse_action(text)

    def notation_help(self) -> str:
        return actions.NOTATION_HELP

    def format_position(self, state: FanTanState) -> str:
        return notation.format_position(state)

    def parse_position(self, text: str, config: FanTanConfig | None = None) -> FanTanState:
        return notation.parse_position(text, config)

    # ------------------------------------------------------ hidden information
    def observe(self, state: FanTanState, player: int) -> FanTanView:
        return view.observe(state, player)

    def choices_for(self, view_: FanTanView, legal: Sequence[FanTanAction]) -> list[Choice]:
        return choices.choices_for(view_, legal)

    def public_view(self, state: FanTanState) -> JSONObject:
        return view.public_json(state)

    def sample_state(self, view_: FanTanView, rng: random.Random) -> FanTanState:
        return sampling.sample_state(view_, rng)

    def move_words(self) -> MoveWords[FanTanState, FanTanAction]:
        return words

    # --------------------------------------------------------------- rendering
    def render(self, view_: FanTanView) -> str:
        return render.render(view_)

    def drawing(self, view_: FanTanView) -> Sequence[Sequence[str]]:
        return render.drawing(view_)

    def describe(self, state: FanTanState) -> str:
        outcome = rules.outcome(state)
        if outcome is not None:
            return game_over(self.ending_words(state) or outcome.reason)
        config = state.config
        name = rules.seat_words(state.to_move)
        hand = render.hand_words(config, state.hand_number)
        if not state.history and config.opening is not None:
            return Phrase("fantan.opens_with", name=name, card=str(config.opening), hand=hand)
        if state.start_rank is None:
            return Phrase("fantan.opens_any", name=name, hand=hand)
        can_play = rules.legal_actions(state)[0] != PASS
        return Phrase("fantan.to_play" if can_play else "fantan.to_pass", name=name, hand=hand)

    # ---------------------------------------------------------------- testing
    def invariant_violations(self, state: FanTanState) -> list[str]:
        return rules.invariant_violations(state)
