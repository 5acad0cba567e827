"""Setting a game up: who sits where, which seed, and whole games played between agents.

These are the functions every front end calls instead of deciding seats and seeds itself::

    >>> from fanfold.core.registry import get_game
    >>> morris = get_game("morris")
    >>> plan_seats(morris, morris.default_config(), ["random"])
    ['random', 'perfect']
    >>> plan_seats(morris, morris.default_config())
    ['human', 'perfect']
    >>> rotate_seats(["human", "perfect"], 1)
    ['perfect', 'human']
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from fanfold.agents.base import parse_agent, strongest_agent, with_time_cap
from fanfold.core.config import GameConfig
from fanfold.core.errors import ConfigError, Refusal
from fanfold.core.records import GameRecord
from fanfold.core.registry import AnyGame
from fanfold.play.table import HUMAN, Seat, Table


def default_agent(game: AnyGame, seconds: float | None = None) -> str:
    """The strongest agent for ``game``, as text; with ``seconds``, capped at that many seconds
    a decision where the agent takes a time cap (interactive play asks for one)."""
    return str(with_time_cap(parse_agent(strongest_agent(game)), seconds))


def plan_seats(
    game: AnyGame,
    config: GameConfig,
    names: Sequence[str] = (),
    *,
    default: str | None = None,
) -> list[str]:
    """Fill every seat: the names given, in seat order, then ``default`` (the strongest agent
    unless given) in the rest; with no names at all, the first seat is a human.

    Raises:
        ConfigError: more names than the game has seats.
    """
    count = game.num_players(config)
    if len(names) > count:
        raise ConfigError(
            Refusal("setup.too_many_seats", given=len(names), game=game.title, count=count)
        )
    filler = default if default is not None else default_agent(game)
    planned = [name.strip() for name in names]
    planned += [HUMAN if not names and n == 0 else filler for n in range(len(names), count)]
    return planned


def make_seats(game: AnyGame, names: Sequence[str], agent_seed: int = 0) -> list[Seat]:
    """A :class:`Seat` per name: ``"human"`` or an agent text (``mcts(iterations=500)``), the
    agent in seat ``n`` seeded with ``agent_seed + n``.

    Raises:
        UnknownAgentError, NotationError, ConfigError: a name that is not a valid agent.
    """
    seats: list[Seat] = []
    for number, name in enumerate(names):
        if name.strip().lower() == HUMAN:
            seats.append(Seat(HUMAN))
            continue
        spec = parse_agent(name)
        seats.append(Seat(str(spec), spec.create(game, agent_seed + number)))
    return seats


#: Bits of a new game's seed where the seed would tell hidden cards (a dealt game), and of a
#: bots' stream: too many to search, so that no seat can find the deal from the cards it sees.
SEED_BITS = 128
#: Open deals (Fan patience, where every card is face up) draw a deal number from 1 to this,
#: which a person can read and type again (PySolFC's numbering).
OPEN_DEALS = 999_999


def fresh_seed(game: AnyGame | None = None) -> int:
    """A new seed from the operating system's generator (:mod:`secrets`): 128 bits for a game
    with hidden information (or when the game is not given), a deal number from 1 to
    :data:`OPEN_DEALS` for a game whose every card is in view."""
    if game is not None and not game.has_hidden_information:
        return secrets.randbelow(OPEN_DEALS) + 1
    return secrets.randbits(SEED_BITS)


def fresh_agent_seed() -> int:
    """A seed for the bots of one game, drawn apart from the deal's (:data:`SEED_BITS` bits),
    so that what the bots choose says nothing about the deal and the deal nothing about them."""
    return secrets.randbits(SEED_BITS)


def choose_seed(
    seed: int | None = None, deal: int | None = None, *, game: AnyGame | None = None
) -> int:
    """The seed of a new game: ``seed`` or ``deal`` (Fan's deal numbers are seeds) when given,
    else a fresh one (:func:`fresh_seed` for ``game``).

    Raises:
        ConfigError: both given and different, or a negative number.
    """
    if seed is not None and deal is not None and seed != deal:
        raise ConfigError(Refusal("setup.seed_and_deal"))
    chosen = seed if seed is not None else deal
    if chosen is None:
        return fresh_seed(game)
    if chosen < 0:
        raise ConfigError(Refusal("setup.negative_seed", seed=chosen))
    return chosen


def new_table(
    game: AnyGame,
    config: GameConfig | None = None,
    seats: Sequence[str | Seat] = (),
    *,
    seed: int | None = None,
    agent_seed: int = 0,
    start_position: str | None = None,
    allow_undo: bool = True,
) -> Table:
    """A table at the start of a game: seats planned (see :func:`plan_seats`), agents made,
    the state dealt from ``seed`` (or read from ``start_position``).

    Raises:
        FanfoldError: an unknown agent, too many seats, a bad position or config.
    """
    config = config if config is not None else game.default_config()
    named = [seat for seat in seats if isinstance(seat, str)]
    if named and len(named) != len(seats):
        raise ConfigError(Refusal("setup.mixed_seats"))
    if named or not seats:
        seat_list = make_seats(game, plan_seats(game, config, named), agent_seed)
    else:
        seat_list = [seat for seat in seats if isinstance(seat, Seat)]
    chosen = choose_seed(seed, game=game)
    if start_position is not None:
        state = game.parse_position(start_position, config)
    else:
        state = game.new_state(config, chosen)
    record = GameRecord.start(
        game,
        game.config_of(state),
        chosen,
        start_position=start_position,
        players=[seat.player for seat in seat_list],
    )
    return Table(game, state, record, seat_list, allow_undo=allow_undo)


def play_game(
    game: AnyGame,
    config: GameConfig | None,
    seats: Sequence[str | Seat],
    seed: int = 0,
    *,
    agent_seed: int = 0,
    max_actions: int = 1_000_000,
) -> Table:
    """Play a whole game between agents from the dealt start; returns the finished table
    (``table.finish()`` is its record, ``table.outcome`` how it ended).

    Raises:
        ValueError: a human seat among them (nobody would answer it).
        RuntimeError: the game did not end within ``max_actions`` actions.
    """
    table = new_table(game, config, seats, seed=seed, agent_seed=agent_seed, allow_undo=False)
    if table.humans:
        raise ValueError("play_game seats agents only; a human seat would wait forever")
    table.play_agents(max_actions=max_actions)
    return table


def rotate_seats(names: Sequence[str], game_number: int) -> list[str]:
    """The seats of game ``game_number`` (0-based) of a match: each game moves every player
    one seat on, so that in two-player games the colours swap, as Fano330-R-Morris's rules
    ask ("play again swapping colours")."""
    if not names:
        return []
    shift = game_number % len(names)
    return list(names[-shift:]) + list(names[:-shift]) if shift else list(names)


def seat_in_game(player: int, players: int, game_number: int) -> int:
    """The seat that player ``player`` (their seat in the first game) takes in game
    ``game_number`` of a match seated by :func:`rotate_seats`.

    >>> [seat_in_game(0, 2, n) for n in range(3)]
    [0, 1, 0]
    """
    return (player + game_number) % players


def match_totals(records: Sequence[GameRecord], players: int) -> list[float]:
    """Each player's total return over the finished games of a match seated by
    :func:`rotate_seats`, indexed by the player's seat in the first game."""
    totals = [0.0] * players
    for number, record in enumerate(records):
        returns = record.outcome.get("returns") if record.outcome is not None else None
        if not isinstance(returns, list) or len(returns) != players:
            continue
        for player in range(players):
            value = returns[seat_in_game(player, players, number)]
            if isinstance(value, int | float):
                totals[player] += float(value)
    return totals
