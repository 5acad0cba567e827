"""A balance experiment: one game, the variants to compare, who plays, how many games.

An experiment is a small TOML file (or the same from the command line)::

    game = "fano"
    games = 400            # per variant; a multiple of the seats when the players rotate
    seed = 1               # deal r of every variant is dealt from seed + r
    players = ["mcts(iterations=50)", "mcts(iterations=50); forbid=oversum"]
    rotate = true          # each deal played once per rotation of the players over the seats

    [[variant]]
    name = "free"
    preset = "specials-choice"

    [[variant]]
    name = "prestige only"
    preset = "specials-choice"
    options = { oversum_prestige_only = true }
    # players = [...]      # a variant may seat its own players
    # distinguishing = ["oversum"]  # the action kinds this variant is about (for the report)

A *player* is an agent text, optionally followed by ``; forbid=KIND,KIND``: the action kinds
(:mod:`fanfold.core.kinds`) that player's agent is never offered, wherever it sits. With fewer
players than seats the last fills the rest. With ``rotate`` (the default) every deal is played
once per rotation of the players over the seats, so that each player meets every seat of every
deal and the luck of the deal cancels out of the comparison between players; every variant is
played on the same deals, so the comparison between variants is not at the mercy of the deals
either.
"""

from __future__ import annotations

import dataclasses
import importlib
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from fanfold.agents.base import parse_agent
from fanfold.core import lab_refusals as _lab_refusals  # noqa: F401  (registers the codes)
from fanfold.core.config import GameConfig, JSONObject, JSONValue
from fanfold.core.errors import ConfigError, FanfoldError, ParamValue, Refusal, reason_of
from fanfold.core.files import UnreadableFileError, read_text
from fanfold.core.kinds import action_kind, check_names, forbids
from fanfold.core.plugin import load_reference
from fanfold.core.registry import AnyGame, ByGame, get_game, plugin_of, set_up
from fanfold.play.batch import Job

#: How a refusal names an experiment given without a file (the command line's).
EXPERIMENT = Refusal("balance.the_experiment")
#: How a refusal names an experiment given on ``fanfold balance``'s command line.
COMMAND_LINE = Refusal("balance.the_command_line")

_TOP_KEYS = {"game", "games", "seed", "players", "rotate", "variant", "title"}
_VARIANT_KEYS = {"name", "preset", "options", "players", "distinguishing"}


def lab_player(game: AnyGame) -> str | None:
    """The player an experiment seats in every seat when neither its file nor its command
    line names one (``GamePlugin.lab_player``; ``None``: the game has none): fast enough for
    thousands of games a variant and as strong as the game's ``medium`` where that is
    affordable (Fano's: the turn planner with one deal and 40 positions a decision, about as
    strong as ``medium`` in the classic game and several times faster in Trionfey;
    ``docs/balance.md`` has the measurements). The shipped experiment files name their
    players themselves, so that they replay the same games if this changes."""
    return plugin_of(game).lab_player


#: Each game's lab player (:func:`lab_player`), by game name.
LAB_PLAYERS: Mapping[str, str] = ByGame(lambda plugin: plugin.lab_player)


@dataclass(frozen=True)
class Player:
    """An agent and the action kinds it may not choose.

    Attributes:
        agent: the agent's canonical text.
        forbidden: action kinds never offered to it (normalised names).
    """

    agent: str
    forbidden: tuple[str, ...] = ()

    def __str__(self) -> str:
        if not self.forbidden:
            return self.agent
        return f"{self.agent}; forbid={','.join(self.forbidden)}"


@cache
def restriction_names(game: AnyGame) -> frozenset[str]:
    """The names a restriction may use in ``game``: every word of every action kind the game
    has (:func:`fanfold.core.kinds.action_kind` of each action class of the game's ``actions``
    module, with each of its flags; and the kinds only a position tells, as
    :func:`fanfold.core.kinds.played_kind` names them: Fano's ``bluff`` and
    ``prestige_joker``, the game's ``played_kinds``)."""
    module = importlib.import_module(f"{type(game).__module__.rpartition('.')[0]}.actions")
    kinds: set[str] = set()
    for cls in vars(module).values():
        if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
            continue
        if cls.__module__ != module.__name__:
            continue
        fields = dataclasses.fields(cls)
        flags = [field.name for field in fields if field.type in (bool, "bool")]
        for flag in (None, *flags):
            action = object.__new__(cls)
            for field in fields:
                value: object = field.name == flag if field.name in flags else 0
                object.__setattr__(action, field.name, value)
            kinds.add(action_kind(action))
    kinds.update(game.played_kinds)
    return frozenset(part for kind in kinds for part in kind.split("+"))


def offered_kinds(game: AnyGame, config: GameConfig) -> frozenset[str] | None:
    """Every action kind ``config`` can ever offer a seat: the kinds of the actions in its
    environment action table (the game's ``encoding``, :mod:`fanfold.core.plugin`, which lists
    every action the variant can offer, read through the plugin's reference), with the kinds
    only a position tells (:attr:`~fanfold.core.game.Game.played_kinds`) whose action can be
    offered. ``None`` where that cannot be told: a game with no encoding, or a config its
    encoding does not cover."""
    reference = plugin_of(game).encoding
    if reference is None:
        return None
    try:
        encoding: Any = load_reference(reference)(game, config)
    except FanfoldError:
        return None
    kinds = {action_kind(encoding.action(0, index)) for index in range(encoding.num_actions)}
    bases = {kind.partition("+")[0] for kind in kinds}
    kinds.update(kind for kind in game.played_kinds if kind.partition("+")[0] in bases)
    return frozenset(kinds)


def unusable_restrictions(
    game: AnyGame, variants: Sequence[Variant], where: ParamValue = EXPERIMENT
) -> ConfigError | None:
    """The refusal of a player's restriction where a name of it forbids nothing in any variant
    that seats the player (:func:`offered_kinds`: no such action is ever offered there, so the
    restriction would change nothing and a comparison with a free player would measure
    nothing, about 50%), else ``None``. A variant whose kinds cannot be told is taken to allow
    every name."""
    seating: dict[Player, list[tuple[str, frozenset[str] | None]]] = {}
    for variant in variants:
        kinds = offered_kinds(game, variant.config)
        for player in dict.fromkeys(variant.players):
            seating.setdefault(player, []).append((variant.name, kinds))
    for player, places in seating.items():
        if any(kinds is None for _, kinds in places):
            continue
        idle = [
            name
            for name in player.forbidden
            if not any(forbids((name,), kind) for _, kinds in places for kind in kinds or ())
        ]
        if not idle:
            continue
        names = " or ".join(repr(name) for name in idle)
        offered = "; ".join(
            f"{label!r}: {', '.join(sorted(k for k in kinds or () if k not in game.played_kinds))}"
            for label, kinds in places
        )
        shown = repr(str(player))
        if len(places) == 1:
            return ConfigError(
                Refusal(
                    "balance.idle_in_variant",
                    where=where,
                    player=shown,
                    names=names,
                    offered=offered,
                )
            )
        return ConfigError(
            Refusal(
                "balance.idle_in_variants", where=where, player=shown, names=names, offered=offered
            )
        )
    return None


def parse_player(text: str, game: AnyGame) -> Player:
    """``"AGENT"`` or ``"AGENT; forbid=KIND,KIND"`` into a :class:`Player`.

    Raises:
        ConfigError: an unknown agent, a malformed restriction or a name that is no part of
            any action kind of the game (the message lists the valid names).
    """
    agent_text, sep, rest = text.partition(";")
    forbidden: tuple[str, ...] = ()
    if sep:
        key, eq, names = rest.partition("=")
        if key.strip().lower() != "forbid" or not eq or not names.strip():
            raise ConfigError(
                Refusal(
                    "balance.forbid_form",
                    text=repr(text),
                    form="forbid=KIND,KIND",
                    example="'heuristic; forbid=oversum'",
                )
            )
        forbidden = check_names(names.split(","))
        valid = restriction_names(game)
        unknown = [name for name in forbidden if name not in valid]
        if unknown:
            raise ConfigError(
                Refusal(
                    "balance.no_kind_to_forbid",
                    text=repr(text),
                    game=game.title,
                    names=" or ".join(map(repr, unknown)),
                    valid=", ".join(sorted(valid)),
                )
            )
    try:
        spec = parse_agent(agent_text.strip())
        spec.create(game)
    except FanfoldError as error:
        raise ConfigError(
            Refusal("balance.player", text=repr(text), reason=reason_of(error))
        ) from None
    return Player(str(spec), forbidden)


@dataclass(frozen=True)
class Variant:
    """One arm of an experiment: a config and the players seated."""

    name: str
    config: GameConfig
    players: tuple[Player, ...]
    #: the action kinds (restriction names) the variant is about, as the experiment file
    #: names them; empty: the report derives them from what the players were offered
    distinguishing: tuple[str, ...] = ()


@dataclass(frozen=True)
class Experiment:
    """A checked experiment (see the module text)."""

    game: AnyGame
    variants: tuple[Variant, ...]
    games: int
    seed: int
    rotate: bool = True
    title: str = ""

    def seats(self, variant: Variant) -> int:
        """Seats at the table in ``variant``."""
        return self.game.num_players(variant.config)

    def lineup(self, variant: Variant) -> tuple[Player, ...]:
        """The player of each seat in the first game of a deal (the last player filling up)."""
        count = self.seats(variant)
        players = variant.players
        return players + (players[-1],) * (count - len(players))

    def rounds(self, variant: Variant) -> int:
        """Deals played in ``variant``."""
        return self.games // self.seats(variant) if self.rotate else self.games

    def jobs(self) -> list[Job]:
        """One job a game: variant, deal and rotation; the payload is the arena worker's."""
        jobs: list[Job] = []
        for number, variant in enumerate(self.variants):
            players = self.lineup(variant)
            count = len(players)
            config = variant.config.to_json()
            rotations = count if self.rotate else 1
            for round_ in range(self.rounds(variant)):
                for rotation in range(rotations):
                    # as rotate_seats: game k of a deal moves every player k seats on
                    order = [(seat - rotation) % count for seat in range(count)]
                    seats: list[JSONValue] = [players[index].agent for index in order]
                    forbidden: list[JSONValue] = [list(players[index].forbidden) for index in order]
                    payload: JSONObject = {
                        "game": self.game.id,
                        "config": config,
                        "seats": seats,
                        "forbidden": forbidden,
                        "players": list(order),
                        "seed": self.seed + round_,
                        "agent_seed": (self.seed + round_) * 1000 + rotation * 100,
                    }
                    jobs.append(Job(f"{number}:{round_}:{rotation}", payload))
        return jobs

    def to_json(self) -> JSONObject:
        """The experiment as it was run (for the report)."""
        variants: list[JSONValue] = [
            {
                "name": variant.name,
                "config": variant.config.to_json(),
                "players": [str(player) for player in self.lineup(variant)],
                **(
                    {"distinguishing": list(variant.distinguishing)}
                    if variant.distinguishing
                    else {}
                ),
            }
            for variant in self.variants
        ]
        return {
            "game": self.game.id,
            "games": self.games,
            "seed": self.seed,
            "rotate": self.rotate,
            "title": self.title,
            "variants": variants,
        }


def build_experiment(
    game_name: str,
    variants: Sequence[Mapping[str, Any]],
    players: Sequence[str],
    *,
    games: int,
    seed: int = 1,
    rotate: bool = True,
    title: str = "",
    where: ParamValue = EXPERIMENT,
) -> Experiment:
    """Check an experiment's parts and build it; every message names what is wrong.

    Args:
        game_name: the game.
        variants: each with ``name`` (optional), ``preset`` (optional), ``options`` (a table
            of option values, optional) and ``players`` (optional, else ``players``).
        players: the players of every variant that names none (none at all: the game's
            :func:`lab_player`, where it has one).
        games: games per variant.
        seed: the first deal's seed.
        rotate: play every deal once per rotation of the players over the seats.
        title: a heading for the report.
        where: how messages name the source (a file name).

    Raises:
        ConfigError: anything wrong, named; among them a restriction that names a kind no
            variant seating its player offers (:func:`unusable_restrictions`).
    """
    try:
        game = get_game(game_name)
    except FanfoldError as error:
        raise ConfigError(Refusal("balance.at", where=where, reason=reason_of(error))) from None
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ConfigError(Refusal("balance.games", where=where, value=repr(games)))
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ConfigError(Refusal("balance.seed", where=where, value=repr(seed)))
    if not variants:
        variants = [{}]
    built: list[Variant] = []
    names: set[str] = set()
    for number, entry in enumerate(variants, start=1):
        unknown = set(entry) - _VARIANT_KEYS
        if unknown:
            raise ConfigError(
                Refusal(
                    "balance.variant_keys",
                    where=where,
                    number=number,
                    unknown=", ".join(sorted(unknown)),
                    keys=", ".join(sorted(_VARIANT_KEYS)),
                )
            )
        preset = entry.get("preset")
        label = str(entry.get("name") or preset or f"variant {number}")
        if label in names:
            raise ConfigError(Refusal("balance.variant_twice", where=where, label=repr(label)))
        names.add(label)
        place = (
            Refusal("balance.variant_place", where=where, label=repr(label))
            if entry.get("name") or preset
            else Refusal("balance.variant_number_place", where=where, number=number)
        )
        config = _config(game, preset, entry.get("options"), place)
        texts = entry.get("players", players)
        default = lab_player(game)
        if not texts and "players" not in entry and default is not None:
            texts = [default]
        if isinstance(texts, str):
            texts = [texts]
        if not isinstance(texts, list | tuple) or not texts:
            example = '["hard", "hard; forbid=oversum"]'
            raise ConfigError(Refusal("balance.name_players", where=place, example=example))
        try:
            seated = tuple(parse_player(str(text), game) for text in texts)
        except ConfigError as error:
            raise ConfigError(Refusal("balance.at", where=place, reason=reason_of(error))) from None
        seats = game.num_players(config)
        if len(seated) > seats:
            raise ConfigError(
                Refusal("balance.too_many_players", where=place, players=len(seated), seats=seats)
            )
        if rotate and games % seats:
            raise ConfigError(
                Refusal(
                    "balance.rotate_games",
                    where=place,
                    seats=seats,
                    games=games + seats - games % seats,
                )
            )
        distinguishing = _distinguishing(game, entry.get("distinguishing", ()), place)
        built.append(Variant(label, config, seated, distinguishing))
    refusal = unusable_restrictions(game, built, where)
    if refusal is not None:
        raise refusal
    return Experiment(game, tuple(built), games, seed, rotate, title)


def _distinguishing(game: AnyGame, names: Any, where: ParamValue) -> tuple[str, ...]:
    """A variant's ``distinguishing`` action kinds, checked like a restriction's names."""
    if isinstance(names, str):
        names = [names]
    if not isinstance(names, list | tuple) or not all(isinstance(n, str) for n in names):
        raise ConfigError(
            Refusal("balance.distinguishing_list", where=where, example='["oversum"]')
        )
    try:
        checked = check_names(names)
    except ConfigError as error:
        raise ConfigError(
            Refusal("balance.distinguishing", where=where, reason=reason_of(error))
        ) from None
    valid = restriction_names(game)
    unknown = [name for name in checked if name not in valid]
    if unknown:
        raise ConfigError(
            Refusal(
                "balance.no_kind",
                where=where,
                game=game.title,
                names=" or ".join(map(repr, unknown)),
                valid=", ".join(sorted(valid)),
            )
        )
    return checked


def _config(game: AnyGame, preset: Any, options: Any, where: ParamValue) -> GameConfig:
    try:
        if options is not None and not isinstance(options, Mapping):
            example = "{ oversum_prestige_only = true }"
            raise ConfigError(Refusal("balance.options_table", example=example))
        variant = None if preset is None else str(preset)
        config: GameConfig = set_up(game, variant, options)[1]
    except FanfoldError as error:
        raise ConfigError(Refusal("balance.at", where=where, reason=reason_of(error))) from None
    return config


def load_experiment(path: Path) -> Experiment:
    """Read and check an experiment file (TOML, see the module text).

    Raises:
        ConfigError: the file is missing, not TOML, or wrong in any part (named).
    """
    try:
        data = tomllib.loads(read_text(path))
    except UnreadableFileError as error:
        raise ConfigError(Refusal("file.unreadable", path=str(path), why=error.why)) from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(Refusal("balance.not_toml", path=str(path), why=str(error))) from None
    unknown = set(data) - _TOP_KEYS
    if unknown:
        raise ConfigError(
            Refusal(
                "balance.top_keys",
                where=str(path),
                unknown=", ".join(sorted(unknown)),
                keys=", ".join(sorted(_TOP_KEYS)),
            )
        )
    if "game" not in data:
        raise ConfigError(Refusal("balance.name_game", where=str(path), example='game = "fano"'))
    variants = data.get("variant", [])
    if not isinstance(variants, list) or not all(isinstance(v, dict) for v in variants):
        raise ConfigError(Refusal("balance.variant_tables", where=str(path), example="[[variant]]"))
    players = data.get("players", [])
    if isinstance(players, str):
        players = [players]
    rotate = data.get("rotate", True)
    if not isinstance(rotate, bool):
        raise ConfigError(Refusal("balance.rotate", where=str(path), value=repr(rotate)))
    return build_experiment(
        str(data["game"]),
        variants,
        players,
        games=data.get("games", 100),
        seed=data.get("seed", 1),
        rotate=rotate,
        title=str(data.get("title", "")),
        where=str(path),
    )


def parse_variant_text(text: str) -> dict[str, Any]:
    """A command-line variant, ``[LABEL:] [PRESET] [name=value ...]``, as a variant table.

    >>> parse_variant_text("strict: specials-choice oversum_prestige_only=true")["options"]
    {'oversum_prestige_only': 'true'}
    >>> parse_variant_text("players=3")
    {'options': {'players': '3'}}
    """
    label, sep, rest = text.partition(":")
    if not sep or "=" in label:
        label, rest = "", text
    entry: dict[str, Any] = {}
    if label.strip():
        entry["name"] = label.strip()
    options: dict[str, str] = {}
    for word in rest.split():
        name, eq, value = word.partition("=")
        if eq:
            options[name] = value
        elif "preset" in entry:
            raise ConfigError(
                Refusal(
                    "balance.one_preset",
                    text=repr(text),
                    preset=repr(entry["preset"]),
                    word=repr(word),
                )
            )
        else:
            entry["preset"] = word
    if options:
        entry["options"] = options
    return entry
