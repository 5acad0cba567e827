"""Fano's environment stepping at compiled speed: the Numba kernels.

Many tables of one Fano variant live in plain arrays (:mod:`fanfold.envs.fano_stepping` makes
them and drives these kernels; import that module, not this one, which loads Numba):

* ``states[table]``: each table's game as the compiled Fano engine's state array
  (:mod:`fanfold.games.fano.fast.layout`), stepped by that engine's own kernels (legal
  actions in the rules' order, apply, the winner), so the rules are the engine's;
* ``scal[table, column]``: the table's numbers (the ``S_*`` columns below);
* ``rng[table, seat]``: each random bot's generator, Python's own Mersenne Twister
  (:mod:`fanfold.envs.fantan_kernels`), seeded as the environment seeds its agents;
* ``seeds[table, seat, n]``: the seeds of that seat's reshuffles ``base + n``
  (``base[table, seat]``), each :func:`fanfold.core.rng.derive_seed` of the game's seed, which
  needs SHA-256 and is computed in Python ahead of use; a reshuffle is Python's
  ``random.Random(seed).shuffle`` of the sorted discards, drawn here. A table whose next
  reshuffle is past its seeds stops with :data:`NEEDS_SEED` (the action it was applying kept
  in ``S_PENDING``), and the driver gives it more and lets it go on (:func:`resume`);
* ``ids[seat]``: the seat's packed action id (the engine's) at each index of the encoding,
  and ``keys[seat]``/``key_index[seat]``: those ids sorted with their indices (padded with
  the largest id), to find a legal action's index;
* ``bots``: each seat's kind (a random bot, the ladder's compiled decision with that seat's
  parameters) and the step limit (:func:`play_bots`); in self-play no seat is a bot.
* ``field_at[seat, card]`` and ``hand_at[seat, card]``: a card of ``seat``'s in the
  encoding's card vectors (owner-relative: a card in play, a card off the field), -1 for none;
* ``offsets``: where each observation block starts (the ``O_*`` entries).

The observation is :class:`~fanfold.envs.fano.FanoEncoding`'s of the learner's view
(:func:`fanfold.games.fano.view.observe`: its own hand, face-down discards and face-down cards
in play; of every seat only the public part). Both are tested equal to the Python path over
many seeded episodes (``tests/envs/test_fano_stepping.py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fanfold.agents.ladder.kernels import decide_with as ladder_decide
from fanfold.agents.ladder.kernels import forget as ladder_forget
from fanfold.agents.ladder.kernels import workspace as ladder_workspace
from fanfold.core import numba_cache
from fanfold.envs.fantan_kernels import mt_below, mt_seed_int
from fanfold.games.fano.cards import TEMP_JOKER
from fanfold.games.fano.fast.kernels import apply, legal_actions, winner
from fanfold.games.fano.fast.kernels.turns import _start_turn
from fanfold.games.fano.fast.layout import (
    C_LAST_TURN,
    C_PLAYERS,
    C_TEAMS,
    C_TRIONFEY,
    DOWN,
    DRAW,
    FIELD,
    HAND,
    HEADER,
    HIDDEN,
    KNOWN,
    LEVEL,
    OK,
    P_MAIN,
    P_MULLIGAN,
    P_OVER,
    PENDING_ATTACKER,
    PENDING_DEFENDER,
    PENDING_REVERSE,
    PENDING_SUPPORT,
    PENDING_TARGET,
    PHASE,
    PLAYER_WIDTH,
    PRIORITY,
    PROTECTED,
    SHUFFLE_COUNT,
    SHUFFLE_GIVEN,
    SHUFFLE_MODE,
    SHUFFLE_PERM,
    SHUFFLE_SEAT,
    SHUFFLES,
    SPECIALS,
    TARGET_SEAT,
    TEMP_JOKERS,
    TRIBUTE,
    TURN,
    TURN_PLAYER,
    UP,
)

numba_cache.install()

# ``scal`` columns
S_SEED = 0  # the game's seed
S_STATUS = 1
S_PENDING = 2  # the packed action a table stopped in (NEEDS_SEED)
S_NEED_SEAT = 3  # the seat whose reshuffle needs a seed
S_NEED_NUMBER = 4  # that reshuffle's number (the seat's reshuffles before it)
S_STEPS = 5  # actions applied since the deal (every seat's)
S_COLUMNS = 6

# statuses
LEARNER = 0  # the learner decides
OVER = 1  # the game is over
NEEDS_SEED = 2  # a reshuffle needs its seed: give it, then resume
CUT = 3  # the step limit cut the game before its end

# a bot seat's kind (``kinds[seat]``)
RANDOM = 0  # draws ``legal[randrange(len(legal))]`` from its generator
LADDER = 1  # the ladder's compiled decision with the seat's parameters
#: ``learner`` in self-play: every seat decides through the caller, no seat is a bot.
EVERY_SEAT = -1

# ``offsets`` entries (observation blocks, in the layout's order)
O_FIELD = 0
O_PROTECTED = 1
O_UP = 2
O_KNOWN = 3
O_COUNTS = 4
O_SPECIALS_USED = 5
O_SPECIAL_THIS_LEVEL = 6
O_HAND = 7
O_DOWN = 8
O_HIDDEN = 9
O_TURN = 10
O_TURN_PLAYER = 11
O_PHASE = 12
O_PRIORITY = 13
O_TARGET_SEAT = 14
O_ATTACKER = 15
O_TARGET = 16
O_DEFENDER = 17
O_REVERSE = 18
O_SUPPORT = 19
O_SIZE = 20

#: Counts per seat in the ``counts`` block; specials in the ``specials_used`` block.
COUNTS = 9
SPECIAL_KINDS = 4


@njit(cache=True)
def decider(s):  # type: ignore[no-untyped-def]
    """The seat that decides: the defender in a counter window, else the turn player."""
    return s[PENDING_DEFENDER] if s[PENDING_ATTACKER] != 0 else s[TURN_PLAYER]


@njit(cache=True)
def is_over(s, cfg):  # type: ignore[no-untyped-def]
    """The game is over (:meth:`fanfold.games.fano.game.FanoGame.current_player` is None)."""
    return s[PHASE] == P_OVER or winner(s, cfg) >= 0


@njit(**numba_cache.UNCOUNTED)
def run(states, cfg, scal, seeds, base, backup, shuffle, mt, i, packed):  # type: ignore[no-untyped-def]
    """Apply the legal action ``packed`` at table ``i`` as the reference does, its reshuffle
    (one at most) drawn from the seat's reshuffle seed; False when that seed is not given
    yet (the table unchanged, stopped with :data:`NEEDS_SEED`)."""
    s = states[i]
    for k in range(s.shape[0]):  # a loop: a slice assignment may allocate
        backup[k] = s[k]
    shuffle[SHUFFLE_MODE] = 1
    shuffle[SHUFFLE_GIVEN] = -1
    if apply(s, cfg, packed, shuffle) == OK:
        scal[i, S_STEPS] += 1
        return True
    seat = shuffle[SHUFFLE_SEAT]
    count = shuffle[SHUFFLE_COUNT]
    number = backup[HEADER + seat * PLAYER_WIDTH + SHUFFLES]
    for k in range(s.shape[0]):
        s[k] = backup[k]
    at = number - base[i, seat]
    if at < 0 or at >= seeds.shape[2]:
        scal[i, S_STATUS] = NEEDS_SEED
        scal[i, S_PENDING] = packed
        scal[i, S_NEED_SEAT] = seat
        scal[i, S_NEED_NUMBER] = number
        return False
    # random.Random(seed).shuffle(list(range(count))): the permutation of the sorted cards
    mt_seed_int(mt, seeds[i, seat, at])
    for k in range(count):
        shuffle[SHUFFLE_PERM + k] = k
    for k in range(count - 1, 0, -1):
        j = mt_below(mt, k + 1)
        swap = shuffle[SHUFFLE_PERM + k]
        shuffle[SHUFFLE_PERM + k] = shuffle[SHUFFLE_PERM + j]
        shuffle[SHUFFLE_PERM + j] = swap
    shuffle[SHUFFLE_GIVEN] = count
    apply(s, cfg, packed, shuffle)
    scal[i, S_STEPS] += 1
    return True


@njit(**numba_cache.UNCOUNTED)
def play_bots(  # type: ignore[no-untyped-def]
    states, cfg, scal, rng, seeds, base, backup, shuffle, mt, legal, bots, i, learner, ws
):
    """The bots of table ``i`` play until the learner decides (in self-play, ``learner`` of
    :data:`EVERY_SEAT`: until anyone decides), the game ends, the step limit cuts it or a
    reshuffle needs its seed. A random bot draws ``legal[randrange(len(legal))]`` from its
    generator, a ladder bot decides as :func:`fanfold.agents.ladder.kernels.decide` does.

    ``bots``: ``(kinds, suits, weights, fparams, iparams, max_steps)``: each seat's kind
    (:data:`RANDOM`, :data:`LADDER`), the suits each seat commands, each seat's ladder
    parameters (rows of :mod:`fanfold.agents.ladder.compiled`'s arrays) and the step limit
    (-1: none). ``ws``: the ladder's workspace (:func:`fanfold.agents.ladder.kernels.workspace`),
    allocated once a batch by the kernel the driver calls, so that a decision allocates
    nothing (it is not one of ``tables``: each array the driver passes costs its unboxing at
    every call).

    ``run``, ``play_bots`` and ``play_on`` are compiled without reference counts
    (:data:`fanfold.core.numba_cache.UNCOUNTED`): with them, every call counted a reference
    to each array of ``tables`` and of the workspace (about fifty, two atomic operations
    each) at every table's step, self-play included, where no bot decides."""
    kinds, suits, weights, fparams, iparams, max_steps = bots
    ladder_forget(ws)  # a kept search (the ladder's) is the table's own
    while True:
        s = states[i]
        if is_over(s, cfg):
            scal[i, S_STATUS] = OVER
            return
        if max_steps >= 0 and scal[i, S_STEPS] >= max_steps:
            scal[i, S_STATUS] = CUT
            return
        seat = decider(s)
        if learner == EVERY_SEAT or seat == learner:
            scal[i, S_STATUS] = LEARNER
            return
        count = legal_actions(s, cfg, legal)
        if kinds[seat] == LADDER:
            choice = ladder_decide(
                s,
                cfg,
                seat,
                legal,
                count,
                suits,
                weights[seat],
                fparams[seat],
                iparams[seat],
                ws[3][6],
                ws,
            )
        else:
            choice = mt_below(rng[i, seat], count)
        if not run(states, cfg, scal, seeds, base, backup, shuffle, mt, i, legal[choice]):
            return


@njit(cache=True)
def deal(states, cfg, shuffle, mt, decks, which, deal_seeds, first_seeds):  # type: ignore[no-untyped-def]
    """A new game dealt into ``states[which[k]]``, as :func:`fanfold.games.fano.rules.new_state`
    deals it and :func:`fanfold.games.fano.fast.codec.encode_state` writes it: each seat's
    deck (``decks``, :func:`fanfold.games.fano.fast.codec.decks`: sorted) shuffled as
    ``random.Random(deal_seeds[k, seat]).shuffle`` does into its draw pile, the first player
    ``random.Random(first_seeds[k]).randrange(players)``, and its first turn's draw phase.
    The seeds are the rules' (:func:`fanfold.core.rng.derive_seed` of ``(seed, "deal",
    seat)`` and ``(seed, "first player")``), derived by the driver; ``mt``: a generator's
    buffer."""
    players = cfg[C_PLAYERS]
    for k in range(which.shape[0]):
        s = states[which[k]]
        for i in range(s.shape[0]):
            s[i] = 0
        s[TARGET_SEAT] = -1
        s[PHASE] = P_MAIN
        for seat in range(players):
            p = HEADER + seat * PLAYER_WIDTH
            n = decks[seat, 0]
            for i in range(n):
                s[p + DRAW + 1 + i] = decks[seat, 1 + i]
            s[p + DRAW] = n
            mt_seed_int(mt, deal_seeds[k, seat])
            for i in range(n - 1, 0, -1):
                j = mt_below(mt, i + 1)
                card = s[p + DRAW + 1 + i]
                s[p + DRAW + 1 + i] = s[p + DRAW + 1 + j]
                s[p + DRAW + 1 + j] = card
        mt_seed_int(mt, first_seeds[k])
        first = mt_below(mt, players)
        s[TURN_PLAYER] = first
        s[PRIORITY] = first if cfg[C_TEAMS] != 0 else 0
        _start_turn(s, cfg, first, 1, shuffle)


@njit(cache=True)
def start(tables, which, game_seeds, learner):  # type: ignore[no-untyped-def]
    """A dealt game at each table ``which[k]`` (its state written by the driver): bot seat
    ``n``'s generator is ``random.Random(seed + n)`` (the environment seeds seat ``n``'s agent
    with ``seed + n``), and the bots play up to the learner.

    ``tables``: the arrays every stepping kernel takes, ``(states, cfg, scal, rng, seeds,
    base, backup, shuffle, mt, legal, bots)`` (the module's)."""
    states, cfg, scal, rng, seeds, base, backup, shuffle, mt, legal, bots = tables
    ws = ladder_workspace(states[0])
    for k in range(which.shape[0]):
        i = which[k]
        scal[i, S_SEED] = game_seeds[k]
        scal[i, S_STEPS] = 0
        for seat in range(cfg[C_PLAYERS]):
            if seat != learner and learner != EVERY_SEAT:
                mt_seed_int(rng[i, seat], game_seeds[k] + seat)
        play_bots(
            states, cfg, scal, rng, seeds, base, backup, shuffle, mt, legal, bots, i, learner, ws
        )


@njit(**numba_cache.UNCOUNTED)
def play_on(tables, i, packed, learner, ws):  # type: ignore[no-untyped-def]
    """Table ``i``'s legal action ``packed``, then its bots' (none when the action waits for
    a reshuffle's seed, :data:`NEEDS_SEED`)."""
    states, cfg, scal, rng, seeds, base, backup, shuffle, mt, legal, bots = tables
    if run(states, cfg, scal, seeds, base, backup, shuffle, mt, i, packed):
        play_bots(
            states, cfg, scal, rng, seeds, base, backup, shuffle, mt, legal, bots, i, learner, ws
        )


@njit(cache=True)
def act(tables, ids, which, actions, learner):  # type: ignore[no-untyped-def]
    """For each table ``which[k]``: the decider's legal action at index ``actions[k]`` of its
    row of ``ids`` (the packed ids of the encoding's indices, a row per seat), then its
    bots'."""
    states = tables[0]
    ws = ladder_workspace(states[0])  # the ladder bots' for the batch
    for k in range(which.shape[0]):
        i = which[k]
        play_on(tables, i, ids[decider(states[i]), actions[k]], learner, ws)


@njit(cache=True)
def resume(tables, which, learner):  # type: ignore[no-untyped-def]
    """For each table ``which[k]`` stopped with :data:`NEEDS_SEED`: its pending action, with
    the seed now given, then its bots'."""
    scal = tables[2]
    ws = ladder_workspace(tables[0][0])
    for k in range(which.shape[0]):
        i = which[k]
        play_on(tables, i, scal[i, S_PENDING], learner, ws)


@njit(cache=True)
def _row(seat, me, players):  # type: ignore[no-untyped-def]
    return (seat - me + players) % players


@njit(cache=True)
def observe(  # type: ignore[no-untyped-def]
    states,
    cfg,
    scal,
    offsets,
    field_at,
    hand_at,
    keys,
    key_index,
    legal,
    which,
    rows,
    observations,
    masks,
    seats,
    unmapped,
):
    """Write table ``which[k]``'s observation for seat ``seats[k]`` (:class:`FanoEncoding`'s
    tensor) and that seat's mask into row ``rows[k]``; ``unmapped[k]`` is the packed id of a
    legal action the encoding has no index for (0: none)."""
    players = cfg[C_PLAYERS]
    field_width = (offsets[O_PROTECTED] - offsets[O_FIELD]) // players
    hand_width = (offsets[O_KNOWN] - offsets[O_UP]) // players
    for k in range(which.shape[0]):
        me = seats[k]
        s = states[which[k]]
        out = observations[rows[k]]
        mask = masks[rows[k]]
        out[:] = 0.0
        mask[:] = 0
        unmapped[k] = 0
        for seat in range(players):
            p = HEADER + seat * PLAYER_WIDTH
            row = _row(seat, me, players)
            at = offsets[O_FIELD] + row * field_width
            for n in range(s[p + FIELD]):
                card = s[p + FIELD + 1 + n]
                hidden = False
                for h in range(s[p + HIDDEN]):
                    if s[p + HIDDEN + 1 + h] == card:
                        hidden = True
                if not hidden:
                    out[at + field_at[seat, card]] += 1.0
            at = offsets[O_PROTECTED] + row * field_width
            for n in range(s[p + PROTECTED]):
                out[at + field_at[seat, s[p + PROTECTED + 1 + n]]] = 1.0
            at = offsets[O_UP] + row * hand_width
            for n in range(s[p + UP]):
                out[at + hand_at[seat, s[p + UP + 1 + n]]] += 1.0
            at = offsets[O_KNOWN] + row * hand_width
            for n in range(s[p + KNOWN]):
                out[at + hand_at[seat, s[p + KNOWN + 1 + n]]] += 1.0
            at = offsets[O_COUNTS] + row * COUNTS
            out[at] = s[p + HAND]
            out[at + 1] = s[p + DRAW]
            out[at + 2] = s[p + DOWN]
            out[at + 3] = s[p + HIDDEN]
            out[at + 4] = s[p + LEVEL]
            out[at + 5] = s[p + SHUFFLES]
            out[at + 6] = s[p + TEMP_JOKERS]
            out[at + 7] = s[p + TRIBUTE]
            if cfg[C_TRIONFEY]:
                on_draw = 0
                for n in range(s[p + DRAW]):
                    if s[p + DRAW + 1 + n] == TEMP_JOKER:
                        on_draw += 1
                out[at + 8] = on_draw
            at = offsets[O_SPECIALS_USED] + row * SPECIAL_KINDS
            for n in range(s[p + SPECIALS]):
                code = s[p + SPECIALS + 1 + n]
                out[at + code % 4] += 1.0
                if code // 4 == s[p + LEVEL]:
                    out[offsets[O_SPECIAL_THIS_LEVEL] + row] = 1.0
        p = HEADER + me * PLAYER_WIDTH
        for n in range(s[p + HAND]):
            out[offsets[O_HAND] + hand_at[me, s[p + HAND + 1 + n]]] += 1.0
        for n in range(s[p + DOWN]):
            out[offsets[O_DOWN] + hand_at[me, s[p + DOWN + 1 + n]]] += 1.0
        for n in range(s[p + HIDDEN]):
            out[offsets[O_HIDDEN] + field_at[me, s[p + HIDDEN + 1 + n]]] += 1.0
        out[offsets[O_TURN]] = min(s[TURN] / cfg[C_LAST_TURN], 1.0)
        turn_player = s[TURN_PLAYER]
        out[offsets[O_TURN_PLAYER] + _row(turn_player, me, players)] = 1.0
        phase = s[PHASE]
        if phase == P_MULLIGAN and me != turn_player:
            phase = P_MAIN  # being offered a mulligan would tell the hand is all prestige
        out[offsets[O_PHASE] + phase] = 1.0
        out[offsets[O_PRIORITY] + _row(s[PRIORITY], me, players)] = 1.0
        if s[TARGET_SEAT] >= 0:
            out[offsets[O_TARGET_SEAT] + _row(s[TARGET_SEAT], me, players)] = 1.0
        if s[PENDING_ATTACKER] != 0:
            defender = s[PENDING_DEFENDER]
            out[offsets[O_ATTACKER] + field_at[turn_player, s[PENDING_ATTACKER]]] = 1.0
            out[offsets[O_TARGET] + field_at[defender, s[PENDING_TARGET]]] = 1.0
            out[offsets[O_DEFENDER] + _row(defender, me, players)] = 1.0
            out[offsets[O_REVERSE]] = 1.0 if s[PENDING_REVERSE] else 0.0
            if s[PENDING_SUPPORT] != 0:
                out[offsets[O_SUPPORT] + field_at[turn_player, s[PENDING_SUPPORT]]] = 1.0
        if is_over(s, cfg) or scal[which[k], S_STATUS] == CUT or decider(s) != me:
            continue
        count = legal_actions(s, cfg, legal)
        mine = keys[me]
        for n in range(count):
            at = np.searchsorted(mine, legal[n])
            if at < mine.shape[0] and mine[at] == legal[n]:
                mask[key_index[me, at]] = 1
            else:
                unmapped[k] = legal[n]


@njit(cache=True)
def over_of(states, cfg, which, over):  # type: ignore[no-untyped-def]
    """Whether the game at each table ``which[k]`` is over, into ``over[k]``."""
    for k in range(which.shape[0]):
        over[k] = is_over(states[which[k]], cfg)
