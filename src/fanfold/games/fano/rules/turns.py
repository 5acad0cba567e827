"""The flow of turns: the deal, whose turn comes next, partnerships, the end of the game."""

from __future__ import annotations

from typing import cast

from fanfold.core.game import Outcome, Termination
from fanfold.core.phrases import Phrase, phrases
from fanfold.core.rng import derive_rng
from fanfold.games.fano.config import FanoConfig, Teams
from fanfold.games.fano.rules.deck import after_draw_phase, draw_to_three, shuffled_decks
from fanfold.games.fano.rules.zones import edit_state, replace_seat
from fanfold.games.fano.state import FanoState, Phase, PlayerState


def last_turn(config: FanoConfig) -> int:
    """The last turn played before the game ends drawn: each player gets
    ``turns_per_player`` turns, whatever the table size."""
    return config.last_turn


def new_state(config: FanoConfig, seed: int) -> FanoState:
    """Shuffle each player's draw pile, pick the first player at random and start turn 1."""
    players = shuffled_decks(config, seed)
    first = derive_rng(seed, "first player").randrange(config.players)
    return dealt_state(config, seed, players, first)


def dealt_state(
    config: FanoConfig, seed: int, players: tuple[PlayerState, ...], first: int
) -> FanoState:
    """The game dealt: each seat's draw pile in ``players``, ``first`` plays turn 1 (and holds
    priority in partnerships); its draw phase is played."""
    priority = first if config.teams is not Teams.NONE else 0
    state = FanoState(config, seed, players, first, Phase.MAIN, 0, priority=priority)
    return start_turn(state, first, 1)


def start_turn(state: FanoState, seat: int, turn: int) -> FanoState:
    """Begin ``seat``'s turn ``turn``: the draw phase (or the end of the game at the limit)."""
    if turn > last_turn(state.config):
        return edit_state(
            state, turn_player=seat, turn=turn, phase=Phase.OVER, pending=None, target_seat=None
        )
    # draw_to_three reads only the config and the seed of the state it is given.
    player, asked = draw_to_three(state, seat, state.players[seat])
    phase = Phase.DRAW_SHUFFLE if asked else after_draw_phase(state.config, player)
    return edit_state(
        state,
        players=replace_seat(state.players, seat, player),
        turn_player=seat,
        phase=phase,
        turn=turn,
        pending=None,
        target_seat=None,
    )


def end_turn(state: FanoState, players: tuple[PlayerState, ...]) -> FanoState:
    """The turn player's turn ends with ``players``: the next player's turn begins."""
    following, priority = next_turn(state)
    return start_turn(
        edit_state(state, players=players, priority=priority), following, state.turn + 1
    )


def after_main_action(
    state: FanoState, players: tuple[PlayerState, ...], seat: int, me: PlayerState
) -> FanoState:
    """``seat`` (now ``me``) made a main-phase move: an empty hand draws three at once (the
    main phase stops to ask about a Temporary Joker when the draw needs a reshuffle)."""
    phase = state.phase
    if not me.hand:
        me, asked = draw_to_three(state, seat, me)
        if asked:
            phase = Phase.SHUFFLE
    return edit_state(state, players=replace_seat(players, seat, me), phase=phase)


# ----------------------------------------------------------------------------- partnerships
def teammates(config: FanoConfig, seat: int) -> tuple[int, ...]:
    """``seat`` and its partners, in clockwise order from ``seat`` (just ``seat`` without
    partnerships): odd seats against even seats."""
    if config.teams is Teams.NONE:
        return (seat,)
    count = config.players
    return tuple((seat + step) % count for step in range(0, count, 2))


def next_turn(state: FanoState) -> tuple[int, int]:
    """Who plays the next turn, and who then holds priority. In partnerships the priority
    holder plays first, then each partner clockwise; then priority passes clockwise to the
    next seat, in the other partnership."""
    count = len(state.players)
    if state.config.teams is Teams.NONE:
        return (state.turn_player + 1) % count, 0
    following = (state.turn_player + 2) % count
    if following != state.priority:
        return following, state.priority
    passed = (state.priority + 1) % count
    return passed, passed


def opponents(state: FanoState, seat: int) -> tuple[int, ...]:
    """The seats ``seat`` may attack now: the next player (classic, and any 2-player game);
    Trionfey, any opponent until the turn's first declaration chooses one."""
    if not state.config.trionfey or len(state.players) == 2:
        return (state.target_of(seat),)
    if state.target_seat is not None:
        return (state.target_seat,)
    partners = teammates(state.config, seat)
    return tuple(other for other in range(len(state.players)) if other not in partners)


# ----------------------------------------------------------------------------------- the end
def winner(state: FanoState) -> int | None:
    """The seat that reached the promotions needed, if any."""
    target = state.config.promotions_to_win
    for seat, player in enumerate(state.players):
        if player.level >= target:
            return seat
    return None


phrases(
    {
        "fano.once": "once",
        "fano.twice": "twice",
        "fano.times": "{count} times",
        "fano.partnership_wins": (
            "the partnership of Players {names} promoted its commander {times} and wins"
        ),
        "fano.player_wins": "Player {number} promoted {times} and wins",
        "fano.turn_limit": (
            "the turn limit ({turns} turns each, {last} in all) was reached: a draw"
        ),
    }
)


def times(count: int) -> str:
    """How often, in words: ``once``, ``twice``, else ``N times``."""
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def _times_words(count: int) -> Phrase:
    """:func:`times` as a :class:`~fanfold.core.phrases.Phrase`."""
    if count in (1, 2):
        return Phrase("fano.once" if count == 1 else "fano.twice")
    return Phrase("fano.times", count=count)


def outcome(state: FanoState) -> Outcome | None:
    """+1 for the winner and -1 for the others; 0 for all at the turn limit."""
    return outcome_of(state.config, winner(state), state.phase is Phase.OVER)


def outcome_of(config: FanoConfig, seat: int | None, over: bool) -> Outcome | None:
    """:func:`outcome` of a game whose winner is ``seat`` (:func:`winner`; ``None``: none
    yet) and whose phase is or is not :attr:`~fanfold.games.fano.state.Phase.OVER`: what the
    outcome reads of a state, for callers that hold the game in another form (the compiled
    environments' arrays)."""
    if seat is not None:
        if config.teams is Teams.ONE_FOR_ALL:
            team = teammates(config, seat)
            names = ", ".join(str(member + 1) for member in sorted(team))
            reason = (
                f"the partnership of Players {names} promoted its commander "
                f"{times(config.promotions_to_win)} and wins"
            )
        else:
            team = (seat,)
            reason = f"Player {seat + 1} promoted {times(config.promotions_to_win)} and wins"
        returns = tuple(1.0 if other in team else -1.0 for other in range(config.players))
        return Outcome(reason, returns, termination=Termination.PROMOTIONS)
    if over:
        return Outcome(
            f"the turn limit ({config.turns_per_player} turns each, {config.last_turn} in all) "
            "was reached: a draw",
            (0.0,) * config.players,
            by_limit=True,
            termination=Termination.TURN_LIMIT,
        )
    return None


def ending_words(state: FanoState) -> Phrase | None:
    """How the game ended, in words a page words in its language (a
    :class:`~fanfold.core.phrases.Phrase`, the English of :func:`outcome`'s reason);
    ``None`` while play goes on. Apart from :func:`outcome`, which the bots' playouts call:
    they never pay for the words."""
    ended = _worded_outcome(state)
    return None if ended is None else cast(Phrase, ended.reason)


def _worded_outcome(state: FanoState) -> Outcome | None:
    """:func:`outcome`, its reason a :class:`~fanfold.core.phrases.Phrase`."""
    seat = winner(state)
    config = state.config
    if seat is not None:
        if config.teams is Teams.ONE_FOR_ALL:
            team = teammates(config, seat)
            names = ", ".join(str(member + 1) for member in sorted(team))
            reason = Phrase(
                "fano.partnership_wins", names=names, times=_times_words(config.promotions_to_win)
            )
        else:
            team = (seat,)
            reason = Phrase(
                "fano.player_wins", number=seat + 1, times=_times_words(config.promotions_to_win)
            )
        returns = tuple(1.0 if other in team else -1.0 for other in range(len(state.players)))
        return Outcome(reason, returns, termination=Termination.PROMOTIONS)
    if state.phase is Phase.OVER:
        return Outcome(
            Phrase("fano.turn_limit", turns=config.turns_per_player, last=config.last_turn),
            (0.0,) * len(state.players),
            by_limit=True,
            termination=Termination.TURN_LIMIT,
        )
    return None
