"""The ladder's styles: one search and evaluation, played in different ways.

Each style is the balanced player with its evaluation's weights scaled by feature group
and some decisions fixed (:class:`~fanfold.agents.ladder.search.Params`). The decisions a
style does not characterise are the balanced player's, so that every member is strong:

======== =============================================================================
style    how it plays
======== =============================================================================
balanced the learned evaluation as fitted
rush     rush promotions: its own road to a promotion counts half again, the threats
         against its cards and its attacks on the others half
defend   defend at any cost: the threats against its cards count two and a half times,
         and a Trionfey defender counters whenever it can
attack   attack: taking the others' cards and threatening them counts twice; with three
         or more players it declares on the weakest seat first
bluff    always bluff (Trionfey): a declaration without its support gains a bonus, so
         that it bluffs wherever a counter window opens
honest   never bluff (Trionfey): declarations only with the support in hand
call     always challenge (Trionfey): the defender never counters, it lets every attack
         through and makes the attacker show the support
counter  never challenge (Trionfey): the defender counters whenever it can
hoard    hoard tribute (Trionfey specials): never spends counters below the cap, and
         values each counter three times as much
======== =============================================================================
"""

from __future__ import annotations

import enum
from dataclasses import replace
from functools import cache

from fanfold.agents.ladder import features as f
from fanfold.agents.ladder.model import weights_for
from fanfold.agents.ladder.search import (
    BLUFF_ALWAYS,
    BLUFF_NEVER,
    REACT_ALLOW,
    REACT_COUNTER,
    Params,
)
from fanfold.games.fano.config import FanoConfig


class Style(enum.Enum):
    """A ladder member's style (see the module text)."""

    BALANCED = "balanced"
    RUSH = "rush"
    DEFEND = "defend"
    ATTACK = "attack"
    BLUFF = "bluff"
    HONEST = "honest"
    CALL = "call"
    COUNTER = "counter"
    HOARD = "hoard"


#: The seat's own road to a promotion, its promotions with it (a promotion must stay worth
#: more than the prestige cards it spends).
PROGRESS = (
    f.M_LT1,
    f.M_LT2,
    f.M_PR1,
    f.M_PR2,
    f.M_READY,
    f.M_READY_SAFE,
    f.M_READY_P2,
    f.M_PAIR,
    f.M_PIN,
    f.M_HALF,
    f.M_USEFUL,
)
#: The threats against the seat's cards.
EXPOSURE = (f.M_EXP, f.M_EXP_PAIR)
#: The seat's attacks: its threats, and the others' cards and pairs it leaves them.
AGGRESSION = (f.M_THREAT, f.M_THREAT_PAIR, f.O_COMBAT, f.O_USEFUL, f.O_READY, f.O_READY_P2)

#: Each style's weight scales by group.
_SCALES: dict[Style, dict[tuple[int, ...], float]] = {
    Style.RUSH: {PROGRESS: 1.5, EXPOSURE: 0.5, AGGRESSION: 0.5},
    Style.DEFEND: {EXPOSURE: 2.5},
    Style.ATTACK: {AGGRESSION: 2.0},
}


@cache
def params(style: Style, config: FanoConfig, nodes: int = 300) -> Params:
    """How a member of ``style`` decides in ``config``'s edition."""
    weights = list(weights_for(config))
    for group, scale in _SCALES.get(style, {}).items():
        for index in group:
            weights[index] *= scale
    if style is Style.HOARD:
        weights[f.M_TRIBUTE] = 3.0 * max(weights[f.M_TRIBUTE], 0.25)
    made = Params(tuple(weights), nodes=nodes)
    if style is Style.DEFEND or style is Style.COUNTER:
        return replace(made, react=REACT_COUNTER)
    if style is Style.CALL:
        return replace(made, react=REACT_ALLOW)
    if style is Style.BLUFF:
        return replace(made, bluff=BLUFF_ALWAYS, bluff_bonus=0.3)
    if style is Style.HONEST:
        return replace(made, bluff=BLUFF_NEVER)
    if style is Style.ATTACK:
        return replace(made, weakest=0.5)
    if style is Style.HOARD:
        return replace(made, hoard=True)
    return made
