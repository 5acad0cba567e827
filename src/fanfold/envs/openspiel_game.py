"""OpenSpiel: every fanfold game as a Python game, ``python_fanfold_<game>``.

>>> import pyspiel
>>> names = register()
>>> game = pyspiel.load_game("python_fanfold_morris")
>>> state = game.new_initial_state()
>>> state.current_player(), len(state.legal_actions())
(0, 14)

Game types: sequential; Morris is deterministic with perfect information; Fan patience is an
open deal (perfect information) and Fano and Fan Tan hide hands (imperfect information); the
three dealt games are *sampled stochastic*: the deal and Fano's reshuffles come from a seed
drawn from the game's generator (parameter ``seed``, -1 for a fresh one) when a state is made,
so there are no chance nodes. Actions are the indices of :mod:`fanfold.envs.encodings`;
observations (string and tensor) are built from the player's view; there is no information
state (no perfect-recall observer).

Parameters: ``variant`` (a preset name), ``players`` (0: the preset's), ``options`` (config
options ``name=value`` joined by commas, e.g. ``turns_per_player=20``), ``seed``,
``max_steps`` (-1: the default step limit; 0: none) and ``position`` (a starting position in
the game's notation; empty for the deal). A game cut by the step limit ends with every return
0.

:func:`morris_value` and :func:`morris_value_keeping_actions` read the solved Morris table for an
OpenSpiel state, so that OpenSpiel's algorithms can be checked against the exact values.
"""

from __future__ import annotations

import random
from typing import Any

import pyspiel

from fanfold.core.errors import ConfigError
from fanfold.core.registry import AnyGame, all_games, get_game
from fanfold.envs.encoding import Encoding
from fanfold.envs.encodings import ENCODINGS, encoding_for, resolve
from fanfold.envs.episode import Episode, default_max_steps
from fanfold.play.table import HUMAN
from fanfold.solvers.morris import load_table, rank_actions

PREFIX = "python_fanfold_"
#: The bound on a game's actions where neither the game nor the caller sets one.
_NO_BOUND = 100_000
_registered: list[str] = []


def _player_range(game: AnyGame) -> tuple[int, int]:
    counts = [count for preset in game.presets() for count in preset.player_counts]
    if not counts:
        counts = [game.num_players(preset.config) for preset in game.presets()]
    return min(counts), max(counts)


def _game_type(game: AnyGame) -> pyspiel.GameType:
    low, high = _player_range(game)
    kind = pyspiel.GameType
    dealt = game.traits.chance
    return kind(
        short_name=PREFIX + game.name,
        long_name=f"fanfold {game.title}",
        dynamics=kind.Dynamics.SEQUENTIAL,
        chance_mode=kind.ChanceMode.SAMPLED_STOCHASTIC if dealt else kind.ChanceMode.DETERMINISTIC,
        information=(
            kind.Information.IMPERFECT_INFORMATION
            if game.has_hidden_information
            else kind.Information.PERFECT_INFORMATION
        ),
        utility=kind.Utility.ZERO_SUM if game.traits.zero_sum else kind.Utility.GENERAL_SUM,
        reward_model=kind.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "variant": game.presets()[0].name,
            "players": 0,
            "options": "",
            "seed": -1,
            "max_steps": -1,
            "position": "",
        },
    )


def _options(text: str) -> dict[str, str]:
    options: dict[str, str] = {}
    for part in filter(None, (item.strip() for item in text.split(","))):
        name, equals, value = part.partition("=")
        if not equals:
            raise ConfigError(f"options are name=value pairs joined by commas, not {part!r}")
        options[name.strip()] = value.strip()
    return options


class FanfoldGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type information
    """A fanfold game and variant as an OpenSpiel game."""

    #: The fanfold game's short name (each registered subclass sets its own).
    fanfold_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game = get_game(self.fanfold_name)
        game_type = _game_type(game)
        values = {**game_type.parameter_specification, **(params or {})}
        options = _options(str(values["options"]))
        if int(values["players"]):
            options["players"] = str(values["players"])
        found, config = resolve(game.name, str(values["variant"]), options)
        self.fanfold_game = found
        self.config = config
        self.encoding: Encoding = encoding_for(found, config)
        limit = int(values["max_steps"])
        self.max_steps = default_max_steps(found) if limit < 0 else (limit or None)
        self.position = str(values["position"]) or None
        seed = int(values["seed"])
        self._rng = random.Random(seed if seed >= 0 else None)
        low, high = found.traits.returns
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.num_actions,
            max_chance_outcomes=0,
            num_players=self.encoding.players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if found.traits.zero_sum else None,
            max_game_length=self.max_steps or found.longest_game(config) or _NO_BOUND,
        )
        super().__init__(game_type, info, values)

    def new_initial_state(self) -> FanfoldState:
        """A new game: dealt from a seed drawn from the game's generator."""
        return FanfoldState(self, self._rng.randrange(2**31))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> FanfoldObserver:
        """The observer of a seat's view (string and tensor); no perfect-recall form."""
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            raise ValueError("fanfold games have no perfect-recall (information state) observer")
        if params:
            raise ValueError(f"the observer takes no parameters, not {params}")
        return FanfoldObserver(self)


class FanfoldState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no type information
    """A game in progress: an :class:`~fanfold.envs.episode.Episode` with every seat a player."""

    def __init__(self, game: FanfoldGame, seed: int) -> None:
        super().__init__(game)
        self.episode = Episode(
            game.fanfold_game,
            game.config,
            game.encoding,
            [HUMAN] * game.encoding.players,
            seed=seed,
            max_steps=game.max_steps,
            start_position=game.position,
        )

    @property
    def fanfold_state(self) -> Any:
        """The fanfold state underneath."""
        return self.episode.table.state

    def current_player(self) -> int:
        seat = self.episode.decider
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.episode.decider:
            return []
        return self.episode.legal_indices()

    def _apply_action(self, action: int) -> None:
        seat = self.episode.decider
        if seat is None:
            raise pyspiel.SpielError("the game is over")
        self.episode.act(seat, action)

    def _action_to_string(self, player: int, action: int) -> str:
        seat = player if player >= 0 else 0
        episode = self.episode
        return str(episode.game.action_text(episode.encoding.action(seat, action)))

    def is_terminal(self) -> bool:
        return self.episode.decider is None

    def returns(self) -> list[float]:
        return [float(value) for value in self.episode.returns()]

    def __str__(self) -> str:
        return str(self.episode.game.format_position(self.episode.table.state))


class FanfoldObserver:
    """A seat's observation: the encoding's tensor and dict, and the view drawn as text."""

    def __init__(self, game: FanfoldGame) -> None:
        self._game = game
        layout = game.encoding.layout
        self.tensor = layout.zeros()
        self.dict = layout.views(self.tensor)

    def set_from(self, state: FanfoldState, player: int) -> None:
        """Fill :attr:`tensor` (and :attr:`dict`, its views) from ``player``'s view."""
        self.tensor.fill(0.0)
        view = self._game.fanfold_game.observe(state.fanfold_state, player)
        self._game.encoding.fill(view, self.dict)

    def string_from(self, state: FanfoldState, player: int) -> str:
        """``player``'s view as the terminal draws it."""
        game = self._game.fanfold_game
        return str(game.render(game.observe(state.fanfold_state, player)))


def register() -> list[str]:
    """Register every game with an encoding (once); returns the OpenSpiel names."""
    if not _registered:
        for game in all_games():
            if game.name not in ENCODINGS:
                continue
            # OpenSpiel keeps the class it is given: one subclass per game.
            kind = type(
                f"Fanfold{game.name.title()}Game", (FanfoldGame,), {"fanfold_name": game.name}
            )
            pyspiel.register_game(_game_type(game), kind)
            _registered.append(PREFIX + game.name)
    return list(_registered)


# ------------------------------------------------------------------ the solved Morris table
def morris_value(state: FanfoldState) -> float:
    """The game-theoretic value of a Morris state for player 0 (White): 1 won, -1 lost, 0
    drawn under perfect play, from the solved table (the history is ignored, as the table
    does; see :mod:`fanfold.solvers.morris`)."""
    fanfold_state = state.fanfold_state
    table = load_table(fanfold_state.config.adjacency)
    value = table.state_value(fanfold_state)
    sign = {"win": 1.0, "loss": -1.0, "draw": 0.0}[value.result.value]
    return sign if fanfold_state.to_move == 0 else -sign


def morris_value_keeping_actions(state: FanfoldState) -> list[int]:
    """The action indices that keep the game-theoretic value of a Morris state: for the side
    to move, every move whose result (win, draw or loss, however fast) is the best one, by the
    solved table and checked against the history by the rules engine."""
    fanfold_state = state.fanfold_state
    table = load_table(fanfold_state.config.adjacency)
    ranked = rank_actions(table, fanfold_state)
    if not ranked:
        return []
    best = ranked[0][1].result
    encoding = state.episode.encoding
    seat = fanfold_state.to_move
    return sorted(
        encoding.action_index(seat, action) for action, value in ranked if value.result is best
    )
