"""The Fan patience game object: the core game API over the rules, notation and views."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from fanfold.core.config import GameConfig
from fanfold.core.errors import Refusal
from fanfold.core.game import Choice, MoveWords, OpenGame, Outcome, Preset, Traits, game_over
from fanfold.core.phrases import Phrase
from fanfold.games.fan import actions, choices, notation, render, rules, words
from fanfold.games.fan.actions import FanMove
from fanfold.games.fan.config import PRESETS, FanConfig
from fanfold.games.fan.render import render_state
from fanfold.games.fan.state import FanState
from fanfold.games.fan.view import FanView


class FanGame(OpenGame[FanConfig, FanState, FanMove, FanView]):
    """The Fan patience rules engine."""

    id: ClassVar[str] = "fan.v1"
    traits: ClassVar[Traits] = Traits(chance=True, zero_sum=False, returns=(0.0, 1.0))
    aliases: ClassVar[tuple[str, ...]] = ("fan-patience", "fan-solitaire")
    title: ClassVar[str] = "Fan"
    summary: ClassVar[str] = "patience with 18 fans built down by suit; 1 player, open deal"
    config_type: ClassVar[type[GameConfig]] = FanConfig
    view_type = FanView

    def presets(self) -> Sequence[Preset[FanConfig]]:
        return PRESETS

    def num_players(self, config: FanConfig) -> int:
        return 1

    def seat_name(self, config: FanConfig, seat: int) -> str:
        return Phrase("fan.player")

    def new_state(self, config: FanConfig, seed: int = 0) -> FanState:
        return rules.new_state(config, seed)

    def config_of(self, state: FanState) -> FanConfig:
        return state.config

    def current_player(self, state: FanState) -> int | None:
        return 0 if self._moves(state) else None

    def legal_actions(self, state: FanState) -> Sequence[FanMove]:
        return self._moves(state)

    #: The last state asked about and its legal moves: the player to move is whether there is
    #: a legal move, so asking both of one state (as every step does) lists the moves once.
    _last_moves: tuple[FanState, tuple[FanMove, ...]] | None = None

    def _moves(self, state: FanState) -> tuple[FanMove, ...]:
        last = self._last_moves  # one read: another thread may replace it meanwhile
        if last is not None and last[0] is state:
            return last[1]
        moves = rules.legal_moves(state)
        self._last_moves = (state, moves)
        return moves

    def is_legal(self, state: FanState, action: FanMove) -> bool:
        return isinstance(action, FanMove) and rules.why_illegal(state, action) is None

    def explain_illegal(self, state: FanState, action: FanMove) -> str:
        reason = rules.why_illegal(state, action)
        if reason is None:
            return Refusal("game.is_legal", action=str(action))
        if not state.is_won and not rules.legal_moves(state):
            return Refusal("fan.lost", reason=reason)
        return reason

    def apply_legal(self, state: FanState, action: FanMove) -> FanState:
        return rules.apply_move(state, action)

    def move_words(self) -> MoveWords[FanState, FanMove]:
        return words

    def outcome(self, state: FanState) -> Outcome | None:
        return rules.outcome(state)

    def ending_words(self, state: FanState) -> str | None:
        return rules.ending_words(state)

    def describe(self, state: FanState) -> str:
        outcome = rules.outcome(state)
        if outcome is not None:
            return game_over(self.ending_words(state) or outcome.reason)
        count, legal = state.cards_on_foundations, len(rules.legal_moves(state))
        if state.deal is None:
            return Phrase("fan.status", count=count, legal=legal)
        return Phrase("fan.status_deal", deal=state.deal, count=count, legal=legal)

    # ------------------------------------------------------------------ notation
    def parse_action(self, text: str) -> FanMove:
        return actions.parse_move(text)

    def notation_help(self) -> str:
        return actions.NOTATION_HELP

    def format_position(self, state: FanState) -> str:
        return notation.format_position(state)

    def parse_position(self, text: str, config: FanConfig | None = None) -> FanState:
        return notation.parse_position(text, config or self.default_config())

    # ---------------------------------------------------------------- views
    def choices_for(self, view: FanView, legal: Sequence[FanMove]) -> list[Choice]:
        return choices.choices_for(view, legal)

    def render(self, view: FanView) -> str:
        return render_state(view.state)

    def drawing(self, view: FanView) -> Sequence[Sequence[str]]:
        return render.drawing(view.state)

    def invariant_violations(self, state: FanState) -> list[str]:
        return rules.invariant_violations(state)
