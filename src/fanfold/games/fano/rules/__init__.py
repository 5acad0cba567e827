"""The Fano rules: dealing, legal actions, applying actions, the end of the game.

Everything the rules decide is decided here, once, for both editions (rules texts: seeds/000,
classic edition, and seeds/001, "The battle for Trionfey"; readings of open points:
``docs/rules/fano.md``). The edition is read from the config: the Trionfey edition declares
attacks (the support is shown when the attack resolves, so a bluff is legal), gives the
defender a counter window (phase ``react``, decided by the defender), adds recruit, and
redraws only a hand of 8, 9 and 10.

One job per module, each importing only those before it:

* :mod:`.zones`: the small immutable edits that move cards between a player's places;
* :mod:`.specials`: who may use which special, and paying for it;
* :mod:`.deck`: decks, drawing, reshuffles and the draw-phase redraw;
* :mod:`.turns`: the deal, turn order, partnerships, the turn limit and the outcome;
* :mod:`.attacks`: attack directions and supports, counters, resolving an attack;
* :mod:`.moves`: the legal actions;
* :mod:`.legality`: why an action is illegal, from the checks the moves are made with;
* :mod:`.apply`: the state after an action;
* :mod:`.invariants`: what every reachable state keeps.
"""

from fanfold.games.fano.rules.apply import apply
from fanfold.games.fano.rules.attacks import support_value, window_opens
from fanfold.games.fano.rules.deck import HAND_SIZE, deck_of, draw_to_three, mulligan_offered
from fanfold.games.fano.rules.invariants import invariant_violations
from fanfold.games.fano.rules.legality import why_illegal
from fanfold.games.fano.rules.moves import (
    clear_caches,
    is_legal,
    legal_actions,
    promotion_sets,
)
from fanfold.games.fano.rules.specials import (
    JOKER_SUPPLY,
    TRIBUTE_CAP,
    TRIBUTE_COST,
    can_substitute_down,
    can_use,
    specials_of,
)
from fanfold.games.fano.rules.turns import (
    ending_words,
    new_state,
    next_turn,
    opponents,
    outcome,
    outcome_of,
    start_turn,
    teammates,
    winner,
)
from fanfold.games.fano.rules.zones import FIELD_SLOTS

__all__ = [
    "FIELD_SLOTS",
    "HAND_SIZE",
    "JOKER_SUPPLY",
    "TRIBUTE_CAP",
    "TRIBUTE_COST",
    "apply",
    "can_substitute_down",
    "can_use",
    "clear_caches",
    "deck_of",
    "draw_to_three",
    "ending_words",
    "invariant_violations",
    "is_legal",
    "legal_actions",
    "mulligan_offered",
    "new_state",
    "next_turn",
    "opponents",
    "outcome",
    "outcome_of",
    "promotion_sets",
    "specials_of",
    "start_turn",
    "support_value",
    "teammates",
    "why_illegal",
    "window_opens",
    "winner",
]
