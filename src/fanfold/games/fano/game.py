"""The Fano game object: the core game API over the rules, notation and views."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import ClassVar

from fanfold.core.config import GameConfig
from fanfold.core.errors import ConfigError
from fanfold.core.game import Game, Outcome, Preset
from fanfold.games.fano import actions as actions_module
from fanfold.games.fano import notation, render, rules, view
from fanfold.games.fano.actions import (
    Allow,
    Attack,
    Combine,
    CombineCounter,
    Declare,
    Defend,
    Discard,
    FanoAction,
    Flip,
    Mulligan,
    PlaceJoker,
    Play,
    Promote,
    Recruit,
    Sacrifice,
    Shuffle,
    Substitute,
)
from fanfold.games.fano.cards import (
    ATTACK_SUPPORT,
    LINE_THIRD,
    MAX_COMBAT,
    base_card,
    card_text,
    is_joker,
    value_of,
)
from fanfold.games.fano.config import PRESETS, TEAM_PLAYERS, FanoConfig, Special, Teams
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

    def presets(self) -> Sequence[Preset[FanoConfig]]:
        return PRESETS

    def num_players(self, config: FanoConfig) -> int:
        return config.players

    def seat_name(self, config: FanoConfig, seat: int) -> str:
        return render.seat_label(config, seat)

    def with_players(self, config: FanoConfig, players: int) -> FanoConfig:
        if config.two_suit and players != 2:
            raise ConfigError("the 2-suit variant is for exactly 2 players")
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

    def is_legal(self, state: FanoState, action: FanoAction) -> bool:
        return rules.is_legal(state, action)

    def apply_legal(self, state: FanoState, action: FanoAction) -> FanoState:
        return rules.apply(state, action)

    def explain_illegal(self, state: FanoState, action: FanoAction) -> str:
        return _explain(state, action)

    # ------------------------------------------------------------------ notation
    def parse_action(self, text: str) -> FanoAction:
        return actions_module.parse_action(text)

    def notation_help(self) -> str:
        return NOTATION_HELP

    def format_position(self, state: FanoState) -> str:
        return notation.format_position(state)

    def parse_position(self, text: str, config: FanoConfig | None = None) -> FanoState:
        return notation.parse_position(text, config)

    # ---------------------------------------------------------- hidden information
    def observe(self, state: FanoState, player: int) -> FanoView:
        return view.observe(state, player)

    def sample_state(self, view_: FanoView, rng: random.Random) -> FanoState:
        return view.sample_state(view_, rng)

    # ------------------------------------------------------------------ rendering
    def render(self, view_: FanoView) -> str:
        return render.render(view_)

    def public_action_text(self, state: FanoState, action: FanoAction, observer: int | None) -> str:
        if observer == self.current_player(state):
            return str(action)
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

    def reference_texts(self) -> Mapping[str, tuple[str, str]]:
        return {"plane": ("draw the Fano plane with every attack arrow", render.plane_text())}

    def describe(self, state: FanoState) -> str:
        result = self.outcome(state)
        if result is not None:
            return f"Game over: {result.reason}"
        config = state.config
        seat = render.seat_label(config, state.turn_player)
        pending = state.pending
        if pending is not None:
            defender = render.seat_label(config, pending.defender)
            answer = (
                f"the support {card_text(pending.support)} is shown; {defender} may sacrifice "
                "a face-down card or allow"
                if pending.support
                else f"{defender} may counter or allow"
            )
            return (
                f"Turn {state.turn}: {seat} attacks {card_text(pending.target)} with "
                f"{card_text(pending.attacker)}; {answer}"
            )
        foes = rules.opponents(state, state.turn_player)
        target = " or ".join(render.seat_label(config, foe) for foe in foes)
        return f"Turn {state.turn}: {seat}, {render.PHASE_TEXT[state.phase]}; attacks {target}"

    def invariant_violations(self, state: FanoState) -> list[str]:
        return rules.invariant_violations(state)


NOTATION_HELP = """\
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


_SPECIAL_SPENT = "not your special, or you used a special at this commander level"


def _explain(state: FanoState, action: FanoAction) -> str:
    """Why ``action`` is not legal here, in a player's words."""
    if rules.outcome(state) is not None:
        return "the game is over"
    phase = state.phase
    if phase is Phase.MULLIGAN and not isinstance(action, Mulligan):
        return "your hand is all prestige cards: answer 'mulligan' or 'keep' first"
    if phase in (Phase.DRAW_SHUFFLE, Phase.SHUFFLE) and not isinstance(action, Shuffle):
        return "your draw pile is empty: answer 'shuffle' or 'shuffle joker' first"
    if phase is Phase.REACT:
        return _explain_react(state, action)
    if isinstance(action, CombineCounter | Allow):
        return "counters and 'allow' answer an attack declared on one of your cards"
    if isinstance(action, Mulligan):
        return "a mulligan is only offered in the draw phase when the hand is all prestige"
    if isinstance(action, Shuffle):
        return "there is no reshuffle to decide now"
    seat = state.turn_player
    config = state.config
    me = state.players[seat]
    target_seat = state.target_of(seat)
    opponent = state.players[target_seat]
    hand = {base_card(card) for card in me.hand}
    main_only = (Attack, Combine, Promote, Defend, Declare, Recruit)
    if phase is Phase.END and isinstance(action, main_only):
        return "you promoted, which ends the main phase: play, sub, discard or pass"
    if config.trionfey and isinstance(action, Attack):
        return (
            "in the Trionfey edition you declare an attack without naming the support: "
            f"{card_text(action.attacker)}>{card_text(action.target)}"
        )
    if not config.trionfey and isinstance(action, Declare | Recruit):
        what = (
            "attacks name their support, e.g. 4H>6S:3H"
            if isinstance(action, Declare)
            else ("there is no recruit")
        )
        return f"in the classic edition {what}"
    if isinstance(action, Declare):
        return _explain_declare(state, action)
    if isinstance(action, Recruit):
        return _explain_recruit(state, action)
    if isinstance(action, PlaceJoker | Flip | Sacrifice) or (
        isinstance(action, Play | Substitute) and action.face_down
    ):
        return _explain_special(state, action)
    if isinstance(action, Defend) and config.trionfey:
        return "the Trionfey edition's Perfect defense plays a card face down at the end of turn"
    if isinstance(action, Attack):
        if action.attacker not in me.field:
            return f"you have no {card_text(action.attacker)} in play"
        if value_of(action.attacker) > MAX_COMBAT:
            return "prestige cards can not attack"
        if action.target not in opponent.field:
            target = card_text(action.target)
            return f"Player {target_seat + 1} (the player you attack) has no {target} in play"
        if value_of(action.target) > MAX_COMBAT:
            return "prestige cards can not be attacked"
        if action.target in opponent.protected:
            return f"{card_text(action.target)} has Perfect defense and can not be removed"
        if base_card(action.support) not in hand:
            return f"you have no {card_text(base_card(action.support))} in hand"
        a, x = value_of(action.attacker), value_of(action.target)
        if action.reverse:
            if not rules.can_use(config, me, seat, Special.REVERSE):
                return f"you can not use Reverse Fano now ({_SPECIAL_SPENT})"
            needed = LINE_THIRD[a][x] if not ATTACK_SUPPORT[a][x] else 0
        else:
            needed = ATTACK_SUPPORT[a][x]
        if not needed:
            way = (
                "even reversed"
                if action.reverse
                else f"({x} attacks {a} instead)"
                if ATTACK_SUPPORT[x][a]
                else ""
            )
            return f"a {a} can not attack a {x} {way}".rstrip()
        return f"{a} -> {x} needs a {needed} in hand as support, not {card_text(action.support)}"
    if isinstance(action, Combine):
        for card in (action.first, action.second):
            if card not in me.field:
                return f"you have no {card_text(card)} in play"
        if base_card(action.result) not in hand:
            return f"you have no {card_text(base_card(action.result))} in hand"
        total = value_of(action.first) + value_of(action.second)
        if action.oversum:
            if not rules.can_use(config, me, seat, Special.OVERSUM):
                if config.trionfey:
                    return "Oversum is the Clubs tribute special (3 tribute counters)"
                return f"you can not use Oversum now ({_SPECIAL_SPENT})"
            if config.oversum_prestige_only and value_of(action.result) < 8:
                return "Oversum may only make a prestige card in this variant"
            return f"Oversum needs a card worth less than {total}"
        if is_joker(action.result):
            return f"a joker can only be a combat card (1-7) declared as the sum {total}"
        pair = f"{card_text(action.first)} + {card_text(action.second)}"
        return f"{pair} = {total}, not {value_of(action.result)}"
    if isinstance(action, Promote):
        if action.owners and config.teams is not Teams.ONE_FOR_ALL:
            return 'only in a "One for all" partnership may partners\' cards pay a promotion'
        if any(
            owner is not None and owner not in rules.teammates(config, seat)
            for owner in action.owners
        ):
            return "a promotion is paid only from your own and your partners' fields"
        return "promoting needs three prestige cards in play (8, 9 and 10; see the variant)"
    if isinstance(action, Defend):
        if not rules.can_use(config, me, seat, Special.DEFENSE):
            return f"you can not use Perfect defense now ({_SPECIAL_SPENT})"
        return "Perfect defense goes on one of your combat cards in play"
    if isinstance(action, Play | Substitute):
        card = action.card
        if isinstance(action, Substitute) and action.removed not in me.field:
            return f"you have no {card_text(action.removed)} in play"
        if base_card(card) not in hand:
            return f"you have no {card_text(base_card(card))} in hand"
        if value_of(card) > MAX_COMBAT:
            return "prestige cards can only enter play by combination"
        if is_joker(card) and not value_of(card):
            return "name the joker's value when you play it, e.g. play JK4"
        if isinstance(action, Play):
            return "your four field slots are full: use sub to replace a card"
    if isinstance(action, Discard):
        missing = [card_text(card) for card in action.cards if card not in me.hand]
        if missing:
            return f"you do not hold {', '.join(missing)}"
    return f"{action} is not a legal move here; type 'legal' to list the legal moves"


_LEGAL_HINT = "; type 'legal' to list the legal moves"


def _explain_declare(state: FanoState, action: Declare) -> str:
    seat = state.turn_player
    me = state.players[seat]
    foes = rules.opponents(state, seat)
    if len(state.players) > 2 and action.seat is None:
        return f"name the player you attack: {action}@{foes[0] + 1}"
    foe = action.seat if action.seat is not None else state.target_of(seat)
    if len(state.players) == 2 and action.seat is not None:
        return f"with two players write the attack without @: {card_text(action.attacker)}>" + (
            card_text(action.target)
        )
    if foe not in foes:
        if foe == seat or not 0 <= foe < len(state.players):
            return "attack one of your opponents"
        return f"this turn you attack Player {foes[0] + 1} only (one opponent per turn)"
    if action.attacker not in me.field:
        return f"you have no {card_text(action.attacker)} in play"
    if action.attacker in me.hidden:
        return f"{card_text(action.attacker)} lies face down: flip it first"
    if value_of(action.attacker) > MAX_COMBAT:
        return "prestige cards can not attack"
    opponent = state.players[foe]
    if action.target not in opponent.field:
        return f"Player {foe + 1} has no {card_text(action.target)} in play"
    if value_of(action.target) > MAX_COMBAT:
        return "prestige cards can not be attacked"
    a, x = value_of(action.attacker), value_of(action.target)
    if action.reverse:
        if not rules.can_use(state.config, me, seat, Special.REVERSE):
            return "Reverse Fano needs the Hearts tribute special and three tribute counters"
        if not rules.support_value(a, x, True):
            return f"reversed, a {a} can attack only what attacks it normally; a {a} attacks {x}"
    if not rules.support_value(a, x, action.reverse):
        return f"a {a} can not attack a {x}" + (
            f" ({x} attacks {a} instead)" if ATTACK_SUPPORT[x][a] else ""
        )
    return f"{action} is not a legal move here" + _LEGAL_HINT


def _explain_special(state: FanoState, action: FanoAction) -> str:
    config = state.config
    seat = state.decider
    me = state.players[seat]
    if not config.trionfey:
        return "that belongs to the Trionfey edition's tribute specials"
    if isinstance(action, Flip):
        if action.card not in me.hidden:
            return f"you have no face-down {card_text(action.card)} in play"
        return "flip a face-down card in your main phase or when your card is attacked"
    if isinstance(action, Sacrifice):
        return "a face-down card is sacrificed only after an attack on you shows its support"
    special = Special.TEMP_JOKER if isinstance(action, PlaceJoker) else Special.DEFENSE
    if not config.tribute:
        return "this game is played without the tribute specials"
    if isinstance(action, Substitute):
        if not rules.can_substitute_down(config, me, seat):
            return (
                "that is not your suit's special, or you have too few tribute counters "
                f"({rules.TRIBUTE_COST}, counting the one the substitute earns)"
            )
        if action.removed not in me.field:
            return f"you have no {card_text(action.removed)} in play"
        return "substitute a combat card (not a joker) from hand face down for a card in play"
    if not rules.can_use(config, me, seat, special):
        return f"that is not your suit's special, or you have fewer than {rules.TRIBUTE_COST} " + (
            "tribute counters"
        )
    if isinstance(action, PlaceJoker):
        if state.phase is not Phase.MAIN:
            return "a joker is placed in your main phase"
        return f"at most {rules.JOKER_SUPPLY} jokers are in the game at a time"
    return "play a combat card (not a joker) from hand face down into an empty slot"


def _explain_recruit(state: FanoState, action: Recruit) -> str:
    me = state.players[state.turn_player]
    for card in (action.first, action.second):
        if card not in me.field:
            return f"you have no {card_text(card)} in play"
        if card in me.hidden:
            return f"{card_text(card)} lies face down: flip it first"
    if base_card(action.card) not in me.hand:
        return f"you have no {card_text(base_card(action.card))} in hand"
    values = [value_of(card) for card in (action.first, action.second, action.card)]
    if len(set(values)) != 3 or LINE_THIRD[values[0]][values[1]] != values[2]:
        return "a recruit needs three different values on one line of the Fano plane ('plane')"
    if len(me.field) >= rules.FIELD_SLOTS:
        return "your four field slots are full"
    return f"{action} is not a legal move here" + _LEGAL_HINT


def _explain_react(state: FanoState, action: FanoAction) -> str:
    pending = state.pending
    if pending is None:  # pragma: no cover - the react phase always has an attack
        return "there is no attack to answer"
    attack = f"{card_text(pending.attacker)} attacks your {card_text(pending.target)}"
    me = state.players[pending.defender]
    if pending.support:
        if isinstance(action, Sacrifice) and action.card not in me.hidden:
            return f"you have no face-down {card_text(action.card)} in play"
        return (
            f"{attack} and showed {card_text(pending.support)}: answer 'allow' or sacrifice "
            "a face-down card" + _LEGAL_HINT
        )
    if isinstance(action, Sacrifice):
        return "a face-down card is sacrificed only once the attack's support is shown"
    if isinstance(action, Flip):
        return f"you have no face-down {card_text(action.card)} in play"
    if not isinstance(action, CombineCounter | Allow):
        return f"{attack}: answer with a counter or 'allow'" + _LEGAL_HINT
    if isinstance(action, CombineCounter):
        if pending.target not in (action.first, action.second):
            return f"a counter combines the attacked {card_text(pending.target)} with another card"
        if base_card(action.result) not in me.hand:
            return f"you have no {card_text(base_card(action.result))} in hand"
        if value_of(action.first) + value_of(action.second) > MAX_COMBAT:
            return "a counter makes a combat card (1-7)"
        if value_of(action.first) + value_of(action.second) != value_of(action.result):
            return f"{card_text(action.first)} + {card_text(action.second)} is not " + (
                card_text(action.result)
            )
    return f"{action} is not a legal answer here" + _LEGAL_HINT
