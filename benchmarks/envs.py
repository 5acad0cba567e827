"""Environment steps per second: fanfold's environments beside PettingZoo's classic games and
OpenSpiel games, all driven the same way in one process.

Every row plays uniform random games for ``--seconds`` and counts steps (one action each):

* **PettingZoo AEC**: ``reset``, then for each agent ``last()`` (observation and action mask),
  a random index among the mask's ones, ``step``; fanfold's ``aec_env`` for every game beside
  PettingZoo's classic card environments ``leduc_holdem_v4`` and ``texas_holdem_v4`` (RLCard
  underneath) and its board games ``tictactoe_v3`` and ``connect_four_v3``
  (``pip install -e '.[bench]'``; a missing peer is reported, not fatal);
* **Gymnasium vector**: :class:`fanfold.envs.vector_env.FanfoldVectorEnv` over ``--tables``
  tables, one learner seat each (random bots in the others): ``step`` with one random legal
  index per table, drawn for the whole batch at once from its masks (one draw per table
  among its legal indices, as a learner sampling a uniform legal action), the batch of
  observations and masks built each step. A step here is one learner action per table (the
  bots' actions between are not counted), so steps/s is learner decisions with their
  observation per second. Each game runs on the compiled engine where one covers it
  (``engine="compiled"``: every game here) and on the Python engine (``engine="python"``),
  each row naming its engine;
* **OpenSpiel**: ``legal_actions()``, ``observation_tensor()`` of the player to move, a random
  legal action, ``apply_action``; fanfold's ``python_fanfold_<game>`` beside OpenSpiel's C++
  ``tic_tac_toe``, ``connect_four``, ``leduc_poker`` and ``hearts`` (chance outcomes sampled).
  ``hearts`` has no observation tensor: its like-for-like row builds its
  ``information_state_tensor()`` (5,088 floats) instead, and a second row only steps.

Fano plays with ``turns_per_player=30`` so that random games end within a row.

Run: ``python benchmarks/envs.py --seconds 5 [--tables 64] [--games fano,fantan] [--json OUT]``
(``--games``: only those fanfold games' rows); with ``--paired``,
only each fanfold AEC and vector row against hearts with its information state tensor,
measured in alternating half-second turns (a load that changes during the run falls on both).

With ``--self-play``, batched self-play and compiled opponents against hearts with its tensor,
in steps per CPU-second (the process's CPU time, so that other work on the machine does not
count), each row and hearts measured in alternating turns of ``--seconds`` each, the median of
``--turns`` (5) turns on each side:

* **self-play**: :class:`fanfold.envs.selfplay_env.SelfPlayVectorEnv` over ``--tables``
  tables on its compiled engine, one random legal action per table a step (drawn for the
  batch at once from its masks), the batch of the deciding seats' observations and masks built
  each step; every seat's action is a step (``num_envs`` a call);
* **compiled opponents**: :class:`fanfold.envs.vector_env.FanfoldVectorEnv` on its compiled
  engine with Fano's ladder members in the other seats (``ladder``, ``ladder(style=rush)``,
  and Trionfey's calibrated opponent at hearts' speed, ``ladder(style=honest,nodes=7)``) or
  Fan Tan's ``heuristic``; only the learner's actions counted, the bots' decisions between
  them played in the kernel;
* **step limit**: the same with ``random`` bots and a step limit, which used to step in Python.

``--self-play --opponent GAME PRESET AGENT`` (repeated) measures only compiled-opponent rows
of the agents given, for instance a ladder member's node budgets side by side::

    python benchmarks/envs.py --self-play --seconds 1 --turns 5 \
        --opponent fano trionfey 'ladder(style=rush,nodes=30)' \
        --opponent fano trionfey 'ladder(style=rush)'
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

import fanfold.envs

#: fanfold rows: (game, preset, config options).
FANFOLD: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("morris", "geometric", {}),
    ("fan", "classic", {}),
    ("fantan", "standard", {}),
    ("fano", "classic", {"turns_per_player": 30}),
    ("fano", "trionfey", {"turns_per_player": 30}),
)


@dataclass(frozen=True)
class Rate:
    """One benchmark row."""

    api: str
    name: str
    games: int
    steps: int
    seconds: float

    @property
    def steps_per_second(self) -> float:
        """Steps per second."""
        return self.steps / self.seconds

    def line(self) -> str:
        """The row as text."""
        return (
            f"| {self.api} | {self.name} | {self.steps_per_second:,.0f} | "
            f"{self.games / self.seconds:,.1f} | {self.games} |"
        )


def _timed(api: str, name: str, seconds: float, one_game: Callable[[int], int]) -> Rate:
    games = steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += one_game(games)
        games += 1
    return Rate(api, name, games, steps, time.perf_counter() - start)


def aec_rate(name: str, make: Callable[[], Any], seconds: float) -> Rate:
    """Random games in a PettingZoo AEC environment."""
    env = make()
    rng = np.random.default_rng(0)

    def one_game(number: int) -> int:
        env.reset(seed=number)
        steps = 0
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
        return steps

    return _timed("PettingZoo AEC", name, seconds, one_game)


def random_legal(rng: np.random.Generator, masks: Any) -> Any:
    """One uniformly random legal index per row of ``masks`` (each row with a legal index),
    drawn for the batch at once: one draw per row among its legal indices, as a learner
    sampling a uniform legal action draws (a draw for each of a row's hundreds of indices,
    the argmax of uniform noise times the mask, cost about 3 % of a Trionfey learner's step
    against compiled opponents)."""
    legal = masks.view(np.bool_) if masks.dtype.itemsize == 1 else masks != 0
    rows, width = legal.shape
    found = np.flatnonzero(legal)
    ends = np.searchsorted(found, np.arange(1, rows + 1) * width)
    starts = np.empty_like(ends)
    starts[0] = 0
    starts[1:] = ends[:-1]
    picks = starts + (rng.random(rows) * (ends - starts)).astype(np.int64)
    return found[picks] - np.arange(rows) * width


def vector_rate(name: str, make: Callable[[], Any], seconds: float) -> Rate:
    """Random learner actions in a vector environment; games counts finished tables."""
    env = make()
    rng = np.random.default_rng(0)
    batch, _ = env.reset(seed=0)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions = random_legal(rng, batch["action_mask"])
        batch, _, terminated, truncated, _ = env.step(actions)
        steps += len(actions)
        games += int(np.count_nonzero(terminated | truncated))
    return Rate("Gymnasium vector", name, games, steps, time.perf_counter() - start)


def openspiel_rate(name: str, game: Any, seconds: float, tensor: str = "observation") -> Rate:
    """Random games of an OpenSpiel game, with the mover's observation tensor each step
    (``tensor="information_state"``: its information state tensor; ``""``: none)."""
    rng = random.Random(0)
    kind = game.get_type()
    observe = tensor == "observation" and kind.provides_observation_tensor
    inform = tensor == "information_state" and kind.provides_information_state_tensor

    def one_game(number: int) -> int:
        del number
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            if observe:
                state.observation_tensor(state.current_player())
            elif inform:
                state.information_state_tensor(state.current_player())
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
        return steps

    return _timed("OpenSpiel", name, seconds, one_game)


def _maker(game: str, preset: str, options: dict[str, Any]) -> Callable[[], Any]:
    def make() -> Any:
        return fanfold.envs.aec_env(game, preset, **options)

    return make


def _vector_maker(
    game: str, preset: str, options: dict[str, Any], tables: int, engine: str
) -> Callable[[], Any]:
    def make() -> Any:
        return fanfold.envs.gym_vector_env(game, preset, num_envs=tables, engine=engine, **options)

    return make


def engines(game: str, preset: str, options: dict[str, Any]) -> list[str]:
    """The vector env's engines for a game: compiled (where one covers it) and Python."""
    try:
        fanfold.envs.gym_vector_env(game, preset, num_envs=1, engine="compiled", **options)
    except ValueError:
        return ["python"]
    return ["compiled", "python"]


def rows(
    seconds: float,
    tables: int = 64,
    fanfold_rows: tuple[tuple[str, str, dict[str, Any]], ...] = FANFOLD,
) -> tuple[list[Rate], list[str]]:
    """Every row that can run here (of fanfold, ``fanfold_rows``), and a note for each peer
    that is missing."""
    found: list[Rate] = []
    missing: list[str] = []
    for game, preset, options in fanfold_rows:
        label = f"fanfold {game} ({preset})"
        found.append(aec_rate(label, _maker(game, preset, options), seconds))
    for game, preset, options in fanfold_rows:
        for engine in engines(game, preset, options):
            label = f"fanfold {game} ({preset}), {tables} tables, {engine} engine"
            make = _vector_maker(game, preset, options, tables, engine)
            found.append(vector_rate(label, make, seconds))
    for module in ("leduc_holdem_v4", "texas_holdem_v4", "tictactoe_v3", "connect_four_v3"):
        try:
            peer = importlib.import_module(f"pettingzoo.classic.{module}")
        except ImportError as error:
            missing.append(
                f"PettingZoo {module}: peer missing ({error}; pip install -e '.[bench]')"
            )
            continue
        found.append(aec_rate(f"PettingZoo classic {module}", peer.env, seconds))
    try:
        pyspiel: Any = importlib.import_module("pyspiel")
    except ImportError:
        missing.append("OpenSpiel: peer missing (pip install open_spiel)")
        return found, missing
    fanfold.envs.register_openspiel()
    for game, preset, options in fanfold_rows:
        params: dict[str, Any] = {"variant": preset}
        if options:
            params["options"] = ",".join(f"{key}={value}" for key, value in options.items())
        loaded = pyspiel.load_game(f"python_fanfold_{game}", params)
        found.append(openspiel_rate(f"fanfold {game} ({preset}, Python game)", loaded, seconds))
    for cpp in ("tic_tac_toe", "connect_four", "leduc_poker"):
        found.append(openspiel_rate(f"OpenSpiel {cpp} (C++)", pyspiel.load_game(cpp), seconds))
    hearts = pyspiel.load_game("hearts")
    found.append(
        openspiel_rate(
            "OpenSpiel hearts (C++), with information_state_tensor",
            hearts,
            seconds,
            "information_state",
        )
    )
    found.append(openspiel_rate("OpenSpiel hearts (C++), stepping only", hearts, seconds, ""))
    return found, missing


def _batch_stepper(
    make: Callable[[], Any], clock: Callable[[], float]
) -> Callable[[float], tuple[int, float]]:
    """Steps of one batched env (made once, reset once, random legal actions) for a given
    time on ``clock``: (steps, seconds); every row of the batch is a step."""
    env = make()
    rng = np.random.default_rng(0)
    batch = env.reset(seed=0)[0]

    def run(seconds: float) -> tuple[int, float]:
        nonlocal batch
        steps = 0
        start = clock()
        while clock() - start < seconds:
            actions = random_legal(rng, batch["action_mask"])
            batch = env.step(actions)[0]
            steps += len(actions)
        return steps, clock() - start

    return run


def _vector_stepper(make: Callable[[], Any]) -> Callable[[float], tuple[int, float]]:
    """Steps of one vector env for a given wall-clock time: (steps, seconds)."""
    return _batch_stepper(make, time.perf_counter)


def _aec_stepper(make: Callable[[], Any]) -> Callable[[float], tuple[int, float]]:
    def run(seconds: float) -> tuple[int, float]:
        rate = aec_rate("", make, seconds)
        return rate.steps, rate.seconds

    return run


def paired(
    seconds: float,
    tables: int,
    fanfold_rows: tuple[tuple[str, str, dict[str, Any]], ...] = FANFOLD,
) -> list[tuple[str, float, float]]:
    """Each fanfold AEC and vector row against OpenSpiel's hearts with its information state
    tensor, measured in turns (half a second each, alternating, ``seconds`` in all for each
    side) so that a load that changes during the run falls on both alike; (row, fanfold
    steps/s, hearts steps/s) for each. The vector env is made and reset once."""
    pyspiel: Any = importlib.import_module("pyspiel")
    hearts = pyspiel.load_game("hearts")
    found = []
    for game, preset, options in fanfold_rows:
        steppers = [
            (
                f"PettingZoo AEC fanfold {game} ({preset})",
                _aec_stepper(_maker(game, preset, options)),
            )
        ]
        for engine in engines(game, preset, options):
            steppers.append(
                (
                    f"Gymnasium vector fanfold {game} ({preset}), {tables} tables, {engine} engine",
                    _vector_stepper(_vector_maker(game, preset, options, tables, engine)),
                )
            )
        for name, stepper in steppers:
            ours = theirs = 0
            ours_time = theirs_time = 0.0
            for _ in range(max(1, round(seconds / 0.5))):
                steps, spent = stepper(0.5)
                other = openspiel_rate("", hearts, 0.5, "information_state")
                ours, ours_time = ours + steps, ours_time + spent
                theirs, theirs_time = theirs + other.steps, theirs_time + other.seconds
            found.append((name, ours / ours_time, theirs / theirs_time))
    return found


#: The compiled-opponent rows of ``--self-play``: (game, preset, options, opponents).
OPPONENT_ROWS: tuple[tuple[str, str, dict[str, Any], str], ...] = (
    ("fano", "classic", {"turns_per_player": 30}, "ladder"),
    ("fano", "trionfey", {"turns_per_player": 30}, "ladder(style=rush)"),
    ("fano", "trionfey", {"turns_per_player": 30}, "ladder(style=honest,nodes=7)"),
    ("fano", "classic", {"turns_per_player": 30}, "ladder(nodes=30)"),
    ("fantan", "standard", {}, "heuristic"),
    ("fano", "classic", {"turns_per_player": 30, "max_steps": 40}, "random"),
    ("fantan", "standard", {"max_steps": 40}, "random"),
)


def _cpu_stepper(make: Callable[[], Any]) -> Callable[[float], tuple[int, float]]:
    """Steps of one batched env for ``seconds`` of CPU time: (steps, CPU seconds)."""
    return _batch_stepper(make, time.process_time)


def _hearts_cpu(hearts: Any, seconds: float) -> float:
    """Hearts with its information state tensor for ``seconds`` of CPU time: steps per
    CPU-second."""
    rng = random.Random(0)
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = hearts.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            state.information_state_tensor(state.current_player())
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
    return steps / (time.process_time() - start)


def opponent_row(game: str, preset: str, agent: str) -> tuple[str, str, dict[str, Any], str]:
    """A compiled-opponent row of ``--opponent GAME PRESET AGENT``: Fano with
    ``turns_per_player=30``, as the rows of :data:`OPPONENT_ROWS`. An unknown game, preset or
    agent, or one the compiled engine does not play, raises ``ValueError`` with a sentence."""
    known = sorted({name for name, _, _ in FANFOLD})
    if game not in known:
        raise ValueError(f"--opponent names a game of {', '.join(known)}, not {game!r}")
    options: dict[str, Any] = {"turns_per_player": 30} if game == "fano" else {}
    try:
        env = fanfold.envs.gym_vector_env(
            game, preset, agent, num_envs=1, engine="compiled", **options
        )
    except Exception as error:  # any refusal: its sentence goes to the person running
        raise ValueError(f"--opponent {game} {preset} {agent!r}: {error}") from error
    env.close()
    return (game, preset, options, agent)


def self_play_rows(
    seconds: float,
    tables: int,
    turns: int = 5,
    fanfold_rows: tuple[tuple[str, str, dict[str, Any]], ...] = FANFOLD,
    opponent_rows: tuple[tuple[str, str, dict[str, Any], str], ...] = OPPONENT_ROWS,
) -> list[tuple[str, float, float]]:
    """Each self-play row (``fanfold_rows``) and compiled-opponent row (``opponent_rows``, of
    the games of ``fanfold_rows`` or, where ``fanfold_rows`` is empty, all of them) against
    hearts with its tensor, in steps per CPU-second, alternating turns of ``seconds``: (row,
    the median of its turns, the median of hearts' turns) for each."""
    from fanfold.envs.selfplay_env import SelfPlayVectorEnv

    pyspiel: Any = importlib.import_module("pyspiel")
    hearts = pyspiel.load_game("hearts")
    steppers: list[tuple[str, Callable[[float], tuple[int, float]]]] = []
    for game, preset, options in fanfold_rows:

        def make(game: str = game, preset: str = preset, options: Any = options) -> Any:
            return SelfPlayVectorEnv(game, preset, num_envs=tables, engine="compiled", **options)

        name = f"self-play fanfold {game} ({preset}), {tables} tables, every seat's step"
        steppers.append((name, _cpu_stepper(make)))
    names = {game for game, _, _ in fanfold_rows or FANFOLD}
    for game, preset, options, opponents in opponent_rows:
        if game not in names:
            continue

        def make_vector(
            game: str = game, preset: str = preset, options: Any = options, bots: str = opponents
        ) -> Any:
            return fanfold.envs.gym_vector_env(
                game, preset, bots, num_envs=tables, engine="compiled", **options
            )

        limit = options.get("max_steps")
        what = f"{opponents} opponents" + ("" if limit is None else f", max_steps={limit}")
        name = f"vector fanfold {game} ({preset}), {tables} tables, {what}, learner's step"
        steppers.append((name, _cpu_stepper(make_vector)))
    found = []
    for name, stepper in steppers:
        ours: list[float] = []
        theirs: list[float] = []
        for _ in range(turns):
            steps, spent = stepper(seconds)
            ours.append(steps / spent)
            theirs.append(_hearts_cpu(hearts, seconds))
        found.append((name, float(np.median(ours)), float(np.median(theirs))))
    return found


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print a table (Markdown), optionally writing JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per row")
    parser.add_argument("--json", default=None, help="also write the rows to this JSON file")
    parser.add_argument("--tables", type=int, default=64, help="tables of the vector rows")
    parser.add_argument(
        "--games", default=None, help="only these fanfold games' rows (comma-separated names)"
    )
    parser.add_argument(
        "--paired",
        action="store_true",
        help="only compare each fanfold row with hearts, measured in alternating turns",
    )
    parser.add_argument(
        "--self-play",
        action="store_true",
        help="batched self-play and compiled opponents against hearts, steps per CPU-second",
    )
    parser.add_argument("--turns", type=int, default=5, help="alternations of --self-play")
    parser.add_argument(
        "--opponent",
        nargs=3,
        action="append",
        metavar=("GAME", "PRESET", "AGENT"),
        help="with --self-play, only compiled-opponent rows, one for each --opponent given "
        "(e.g. --opponent fano trionfey 'ladder(style=rush,nodes=30)')",
    )
    args = parser.parse_args(argv)
    opponents = OPPONENT_ROWS
    if args.opponent:
        if not args.self_play:
            parser.error("--opponent is a row of --self-play: give --self-play too")
        try:
            opponents = tuple(opponent_row(*row) for row in args.opponent)
        except ValueError as error:
            parser.error(str(error))
    chosen = FANFOLD
    if args.games is not None:
        names = args.games.split(",")
        known = sorted({game for game, _, _ in FANFOLD})
        if not set(names) <= set(known):
            parser.error(f"--games names games of {', '.join(known)}, not {args.games!r}")
        chosen = tuple(row for row in FANFOLD if row[0] in names)
    if args.self_play:
        print(
            f"Python {platform.python_version()}; steps per CPU-second, the median of "
            f"{args.turns} alternating turns of {args.seconds:g} CPU-s on each side"
        )
        print("| environment | steps per CPU-s | hearts with its tensor | ratio |")
        print("|---|---:|---:|---|")
        measured = self_play_rows(
            args.seconds, args.tables, args.turns, () if args.opponent else chosen, opponents
        )
        for name, ours, theirs in measured:
            ratio = ours / theirs
            print(f"| {name} | {ours:,.0f} | {theirs:,.0f} | {ratio:.2f} x hearts |")
        return
    if args.paired:
        print(f"Python {platform.python_version()}; each side {args.seconds:g} s in 0.5 s turns")
        print("| API and environment | steps/s | hearts with its tensor, steps/s | ratio |")
        print("|---|---:|---:|---|")
        for name, ours, theirs in paired(args.seconds, args.tables, chosen):
            ratio = theirs / ours
            how = f"{ratio:.1f} times slower" if ratio >= 1 else f"{1 / ratio:.1f} times faster"
            print(f"| {name} | {ours:,.0f} | {theirs:,.0f} | {how} |")
        return
    found, missing = rows(args.seconds, args.tables, chosen)
    print(f"Python {platform.python_version()} on {platform.machine()}, {args.seconds:g} s per row")
    print("| API | environment | steps/s | games/s | games |")
    print("|---|---|---:|---:|---:|")
    for row in found:
        print(row.line())
    for note in missing:
        print(note)
    hearts = next((row for row in found if row.name.startswith("OpenSpiel hearts")), None)
    if hearts is not None:
        print(f"Against {hearts.name} ({hearts.steps_per_second:,.0f} steps/s):")
        for row in found:
            if row.name.startswith("fanfold") and row.api != "OpenSpiel":
                ratio = hearts.steps_per_second / row.steps_per_second
                how = f"{ratio:.1f} times slower" if ratio >= 1 else f"{1 / ratio:.1f} times faster"
                print(f"- {row.api} {row.name}: {how}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(
                {
                    "command": "python benchmarks/envs.py --seconds "
                    + f"{args.seconds:g} --tables {args.tables}",
                    "python": platform.python_version(),
                    "rows": [asdict(row) for row in found],
                    "missing": missing,
                },
                handle,
                indent=2,
            )


if __name__ == "__main__":
    main()
