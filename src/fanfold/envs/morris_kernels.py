"""Fano330-R-Morris environment stepping at compiled speed: the Numba kernels.

Many tables of one Morris variant live in plain arrays (:mod:`fanfold.envs.morris_stepping`
makes them and drives these kernels; import that module, not this one, which loads Numba):

* ``board[table, point, level]``: each point's stack bottom to top as piece codes (0 a white
  circle, 1 a white triangle, 2 a black circle, 3 a black triangle: colour ``code // 2``,
  shape ``code % 2``), ``heights[table, point]`` how many it holds;
* ``scal[table, column]``: the side to move, whether the position repeated (drawn), the
  actions played and how many positions the repetition rule remembers (``S_*``);
* ``seen[table, n]``: those positions, each as one number (:func:`position_key`);
* ``rng[table, seat]``: the random bot's generator, Python's own
  (:mod:`fanfold.envs.fantan_kernels`).

The rules are :mod:`fanfold.games.morris.rules`' and the observation and action indices
:class:`~fanfold.envs.morris.MorrisEncoding`'s; both are tested equal to the Python path over
many seeded episodes (``tests/envs/test_morris_stepping.py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fanfold.core import numba_cache
from fanfold.envs.fantan_kernels import mt_below, mt_seed_int

numba_cache.install()

POINTS = 7
PLACEMENTS = 14
PIECES = 8  # pieces in the game: two of each shape for each side
#: The lines of the Fano plane (points from 0).
LINES = np.array(
    [[0, 1, 3], [4, 1, 2], [2, 3, 5], [5, 0, 4], [1, 6, 5], [3, 6, 4], [0, 6, 2]], dtype=np.int64
)

S_TO_MOVE = 0
S_DRAWN = 1
S_STEPS = 2
S_SEEN = 3
S_COLUMNS = 4


@njit(cache=True)
def position_key(board, heights, i, side):  # type: ignore[no-untyped-def]
    """The position (board and side to move) as one number, for the repetition rule."""
    key = 0
    for point in range(POINTS - 1, -1, -1):
        height = heights[i, point]
        if height == 0:
            code = 0
        elif height == 1:
            code = 1 + board[i, point, 0]
        else:
            code = 5 + 4 * board[i, point, 0] + board[i, point, 1]
        key = key * 21 + code
    return key * 2 + side


@njit(cache=True)
def losing_line(board, heights, i):  # type: ignore[no-untyped-def]
    """Whether a line's three tops share a colour or a shape."""
    for line in range(LINES.shape[0]):
        a, b, c = LINES[line, 0], LINES[line, 1], LINES[line, 2]
        if heights[i, a] and heights[i, b] and heights[i, c]:
            x = board[i, a, heights[i, a] - 1]
            y = board[i, b, heights[i, b] - 1]
            z = board[i, c, heights[i, c] - 1]
            if (x % 2 == y % 2 and y % 2 == z % 2) or (x // 2 == y // 2 and y // 2 == z // 2):
                return True
    return False


@njit(cache=True)
def _can_stack(board, heights, i, point, piece):  # type: ignore[no-untyped-def]
    height = heights[i, point]
    return height < 2 and (height == 0 or board[i, point, height - 1] != piece)


@njit(cache=True)
def moves_mask(board, heights, pairs, i, side, mask):  # type: ignore[no-untyped-def]
    """Write ``side``'s legal actions at table ``i`` into ``mask`` (zeroed first, the
    encoding's indices); returns how many (:func:`fanfold.games.morris.rules._moves`)."""
    mask[:] = 0
    placed = 0
    for point in range(POINTS):
        placed += heights[i, point]
    found = 0
    if placed < PIECES:
        for shape in range(2):
            piece = side * 2 + shape
            left = 2
            for point in range(POINTS):
                for level in range(heights[i, point]):
                    if board[i, point, level] == piece:
                        left -= 1
            if left > 0:
                for point in range(POINTS):
                    if _can_stack(board, heights, i, point, piece):
                        mask[shape * POINTS + point] = 1
                        found += 1
        return found
    for n in range(pairs.shape[0]):
        source = pairs[n, 0]
        height = heights[i, source]
        if (
            height
            and board[i, source, height - 1] // 2 == side
            and _can_stack(board, heights, i, pairs[n, 1], board[i, source, height - 1])
        ):
            mask[PLACEMENTS + n] = 1
            found += 1
    return found


@njit(cache=True)
def is_over(board, heights, pairs, scal, i, scratch):  # type: ignore[no-untyped-def]
    """:func:`fanfold.games.morris.rules.outcome` is not ``None``: a line, a repetition, or
    no move at the start of a movement turn."""
    if losing_line(board, heights, i) or scal[i, S_DRAWN]:
        return True
    return moves_mask(board, heights, pairs, i, scal[i, S_TO_MOVE], scratch) == 0 and (
        heights[i].sum() >= PIECES
    )


@njit(cache=True)
def apply_action(board, heights, pairs, scal, seen, i, index):  # type: ignore[no-untyped-def]
    """:func:`fanfold.games.morris.rules.apply` of the legal action at ``index``."""
    side = scal[i, S_TO_MOVE]
    scal[i, S_STEPS] += 1
    if index < PLACEMENTS:
        point = index % POINTS
        board[i, point, heights[i, point]] = side * 2 + index // POINTS
        heights[i, point] += 1
        scal[i, S_TO_MOVE] = 1 - side
        return
    seen[i, scal[i, S_SEEN]] = position_key(board, heights, i, side)
    scal[i, S_SEEN] += 1
    source = pairs[index - PLACEMENTS, 0]
    target = pairs[index - PLACEMENTS, 1]
    heights[i, source] -= 1
    board[i, target, heights[i, target]] = board[i, source, heights[i, source]]
    heights[i, target] += 1
    scal[i, S_TO_MOVE] = 1 - side
    key = position_key(board, heights, i, 1 - side)
    for n in range(scal[i, S_SEEN]):
        if seen[i, n] == key:
            scal[i, S_DRAWN] = 1
            return


#: ``learner`` in self-play: both sides decide through the caller, neither is a bot.
EVERY_SEAT = -1


@njit(cache=True)
def play_bots(board, heights, pairs, scal, seen, rng, i, learner, max_steps, scratch):  # type: ignore[no-untyped-def]
    """The random bot plays until the learner decides (in self-play, at once), the game ends
    or the step limit (``max_steps``, -1: none) is reached; it draws
    ``legal[randrange(len(legal))]``."""
    while max_steps < 0 or scal[i, S_STEPS] < max_steps:
        side = scal[i, S_TO_MOVE]
        if learner == EVERY_SEAT or side == learner:
            return
        if is_over(board, heights, pairs, scal, i, scratch):
            return
        count = moves_mask(board, heights, pairs, i, side, scratch)
        choice = mt_below(rng[i, side], count)
        for index in range(scratch.shape[0]):
            if scratch[index]:
                if choice == 0:
                    apply_action(board, heights, pairs, scal, seen, i, index)
                    break
                choice -= 1


@njit(cache=True)
def start(board, heights, pairs, scal, seen, rng, which, seeds, learner, max_steps, scratch):  # type: ignore[no-untyped-def]
    """An empty board at each table ``which[k]``, its bot seat ``n`` seeded with
    ``seeds[k] + n`` (as the environment seeds its agents), the bot playing up to the learner."""
    for k in range(which.shape[0]):
        i = which[k]
        heights[i, :] = 0
        scal[i, :] = 0
        if learner != EVERY_SEAT:
            mt_seed_int(rng[i, 1 - learner], seeds[k] + 1 - learner)
        play_bots(board, heights, pairs, scal, seen, rng, i, learner, max_steps, scratch)


@njit(cache=True)
def act(board, heights, pairs, scal, seen, rng, which, actions, learner, max_steps, scratch):  # type: ignore[no-untyped-def]
    """For each table ``which[k]``: the learner's legal action ``actions[k]``, then the bot's."""
    for k in range(which.shape[0]):
        i = which[k]
        apply_action(board, heights, pairs, scal, seen, i, actions[k])
        play_bots(board, heights, pairs, scal, seen, rng, i, learner, max_steps, scratch)


@njit(cache=True)
def observe(  # type: ignore[no-untyped-def]
    board, heights, pairs, scal, which, rows, observations, masks, seats, max_steps, over
):
    """Write table ``which[k]``'s observation for seat ``seats[k]`` (:class:`MorrisEncoding`'s
    tensor) and that seat's mask into row ``rows[k]``, and whether its game is over into
    ``over[k]``."""
    for k in range(which.shape[0]):
        me = seats[k]
        i = which[k]
        out = observations[rows[k]]
        mask = masks[rows[k]]
        out[:] = 0.0
        placed = 0
        left = np.full(4, 2)
        for point in range(POINTS):
            for level in range(heights[i, point]):
                piece = board[i, point, level]
                plane = (0 if piece // 2 == me else 2) + piece % 2
                out[point * 8 + level * 4 + plane] = 1.0
                left[piece] -= 1
                placed += 1
        for shape in range(2):
            out[56 + shape] = left[me * 2 + shape]
            out[58 + shape] = left[(1 - me) * 2 + shape]
        out[60 + (0 if scal[i, S_TO_MOVE] == me else 1)] = 1.0
        out[62 + (0 if placed < PIECES else 1)] = 1.0
        over[k] = is_over(board, heights, pairs, scal, i, mask)
        cut = max_steps >= 0 and scal[i, S_STEPS] >= max_steps
        if over[k] or cut or scal[i, S_TO_MOVE] != me:
            mask[:] = 0
        else:
            moves_mask(board, heights, pairs, i, me, mask)


@njit(cache=True)
def over_of(board, heights, pairs, scal, which, over, scratch):  # type: ignore[no-untyped-def]
    """Whether the game at each table ``which[k]`` is over, into ``over[k]``."""
    for k in range(which.shape[0]):
        over[k] = is_over(board, heights, pairs, scal, which[k], scratch)
