"""Fan patience's environment stepping at compiled speed: the Numba kernels.

Many tables of one Fan variant live in plain arrays (:mod:`fanfold.envs.fan_stepping` makes
them and drives these kernels; import that module, not this one, which loads Numba):

* ``fans[table, fan, position]``: each fan's card indices bottom to top (``suit * 13 + rank -
  1``, suits C, D, H, S), ``lengths[table, fan]`` how many it holds;
* ``foundations[table, suit]``: the top rank home on each foundation (0 when empty);
* ``steps[table]``: the moves made this episode.

The rules are :mod:`fanfold.games.fan.rules`' (legal moves, a move, the end) and the
observation and action indices :class:`~fanfold.envs.fan.FanEncoding`'s; both are tested equal
to the Python path over many seeded episodes (``tests/envs/test_fan_stepping.py``). The deal
(PySolFC's, :func:`fanfold.games.fan.rules.new_state`) stays in Python.
"""

from __future__ import annotations

from numba import njit

from fanfold.core import numba_cache

numba_cache.install()

FANS = 18
#: Room for a fan's cards (a fan holds at most 15).
DEPTH = 16
KING = 13
#: Observation blocks' sizes: where (card x 19 places), then depth (card x 15 positions).
PLACES = FANS + 1
MAX_FAN = 15
WHERE_SIZE = 52 * PLACES


@njit(cache=True)
def _run_length(fans, lengths, i, fan):  # type: ignore[no-untyped-def]
    """:func:`fanfold.games.fan.rules.run_length` of fan ``fan`` at table ``i``."""
    size = lengths[i, fan]
    if size == 0:
        return 0
    length = 1
    while length < size:
        upper = fans[i, fan, size - length]
        lower = fans[i, fan, size - length - 1]
        if upper // 13 != lower // 13 or upper % 13 + 1 != lower % 13:
            break
        length += 1
    return length


@njit(cache=True)
def legal_mask(fans, lengths, foundations, i, sequences, any_to_empty, mask):  # type: ignore[no-untyped-def]
    """Write table ``i``'s legal moves into ``mask`` (the encoding's indices, zeroed first);
    returns how many there are (:func:`fanfold.games.fan.rules.legal_moves`)."""
    mask[:] = 0
    won = True
    for suit in range(4):
        if foundations[i, suit] != KING:
            won = False
    if won:
        return 0
    counts = KING if sequences else 1
    found = 0
    for source in range(FANS):
        size = lengths[i, source]
        if size == 0:
            continue
        top = fans[i, source, size - 1]
        if foundations[i, top // 13] + 1 == top % 13 + 1:
            mask[source] = 1
            found += 1
        longest = _run_length(fans, lengths, i, source) if sequences else 1
        for count in range(1, longest + 1):
            head = fans[i, source, size - count]
            for target in range(FANS):
                if target == source:
                    continue
                other = lengths[i, target]
                allowed = False
                if other:
                    below = fans[i, target, other - 1]
                    allowed = below // 13 == head // 13 and below % 13 == head % 13 + 1
                else:
                    allowed = count < size and (any_to_empty or head % 13 + 1 == KING)
                if allowed:
                    slot = target if target < source else target - 1
                    mask[FANS + (source * (FANS - 1) + slot) * counts + count - 1] = 1
                    found += 1
    return found


@njit(cache=True)
def apply_move(fans, lengths, foundations, steps, i, index, sequences):  # type: ignore[no-untyped-def]
    """:func:`fanfold.games.fan.rules.apply_move` of the legal move at action ``index``."""
    steps[i] += 1
    if index < FANS:
        size = lengths[i, index]
        card = fans[i, index, size - 1]
        lengths[i, index] = size - 1
        foundations[i, card // 13] = card % 13 + 1
        return
    counts = KING if sequences else 1
    number = index - FANS
    count = number % counts + 1
    number //= counts
    source = number // (FANS - 1)
    slot = number % (FANS - 1)
    target = slot if slot < source else slot + 1
    size = lengths[i, source]
    other = lengths[i, target]
    for k in range(count):
        fans[i, target, other + k] = fans[i, source, size - count + k]
    lengths[i, source] = size - count
    lengths[i, target] = other + count


@njit(cache=True)
def act(  # type: ignore[no-untyped-def]
    fans,
    lengths,
    foundations,
    steps,
    masks,
    which,
    actions,
    sequences,
    any_to_empty,
    max_steps,
    moves,
):
    """For each table ``which[k]``: the move at ``actions[k]`` (legal), then its legal moves
    into ``masks[which[k]]`` and their count into ``moves[which[k]]``; a table cut at
    ``max_steps`` (-1: never) with moves left gets an all-0 mask."""
    for k in range(which.shape[0]):
        i = which[k]
        apply_move(fans, lengths, foundations, steps, i, actions[k], sequences)
        moves[i] = legal_mask(fans, lengths, foundations, i, sequences, any_to_empty, masks[i])
        if moves[i] and max_steps >= 0 and steps[i] >= max_steps:
            masks[i, :] = 0


@njit(cache=True)
def observe(fans, lengths, foundations, which, rows, observations):  # type: ignore[no-untyped-def]
    """Write table ``which[k]``'s observation (:class:`FanEncoding`'s tensor) into
    ``observations[rows[k]]``."""
    for k in range(which.shape[0]):
        i = which[k]
        out = observations[rows[k]]
        out[:] = 0.0
        for fan in range(FANS):
            for position in range(lengths[i, fan]):
                card = fans[i, fan, position]
                out[card * PLACES + fan] = 1.0
                out[WHERE_SIZE + card * MAX_FAN + position] = 1.0
        for suit in range(4):
            for rank in range(foundations[i, suit]):
                out[(suit * KING + rank) * PLACES + FANS] = 1.0


@njit(cache=True)
def refresh(fans, lengths, foundations, masks, which, sequences, any_to_empty, moves):  # type: ignore[no-untyped-def]
    """Each table ``which[k]``'s legal moves into its mask and their count into ``moves``."""
    for k in range(which.shape[0]):
        i = which[k]
        moves[i] = legal_mask(fans, lengths, foundations, i, sequences, any_to_empty, masks[i])
