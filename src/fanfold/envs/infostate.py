"""The information-state tensor: a seat's view and a bounded window of what it was told.

OpenSpiel's learning algorithms (NFSP, Deep CFR, R-NaD, DQN through ``rl_environment``) read
``state.information_state_tensor(player)``, a vector of one fixed length for the game. The
perfect-recall information state (``information_state_string``) grows with the game, so the
tensor keeps what a network can use in a fixed size:

* ``observation``: the seat's observation tensor (its encoding's layout: where each card the
  seat knows of lies, its hand, the public counts, the turn and phase), the present;
* ``actions_told``: how many actions since the deal (or the start position) the seat was told
  of, older ones included;
* a window of the last ``window`` actions the seat was told of, latest first (row 0): the
  acting seat counted from the observer (``history_seat``); the action's index in the
  encoding's action table (relative to the actor), as a one-hot over the table
  (``history_action``) or, for a table of more than :data:`ONE_HOT_ACTIONS` indices, as two
  one-hots, the index's quotient and remainder by ``base`` (``history_action_high`` and
  ``history_action_low``; ``base`` is the table's size's square root, rounded up); and
  ``history_hidden``, 1 where the seat was told only that an action of some kind was taken
  (a Fano face-down discard, play, substitute or sacrifice: no index then). An action the
  seat is told nothing of (a Fano redraw declined by another seat) takes no row.

What it loses against the information-state string: actions older than the window (their
effects stay in the view: the cards played, the counts), and of an action told in part what
was told (the discard's count, a face-down substitute's removed card; the view shows the
counts and the removed card). Where no game is longer than the window it is exact for the
games whose views follow from the actions: a Morris or Fan patience game (every action is
told in full, and the start is known) and one Fan Tan hand (the seat's first hand is its hand
now and the cards it played, the rest is public). A Fano game draws cards the view after each
action shows and the tensor only at the end, and a Fan Tan match deals new hands: there two
games with the same tensor may still differ in what the seat saw on the way.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from fanfold.envs.encoding import Encoding
from fanfold.envs.layout import Block, FloatArray, Layout

#: Action tables up to this size are one-hot in the window; larger ones as two one-hots.
ONE_HOT_ACTIONS = 64
#: The window's rows where neither the game nor the caller sets another: the game's longest
#: length where that is shorter.
DEFAULT_WINDOW = 16

#: One action the seat was told of: the acting seat and the action's index, or ``None`` when
#: the seat was told only that the actor took an action of some kind.
Told = tuple[int, int | None]


def action_base(actions: int) -> int | None:
    """The base a table of ``actions`` indices is written in by the window (``None``: one-hot)."""
    if actions <= ONE_HOT_ACTIONS:
        return None
    return math.isqrt(actions - 1) + 1


def information_state_layout(encoding: Encoding, window: int) -> Layout:
    """The information-state tensor's blocks for ``encoding`` and a window of ``window`` rows."""
    players, actions = encoding.players, encoding.num_actions
    base = action_base(actions)
    rows = f"told action (row 0 the latest of the last {window})"
    blocks = [
        Block(
            "observation",
            (encoding.layout.size,),
            "my observation tensor (the observation layout's blocks, in order)",
            low=min(block.low for block in encoding.layout.blocks),
            high=max(block.high for block in encoding.layout.blocks),
        ),
        Block(
            "actions_told",
            (1,),
            "actions I was told of since the deal, older ones too",
            high=math.inf,
        ),
        Block("history_seat", (window, players), f"{rows} x seat (0 me): 1 at who acted"),
    ]
    if base is None:
        blocks.append(
            Block("history_action", (window, actions), f"{rows} x action index: 1 at its index")
        )
    else:
        blocks += [
            Block(
                "history_action_high",
                (window, (actions - 1) // base + 1),
                f"{rows} x (action index // {base}): 1 there",
            ),
            Block(
                "history_action_low",
                (window, base),
                f"{rows} x (action index % {base}): 1 there",
            ),
        ]
    blocks.append(
        Block("history_hidden", (window,), f"{rows}: 1 where I was told only that one was taken")
    )
    return Layout(tuple(blocks))


def fill_history(
    blocks: dict[str, FloatArray], told: Sequence[Told], observer: int, players: int
) -> None:
    """Write the told actions (oldest first) into the (zeroed) window blocks, latest first,
    seats counted from ``observer``."""
    blocks["actions_told"][0] = len(told)
    window = blocks["history_seat"].shape[0]
    action = blocks.get("history_action")
    high, low = blocks.get("history_action_high"), blocks.get("history_action_low")
    base = None if low is None else low.shape[1]
    for row, (seat, index) in enumerate(reversed(told[-window:] if window else ())):
        blocks["history_seat"][row, (seat - observer) % players] = 1.0
        if index is None:
            blocks["history_hidden"][row] = 1.0
        elif action is not None:
            action[row, index] = 1.0
        elif high is not None and low is not None and base is not None:
            high[row, index // base] = 1.0
            low[row, index % base] = 1.0
