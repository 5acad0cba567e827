"""Many Fano tables stepped at compiled speed, for the vector environment.

:class:`FanoTables` keeps ``count`` tables of one Fano variant as the compiled Fano engine's
state arrays (:mod:`fanfold.games.fano.fast`) and steps them with the kernels of
:mod:`fanfold.envs.fano_kernels`: the learner's action, then the random bots' until the
learner decides again (in Trionfey that may be a counter window, where the learner defends),
and the learner's observation and action mask written into the caller's batch. It plays
exactly what the Python path plays for the same seeds (an
:class:`~fanfold.envs.episode.Episode` with a learner seat and ``random`` bots: the deal,
every reshuffle, each bot's draws, the observation, the mask, the outcome), which
``tests/envs/test_fano_stepping.py`` checks over many seeded games. The deal is compiled
(:func:`~fanfold.envs.fano_kernels.deal`, as :func:`fanfold.games.fano.rules.new_state` deals);
what stays in Python: the SHA-256 of the deal's seeds and of each reshuffle's
(:func:`fanfold.core.rng.derive_seed`, a reshuffle's computed ahead in blocks of
:data:`SEEDS`) and the outcome's words (of the winner and phase read off the array,
:meth:`FanoTables.outcome`: no state decoded).

The learner's actions go between the encoding's indices and the engine's packed ids
(:mod:`fanfold.games.fano.fast.codec`) by a table made once per seat: the index's action
for the learner's seat, kept only where it comes back to the same index
(``encoding.action_index``), which every legal action does.

:func:`supports` says which environments it covers: Fano variants the engine plays, one
learner seat, in every other seat a ``random`` bot or a ladder member (the compiled decision of
:mod:`fanfold.agents.ladder.kernels` on the table's array, which reads only what the seat may
see: ``tests/envs/test_fano_stepping.py`` checks its choices against the ``ladder`` agent's,
which decides on a deal of the hidden cards from its view), with or without a step limit; and
self-play (:func:`supports_self_play`, :class:`~fanfold.envs.selfplay_env.SelfPlayVectorEnv`),
where every seat decides through the caller. Importing this module
loads Numba; :func:`warm_up` compiles (or loads from the cache) every kernel, and joins the
build's warm-ups (:data:`fanfold.agents.strategy.compiled.ENVIRONMENT_WARM_UPS`), so an
installation compiles nothing at first use.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from fanfold.agents.base import parse_agent
from fanfold.agents.ladder.agent import LadderConfig
from fanfold.agents.ladder.kernels import F_SIZE as LADDER_F_SIZE
from fanfold.agents.ladder.kernels import I_SIZE as LADDER_I_SIZE
from fanfold.agents.ladder.styles import params
from fanfold.core import lab_refusals as _lab_refusals  # noqa: F401  (registers the codes)
from fanfold.core.errors import FanfoldError, IllegalActionError, Refusal
from fanfold.core.game import Outcome
from fanfold.core.rng import derive_seed
from fanfold.envs import fano_kernels as kernels
from fanfold.envs.compiled_tables import Ints, SelfPlayTables
from fanfold.envs.fano import FanoEncoding, relative_card
from fanfold.envs.fantan_kernels import MT_N
from fanfold.games.fano import fast
from fanfold.games.fano.config import FanoConfig
from fanfold.games.fano.fast import codec, layout
from fanfold.games.fano.rules import outcome_of
from fanfold.games.fano.state import FanoState

if TYPE_CHECKING:
    from fanfold.envs.encoding import Encoding
    from fanfold.envs.gymnasium_env import FanfoldGymEnv


#: Reshuffle seeds computed at once for a seat, at the deal and again whenever a table runs
#: past them (in 200 random 2-player classic games a seat reshuffled 92 times on average over
#: its 400 turns, at most 107; with 30 turns a seat 5.6 times, at most 9).
SEEDS = 8
#: The observation blocks, in the order of the kernels' ``O_*`` entries.
_BLOCKS = (
    "field",
    "protected",
    "face_up_discards",
    "known_in_hand",
    "counts",
    "specials_used",
    "special_this_level",
    "hand",
    "face_down_discards",
    "face_down_in_play",
    "turn",
    "turn_player",
    "phase",
    "priority",
    "target_seat",
    "attack_attacker",
    "attack_target",
    "attack_defender",
    "attack_reverse",
    "attack_support",
)


def bot_arrays(
    seats: Sequence[str], config: FanoConfig
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.float64], Ints] | None:
    """Each seat's bot as the kernels play it: its kind (:data:`~fanfold.envs.fano_kernels.
    RANDOM` for ``random`` and a learner's seat, :data:`~fanfold.envs.fano_kernels.LADDER` for
    a ladder member deciding in compiled code without look-ahead) and its ladder parameters;
    ``None`` where a seat holds another bot (which steps in Python)."""
    players = config.players
    kinds = np.zeros(players, dtype=np.int64)
    rows: list[tuple[Any, ...] | None] = [None] * players
    for seat, text in enumerate(seats):
        if text in ("human", "random"):
            continue
        try:
            spec = parse_agent(text)
        except FanfoldError:
            return None
        member = spec.config
        if (
            spec.name != "ladder"
            or not isinstance(member, LadderConfig)
            or not member.compiled
            or member.deals
        ):
            return None
        from fanfold.agents.ladder import compiled

        kinds[seat] = kernels.LADDER
        rows[seat] = compiled._arrays(params(member.style, config, member.nodes))
    width = len(next((row[0] for row in rows if row is not None), ()))
    weights = np.zeros((players, max(width, 1)), dtype=np.float64)
    fparams = np.zeros((players, LADDER_F_SIZE), dtype=np.float64)
    iparams = np.zeros((players, LADDER_I_SIZE), dtype=np.int64)
    for seat, row in enumerate(rows):
        if row is not None:
            weights[seat, :width], fparams[seat], iparams[seat] = row
    return kinds, weights, fparams, iparams


def supports(seats: Sequence[str], max_steps: int | None, config: Any = None) -> bool:
    """Whether :class:`FanoTables` plays this environment: a Fano variant the compiled engine
    plays (:func:`fanfold.games.fano.fast.supports`), one learner seat (``"human"``), in every
    other seat ``random`` or a ladder member deciding in compiled code without look-ahead
    (``ladder``, ``ladder(style=rush)``; not ``compiled=false`` nor ``deals``), and any step
    limit."""
    return (
        isinstance(config, FanoConfig)
        and fast.supports(config)
        and (max_steps is None or max_steps >= 0)
        and sum(1 for seat in seats if seat == "human") == 1
        and bot_arrays(seats, config) is not None
    )


def supports_self_play(config: Any, max_steps: int | None) -> bool:
    """Whether :class:`FanoTables` plays self-play of this variant (every seat the caller's):
    a Fano variant the compiled engine plays, any step limit."""
    return (
        isinstance(config, FanoConfig)
        and fast.supports(config)
        and (max_steps is None or max_steps >= 0)
    )


def reshuffle_seeds(seed: int, seat: int, first: int, count: int) -> list[int]:
    """The seeds of ``seat``'s reshuffles ``first`` to ``first + count - 1`` in the game of
    ``seed``: :func:`fanfold.core.rng.derive_seed` of ``(seed, "reshuffle", seat, number)``,
    as :func:`fanfold.games.fano.rules.deck` seeds them, its text made once for them all."""
    prefix = "\x1f".join([str(seed), repr("reshuffle"), repr(seat), ""])
    return [
        int.from_bytes(hashlib.sha256(f"{prefix}{number!r}".encode()).digest()[:8], "big")
        for number in range(first, first + count)
    ]


class FanoTables(SelfPlayTables):
    """``count`` Fano tables with the learner in ``seat`` and bots elsewhere, or in
    self-play (``seat`` of :data:`~fanfold.envs.fano_kernels.EVERY_SEAT`) every seat the
    caller's.

    Args:
        encoding: the variant's encoding (its config, action table and layout).
        seat: the learner's seat, or :data:`~fanfold.envs.fano_kernels.EVERY_SEAT`.
        count: how many tables.
        seats: each seat's text (``"human"``, ``"random"``, a ladder member: what
            :func:`supports`); default: ``random`` bots (none in self-play).
        max_steps: actions (every seat's) after which a game is cut (``None``: never).
    """

    def __init__(
        self,
        encoding: FanoEncoding,
        seat: int,
        count: int,
        seats: Sequence[str] | None = None,
        max_steps: int | None = None,
    ) -> None:
        super().__init__(seat, count)
        config = encoding.config
        self.config = config
        self.encoding = encoding
        self.max_steps = max_steps
        players = config.players
        arrays = bot_arrays(seats or ["random"] * players, config)
        if arrays is None:
            raise ValueError(f"no compiled bots for the seats {list(seats or [])!r}")
        kinds, weights, fparams, iparams = arrays
        from fanfold.agents.ladder import compiled

        self.bots = (
            kinds,
            compiled._suits(config),
            weights,
            fparams,
            iparams,
            -1 if max_steps is None else max_steps,
        )
        self.cfg = codec.encode_config(config)
        self.decks = codec.decks(config)
        self.states = np.zeros((count, codec.size(config)), dtype=np.int32)
        self.scal = np.zeros((count, kernels.S_COLUMNS), dtype=np.int64)
        self.rng = np.zeros((count, players, MT_N + 1), dtype=np.int64)
        self.seeds = np.zeros((count, players, SEEDS), dtype=np.uint64)
        self.base = np.zeros((count, players), dtype=np.int64)
        self.backup = np.zeros(codec.size(config), dtype=np.int32)
        self.shuffle = np.zeros(layout.SHUFFLE_SIZE, dtype=np.int32)
        self.mt = np.zeros(MT_N + 1, dtype=np.int64)
        self.legal = np.zeros(layout.MAX_ACTIONS, dtype=np.int64)
        offsets = encoding.layout.offsets
        self.offsets = np.array([offsets[name] for name in _BLOCKS], dtype=np.int64)
        self.field_at = np.full((players, 256), -1, dtype=np.int64)
        self.hand_at = np.full((players, 256), -1, dtype=np.int64)
        for owner in range(players):
            suits = config.suits_of(owner)
            for card in range(256):
                try:
                    relative = relative_card(card, suits)
                    self.field_at[owner, card] = encoding.field_index(relative)
                    self.hand_at[owner, card] = encoding.hand_index(relative)
                except ValueError:  # no such card in this variant
                    continue
        learners = range(players) if seat == kernels.EVERY_SEAT else [seat]
        self.ids = np.zeros((players, encoding.num_actions), dtype=np.int64)
        found: list[dict[int, int]] = [{} for _ in range(players)]
        for learner in learners:
            mapped = found[learner]
            for index in range(encoding.num_actions):
                action = encoding.action(learner, index)
                self.ids[learner, index] = codec.action_id(action)
                try:
                    back = encoding.action_index(learner, action)
                except IllegalActionError:  # pragma: no cover - every action comes back
                    continue
                if back == index:
                    mapped[int(self.ids[learner, index])] = index
        width = max(len(mapped) for mapped in found)
        # padded with the largest id, which no action has
        self.keys = np.full((players, width), np.iinfo(np.int64).max, dtype=np.int64)
        self.key_index = np.zeros((players, width), dtype=np.int64)
        for learner, mapped in enumerate(found):
            ordered = sorted(mapped)
            self.keys[learner, : len(ordered)] = ordered
            self.key_index[learner, : len(ordered)] = [mapped[key] for key in ordered]
        self._unmapped = np.zeros(count, dtype=np.int64)

    def _step(self, kernel: Callable[..., None], *rest: Any) -> None:
        """Call a stepping kernel with the arrays every one takes (as one tuple), then
        ``rest``."""
        tables = (
            self.states,
            self.cfg,
            self.scal,
            self.rng,
            self.seeds,
            self.base,
            self.backup,
            self.shuffle,
            self.mt,
            self.legal,
            self.bots,
        )
        kernel(tables, *rest)

    def _give_seeds(self, index: int, seat: int, first: int) -> None:
        """Table ``index``'s reshuffle seeds of ``seat`` from reshuffle ``first`` on."""
        self.base[index, seat] = first
        self.seeds[index, seat] = reshuffle_seeds(
            int(self.scal[index, kernels.S_SEED]), seat, first, SEEDS
        )

    # ------------------------------------------------------------------------- stepping
    def start(self, which: Sequence[int] | Ints, seeds: Sequence[int]) -> None:
        """Deal a new game at each table of ``which`` from its seed (``seeds``, 0 to
        2**31 - 2 as an environment draws them), and let its bots play up to the learner."""
        indices = np.asarray(which, dtype=np.int64)
        game_seeds = np.asarray(seeds, dtype=np.int64)
        players = self.config.players
        deal_seeds = np.zeros((len(indices), players), dtype=np.uint64)
        first_seeds = np.zeros(len(indices), dtype=np.uint64)
        for k, (index, seed) in enumerate(zip(indices.tolist(), game_seeds.tolist(), strict=True)):
            deal_seeds[k] = [derive_seed(seed, "deal", seat) for seat in range(players)]
            first_seeds[k] = derive_seed(seed, "first player")
            self.scal[index, kernels.S_SEED] = seed
            for seat in range(players):
                self._give_seeds(index, seat, 0)
        kernels.deal(
            self.states,
            self.cfg,
            self.shuffle,
            self.mt,
            self.decks,
            indices,
            deal_seeds,
            first_seeds,
        )
        self._step(kernels.start, indices, game_seeds, self.seat)
        self._resume(indices)

    def act(self, which: Ints, actions: Ints) -> None:
        """The decider's action at each table of ``which`` (legal: the caller checked it
        against the mask), then its bots' until the learner decides (in self-play: anyone),
        the game ends or the step limit cuts it."""
        self._step(kernels.act, self.ids, which, actions, self.seat)
        self._resume(which)

    def _resume(self, which: Ints) -> None:
        """Give the tables stopped at a reshuffle their seeds, and let them go on."""
        while True:
            waiting = which[self.scal[which, kernels.S_STATUS] == kernels.NEEDS_SEED]
            if not len(waiting):
                return
            for index in waiting.tolist():
                seat = int(self.scal[index, kernels.S_NEED_SEAT])
                self._give_seeds(index, seat, int(self.scal[index, kernels.S_NEED_NUMBER]))
            self._step(kernels.resume, waiting, self.seat)

    def is_over(self, which: Ints) -> npt.NDArray[np.bool_]:
        """Whether the game at each table of ``which`` is over."""
        over: npt.NDArray[np.bool_] = self.scal[which, kernels.S_STATUS] == kernels.OVER
        return over

    def is_cut(self, which: Ints) -> npt.NDArray[np.bool_]:
        """Whether the step limit cut the game at each table of ``which`` before its end."""
        cut: npt.NDArray[np.bool_] = self.scal[which, kernels.S_STATUS] == kernels.CUT
        return cut

    def deciders(self, which: Ints) -> Ints:
        """The seat that decides now at each table of ``which`` (the defender in a counter
        window, else the turn player), whether or not its game goes on."""
        states = self.states[which]
        seats: Ints = np.where(
            states[:, layout.PENDING_ATTACKER] != 0,
            states[:, layout.PENDING_DEFENDER],
            states[:, layout.TURN_PLAYER],
        ).astype(np.int64)
        return seats

    def steps(self, which: Ints) -> Ints:
        """Actions (every seat's) applied at each table of ``which`` since its deal."""
        steps: Ints = self.scal[which, kernels.S_STEPS].copy()
        return steps

    def _observe(
        self,
        which: Ints,
        rows: Ints,
        observations: npt.NDArray[np.float32],
        masks: npt.NDArray[np.int8],
        seats: Ints,
    ) -> None:
        """Write the observations and masks, each table's for its seat of ``seats``.

        Raises:
            IllegalActionError: a legal action has no index in the encoding (as the Python
                path's mask raises).
        """
        unmapped = self._unmapped[: len(which)]
        kernels.observe(
            self.states,
            self.cfg,
            self.scal,
            self.offsets,
            self.field_at,
            self.hand_at,
            self.keys,
            self.key_index,
            self.legal,
            which,
            rows,
            observations,
            masks,
            seats,
            unmapped,
        )
        for packed in unmapped[unmapped != 0].tolist():
            text = self.encoding.game.action_text(codec.to_action(packed))
            raise IllegalActionError(Refusal("envs.not_in_table", action=text))

    # --------------------------------------------------------------------------- states
    def outcome(self, index: int, game: Any) -> Outcome | None:
        """The outcome of table ``index``'s game (``game``'s, a Fano game), read off its array
        as :func:`fanfold.games.fano.rules.outcome` reads a state (the winner: the first seat
        with the promotions needed; the phase over), without decoding the state."""
        del game
        s = self.states[index]
        target = self.config.promotions_to_win
        seat = next(
            (
                seat
                for seat in range(self.config.players)
                if s[layout.HEADER + seat * layout.PLAYER_WIDTH + layout.LEVEL] >= target
            ),
            None,
        )
        return outcome_of(self.config, seat, bool(s[layout.PHASE] == layout.P_OVER))

    def state(self, index: int, *, history: bool = True) -> FanoState:
        """Table ``index``'s game as a rules state (``history`` is for the other games'
        tables: a Fano state keeps no history)."""
        del history
        return codec.decode_state(
            self.states[index], self.config, int(self.scal[index, kernels.S_SEED])
        )


def warm_up() -> None:
    """Compile (or load from Numba's cache) every kernel, on short games of both editions,
    and :func:`~fanfold.envs.fano_kernels.resume` on no table (its short games never run past
    their reshuffle seeds: a first table that did would compile it in the middle of play)."""
    from fanfold.envs.encodings import encoding_for, resolve

    for preset, seat in (("classic", 0), ("trionfey", 1)):
        game, config = resolve("fano", preset, {"turns_per_player": 20})
        encoding = encoding_for(game, config)
        assert isinstance(encoding, FanoEncoding)
        seats = ["ladder(style=rush, nodes=20)"] * config.players
        seats[seat] = "human"
        played = FanoTables(encoding, seat, 2, seats, max_steps=60)
        played.play_first_legal(encoding.layout.size, encoding.num_actions, 400)
        played._step(kernels.resume, np.zeros(0, dtype=np.int64), played.seat)


def tables(env: FanfoldGymEnv, count: int, encoding: Encoding) -> FanoTables:
    """``count`` compiled tables playing what ``env`` plays (one that :func:`supports`)."""
    assert isinstance(encoding, FanoEncoding)
    return FanoTables(encoding, env.seat, count, env.seats, env.max_steps)


def self_play_tables(encoding: Encoding, count: int, max_steps: int | None) -> FanoTables:
    """``count`` compiled self-play tables (a variant that :func:`supports_self_play`)."""
    assert isinstance(encoding, FanoEncoding)
    return FanoTables(encoding, kernels.EVERY_SEAT, count, max_steps=max_steps)
