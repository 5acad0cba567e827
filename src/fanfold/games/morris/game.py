"""The Fano330-R-Morris game object: the core game API over the rules, notation and views."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from fanfold.core.config import GameConfig
from fanfold.core.errors import Refusal
from fanfold.core.game import Choice, MoveWords, OpenGame, Outcome, Preset, Traits, game_over
from fanfold.core.phrases import Phrase
from fanfold.games.morris import actions, choices, notation, reach, render, rules, words
from fanfold.games.morris.actions import MorrisAction, Place
from fanfold.games.morris.board import SHAPE_NAMES, SIDE_NAMES
from fanfold.games.morris.config import PRESETS, MorrisConfig
from fanfold.games.morris.render import render_board
from fanfold.games.morris.state import MorrisState
from fanfold.games.morris.view import MorrisView


class MorrisGame(OpenGame[MorrisConfig, MorrisState, MorrisAction, MorrisView]):
    """The Fano330-R-Morris rules engine."""

    id: ClassVar[str] = "morris.v1"
    traits: ClassVar[Traits] = Traits(chance=False, zero_sum=True, returns=(-1.0, 1.0))
    aliases: ClassVar[tuple[str, ...]] = ("fano330", "fano330-r-morris", "fano-morris")
    title: ClassVar[str] = "Fano330-R-Morris"
    summary: ClassVar[str] = "abstract game on the Fano plane; 2 players, perfect information"
    config_type: ClassVar[type[GameConfig]] = MorrisConfig
    view_type = MorrisView
    has_draws: ClassVar[bool] = True  # a position repeated

    def presets(self) -> Sequence[Preset[MorrisConfig]]:
        return PRESETS

    def num_players(self, config: MorrisConfig) -> int:
        return 2

    def seat_name(self, config: MorrisConfig, seat: int) -> str:
        return Phrase(f"morris.{SIDE_NAMES[seat].lower()}")

    def new_state(self, config: MorrisConfig, seed: int = 0) -> MorrisState:
        return rules.new_state(config)

    def config_of(self, state: MorrisState) -> MorrisConfig:
        return state.config

    def outcome(self, state: MorrisState) -> Outcome | None:
        return rules.outcome(state)

    def ending_words(self, state: MorrisState) -> str | None:
        return rules.ending_words(state)

    def current_player(self, state: MorrisState) -> int | None:
        return None if rules.outcome(state) is not None else state.to_move

    def legal_actions(self, state: MorrisState) -> Sequence[MorrisAction]:
        return rules.legal_actions(state)

    def is_legal(self, state: MorrisState, action: MorrisAction) -> bool:
        return rules.is_legal(state, action)

    def explain_illegal(self, state: MorrisState, action: MorrisAction) -> str:
        reason = rules.why_illegal(state, action)
        return Refusal("game.is_legal", action=str(action)) if reason is None else reason

    def apply_legal(self, state: MorrisState, action: MorrisAction) -> MorrisState:
        return rules.apply(state, action)

    def can_still_win(self, state: MorrisState, seat: int) -> bool:
        return reach.can_still_win(state, seat)

    # ------------------------------------------------------------------ notation
    def parse_action(self, text: str) -> MorrisAction:
        return actions.parse_action(text)

    def public_action_text(
        self, state: MorrisState, action: MorrisAction, observer: int | None
    ) -> str:
        if isinstance(action, Place):
            colour = SIDE_NAMES[state.to_move].lower()
            return f"{action} ({colour} {SHAPE_NAMES[action.shape]} on {action.point})"
        return str(action)

    def move_words(self) -> MoveWords[MorrisState, MorrisAction]:
        return words

    def notation_help(self) -> str:
        return actions.NOTATION_HELP

    def format_position(self, state: MorrisState) -> str:
        return notation.format_position(state)

    def parse_position(self, text: str, config: MorrisConfig | None = None) -> MorrisState:
        return notation.parse_position(text, config or self.default_config())

    # ---------------------------------------------------------------- views
    def choices_for(self, view: MorrisView, legal: Sequence[MorrisAction]) -> list[Choice]:
        return choices.choices_for(view, legal)

    def render(self, view: MorrisView) -> str:
        return render_board(view.state)

    def drawing(self, view: MorrisView) -> Sequence[Sequence[str]]:
        return render.drawing(view.state)

    def describe(self, state: MorrisState) -> str:
        outcome = rules.outcome(state)
        if outcome is not None:
            return game_over(self.ending_words(state) or outcome.reason)
        code = "morris.to_move_placing" if state.is_placement else "morris.to_move_moving"
        return Phrase(code, side=SIDE_NAMES[state.to_move])

    def invariant_violations(self, state: MorrisState) -> list[str]:
        return rules.invariant_violations(state)
