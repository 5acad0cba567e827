"""The Fano game object: the core game API over the rules, notation and views."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import ClassVar

import fanfold.games.fano.choices as choices
import fanfold.games.fano.notation as notation
import fanfold.games.fano.render as render
import fanfold.games.fano.rules as rules
import fanfold.games.fano.view as view
import fanfold.games.fano.words as words
from fanfold.core.config import GameConfig, JSONObject
from fanfold.core.errors import ConfigError, Refusal
from fanfold.core.game import Choice, Game, Outcome, Preset, Traits, game_over
from fanfold.core.phrases import Phrase, joined, phrases
from fanfold.games.fano.actions import (
    Allow,
    Combine,
    Declare,
    Discard,
    FanoAction,
    Mulligan,
    Pass,
    Play,
    Sacrifice,
    Shuffle,
    Substitute,
    parse_action,
)
from fanfold.games.fano.cards import card_text, is_joker, is_prestige, value_of
from fanfold.games.fano.config import PRESETS, TEAM_PLAYERS, FanoConfig, Teams
from fanfold.games.fano.rules.attacks import hand_cards, support_value
from fanfold.games.fano.state import FanoState, Phase
from fanfold.games.fano.view import FanoView


class FanoGame(Game[FanoConfig, FanoState, FanoAction, FanoView]):
    """Fano, classic edition (rules text: seeds/000_20e0e87f70a9328e.txt)."""

    id: ClassVar[str] = "fano.v1"
    title: ClassVar[str] = "Fano"
    summary: ClassVar[str] = (
        "Fano card game, classic edition (seeds/000): 2-8 players, hidden hands, shuffles"
    )
    config_type: ClassVar[type[GameConfig]] = FanoConfig
    has_hidden_information: ClassVar[bool] = True
    has_passive_action: ClassVar[bool] = True
    traits: ClassVar[Traits] = Traits(chance=True, zero_sum=False, returns=(-1.0, 1.0))
    aliases: ClassVar[tuple[str, ...]] = ("fano-classic", "fano.classic")

    def presets(self) -> Sequence[Preset[FanoConfig]]:
        return PRESETS

    def num_players(self, config: FanoConfig) -> int:
        return config.players

    def longest_game(self, config: FanoConfig) -> int:
        """The turn limit bounds a game: at most 50 actions a turn."""
        return config.last_turn * 50

    def rating_family(self, config: FanoConfig) -> str:
        """The two editions play as different games: ``fano-classic``, ``fano-trionfey``."""
        return f"{self.name}-{config.edition.value}"

    def teams(self, config: FanoConfig) -> list[tuple[int, ...]]:
        """Trionfey's partnerships (odd seats against even seats), else one seat a team."""
        found: list[tuple[int, ...]] = []
        for seat in range(config.players):
            team = tuple(sorted(rules.turns.teammates(config, seat)))
            if team not in found:
                found.append(team)
        return found

    def seat_name(self, config: FanoConfig, seat: int) -> str:
        return render.seat_label(config, seat)

    def with_players(self, config: FanoConfig, players: int) -> FanoConfig:
        if config.two_suit and players != 2:
            raise ConfigError(Refusal("fano.config_two_suit_players"))
        suits = config.suits if len(config.suits) == players else ""
        teams = config.teams
        if config.trionfey:
            if players in TEAM_PLAYERS and teams is Teams.NONE:
                teams = Teams.ALL_FOR_ONE
            elif players not in TEAM_PLAYERS:
                teams = Teams.NONE
        return config.replace(players=players, suits=suits, teams=teams)

    def new_state(self, config: FanoConfig, seed: int = 0) -> FanoState:
        return rules.new_state(config, seed)

    def config_of(self, state: FanoState) -> FanoConfig:
        return state.config

    def current_player(self, state: FanoState) -> int | None:
        if state.phase is Phase.OVER or rules.winner(state) is not None:
            return None
        return state.decider

    def legal_actions(self, state: FanoState) -> Sequence[FanoAction]:
        return rules.legal_actions(state)

    def outcome(self, state: FanoState) -> Outcome | None:
        return rules.outcome(state)

    def ending_words(self, state: FanoState) -> str | None:
        return rules.ending_words(state)

    def is_legal(self, state: FanoState, action: FanoAction) -> bool:
        return rules.is_legal(state, action)

    played_kinds: ClassVar[tuple[str, ...]] = ("declare+bluff", "combine+prestige_joker")

    def played_flags(self, state: FanoState, action: FanoAction) -> tuple[str, ...]:
        """A Trionfey attack declared without the support in hand is a ``bluff``; a
        combination that brings a joker into play as a prestige card (``joker_prestige``) a
        ``prestige_joker``."""
        if isinstance(action, Combine):
            prestige = is_joker(action.result) and is_prestige(action.result)
            return ("prestige_joker",) if prestige else ()
        if not isinstance(action, Declare):
            return ()
        needed = support_value(value_of(action.attacker), value_of(action.target), action.reverse)
        held = needed and hand_cards(state.players[state.turn_player].hand, needed)
        return () if held else ("bluff",)

    def apply_legal(self, state: FanoState, action: FanoAction) -> FanoState:
        return rules.apply(state, action)

    def passive_action(self, state: FanoState) -> FanoAction | None:
        """The choice that commits nothing: ``allow`` in a counter window (or after the
        support is shown), ``keep`` at a mulligan or the 8-9-10 redraw, ``shuffle`` (no
        Temporary Joker) at a reshuffle, ``pass`` as the end action."""
        legal = rules.legal_actions(state)
        for action in PASSIVE_ACTIONS:
            if action in legal:
                return action
        return None

    def explain_illegal(self, state: FanoState, action: FanoAction) -> str:
        reason = rules.why_illegal(state, action)
        if reason is None:  # pragma: no cover - asked only about illegal actions
            return Refusal("game.is_legal", action=str(action))
        return reason

    # ------------------------------------------------------------------ notation
    def parse_action(self, text: str) -> FanoAction:
        return parse_action(text)

    def notation_help(self) -> str:
        return NOTATION_HELP

    def format_position(self, state: FanoState) -> str:
        return notation.format_position(state)

    def parse_position(self, text: str, config: FanoConfig | None = None) -> FanoState:
        return notation.parse_position(text, config)

    # ---------------------------------------------------------- hidden information
    def observe(self, state: FanoState, player: int) -> FanoView:
        return view.observe(state, player)

    def public_view(self, state: FanoState) -> JSONObject:
        return view.public_view(state)

    def sample_state(self, view_: FanoView, rng: random.Random) -> FanoState:
        return view.sample_state(view_, rng)

    # ------------------------------------------------------------------ rendering
    def choices_for(self, view_: FanoView, legal: Sequence[FanoAction]) -> list[Choice]:
        return choices.choices_for(view_, legal)

    def render(self, view_: FanoView) -> str:
        return render.render(view_)

    def drawing(self, view_: FanoView) -> Sequence[Sequence[str]]:
        return render.drawing(view_)

    def public_action_text(self, state: FanoState, action: FanoAction, observer: int | None) -> str:
        if observer == self.current_player(state):
            return str(action)
        if isinstance(action, Mulligan) and not action.take:
            return ""  # the others do not learn that a redraw was offered (D4)
        if isinstance(action, Discard):
            count = len(action.cards)
            return f"discard {count} card{'s' if count != 1 else ''} face down"
        if isinstance(action, Play) and action.face_down:
            return "play a card face down (Perfect defense)"
        if isinstance(action, Substitute) and action.face_down:
            # The removed card goes to the discard pile face up: only the new card is hidden.
            return f"sub {card_text(action.removed)} for a card face down (Perfect defense)"
        if isinstance(action, Sacrifice):
            return "sacrifice a face-down card instead"
        # A declaration names no support: the support is shown when it enters play.
        return str(action)

    def describe_action(
        self,
        state: FanoState,
        action: FanoAction,
        observer: int | None,
        after: FanoState | None = None,
    ) -> str:
        told = self.public_action_text(state, action, observer)
        if after is None:
            after = self.apply_legal(state, action)
        return words.describe(state, after, action, state.decider, observer, told)

    def action_highlight(
        self,
        state: FanoState,
        action: FanoAction,
        observer: int | None,
        after: FanoState | None = None,
    ) -> tuple[str, ...]:
        told = self.public_action_text(state, action, observer)
        if after is None:
            after = self.apply_legal(state, action)
        return words.highlight(state, after, action, observer, told)

    def reference_texts(self) -> Mapping[str, tuple[str, str]]:
        return {"plane": (Phrase("fano.plane_help"), render.plane_text())}

    def describe(self, state: FanoState) -> str:
        result = self.outcome(state)
        if result is not None:
            return game_over(self.ending_words(state) or result.reason)
        config = state.config
        seat = render.seat_label(config, state.turn_player)
        pending = state.pending
        if pending is not None:
            defender = render.seat_label(config, pending.defender)
            answer = (
                Phrase("fano.status_sacrifice", card=card_text(pending.support), defender=defender)
                if pending.support
                else Phrase("fano.status_counter", defender=defender)
            )
            return Phrase(
                "fano.status_attack",
                turn=state.turn,
                seat=seat,
                target=card_text(pending.target),
                attacker=card_text(pending.attacker),
                answer=answer,
            )
        foes = [render.seat_label(config, foe) for foe in rules.opponents(state, state.turn_player)]
        return Phrase(
            "fano.status",
            turn=state.turn,
            seat=seat,
            phase=Phrase(render.PHASE_CODES[state.phase]),
            target=joined(foes, "fano.status_or"),
        )

    def invariant_violations(self, state: FanoState) -> list[str]:
        return rules.invariant_violations(state)


#: The passive choices, in the order :meth:`FanoGame.passive_action` looks for them.
PASSIVE_ACTIONS: tuple[FanoAction, ...] = (Allow(), Mulligan(False), Shuffle(False), Pass())

_NOTATION_TEXT = """\
Fano moves (cards are rank then suit: AH 2H .. 9H TH; jokers JK, TJ; a joker in play JK4):
  4H>6S:3H           attack: your 4H in play attacks the next player's 6S, 3H from hand
  4H>3S:6H reverse   the same with Reverse Fano (special: the arrows turned round)
  1H+4H=5H           combine two cards in play for their sum from hand (both discarded)
  1H+4H=5H return 1H ... returning one of them to your hand
  5H+6H=9H oversum   Oversum (special): any card worth less than the sum
  3H+4H=JK7          a joker from hand enters play with the value you name
  promote 8H 9H TH   discard three prestige cards in play and promote your commander
  defend 5H          Perfect defense (special): 5H cannot be removed by opponents
  play 5H            end your turn by playing a combat card (play JK4 for a joker)
  sub 8H 5H          end your turn: 8H from play to the discard pile, then play 5H
  discard 8H 9H      end your turn discarding cards face down
  pass               end your turn
  mulligan / keep    all-prestige hand at the draw: redraw three, or keep it
  shuffle / shuffle joker   reshuffle your discard pile (with a Temporary Joker)
The Trionfey edition ("The battle for Trionfey") declares attacks and adds:
  4H>6S              declare an attack; the support (here 3H) is shown when it resolves, and
                     without it your 4H is discarded: a bluff is legal
  4H>6S@3            ... on Player 3 (with three players you choose whom to attack each turn)
  recruit 2H with AH 4H   AH and 4H in play bring 2H from hand (1, 2, 4 share a line)
  counter 3S+2S=5S   when your 3S is attacked: combine it with 2S for 5S, the attack turns on 5S
  counter 3S+4S=7S recruit 4S with AS 2S   recruit 4S first, then combine it with the 3S
  ... return 2S      a counter may return one combined card to hand, like a combine
  allow              no counter: the attacker must show the support
  Tribute specials (3 counters; one counter for each combine, substitute or face-down discard):
  joker              Spades: a joker face up on top of your draw pile (TJ; TJ4 in play)
  4H>3S reverse      Hearts: Reverse Fano for one attack
  5C+6C=9C oversum   Clubs: Oversum, any card worth less than the sum
  play 5D down       Diamonds: end your turn playing a card face down; it can not be attacked
  sub 8D 5D down     ... or substituting it face down (the substitute's counter helps pay)
  flip 5D            turn it face up (your main phase, or when your card is attacked)
  sacrifice 5D       the attack's support was shown: discard 5D face down instead
Type 'plane' to see the Fano plane and every attack."""
phrases({"fano.notation_help": _NOTATION_TEXT}, terminal=True)
#: How to write Fano's moves (the terminal words it in its language; the notation stays).
NOTATION_HELP = Phrase("fano.notation_help")
