"""Fano's yardstick ladder: strong fast players of different styles to measure the bots by.

Each member is the agent ``ladder`` with a style (:mod:`.styles`): its own turn searched
whole (every sequence of attacks, combines, recruits, promotions and specials, each closed by
every end action), each position where the turn ends judged by a learned evaluation (a
logistic regression over features of the cards, fitted on self-play: :mod:`.model`,
:mod:`.features`), reading only what its seat may know (:mod:`.search`). The decision runs in
compiled code on the fast path's array state (:mod:`.kernels`, a few milliseconds a
decision), tested equal decision by decision to its Python twin (:mod:`.search`), which plays
the variants the fast path does not cover.

:data:`MEMBERS` lists the ladder; ``benchmarks/ladder.py`` measures it against the yardstick
``planner(deals=1, nodes=20)``, ``medium`` and ``hard``; ``docs/agents.md`` has the table.
"""

from __future__ import annotations

from fanfold.agents.ladder.styles import Style

#: The ladder's members as agent texts, the balanced player first.
MEMBERS: tuple[str, ...] = tuple(
    "ladder" if style is Style.BALANCED else f"ladder(style={style.value})" for style in Style
)

__all__ = ["MEMBERS", "Style"]
