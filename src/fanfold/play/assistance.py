"""Engine assistance in rated Fano330-R-Morris: a player's moves compared with the solved table.

Fano330-R-Morris is strongly solved (:mod:`fanfold.solvers.morris`), so every move of a game
can be scored exactly. A player who copies the solver (the ``values`` analysis of
:mod:`fanfold.play.analysis`, or the table itself) keeps the best value at every decision; a
strong player who thinks for themselves lets a value slip now and then. This module counts
that, game by game, and turns the counts into a flag for a moderator.

**Critical positions.** A decision counts only where it could go wrong: a *critical position*
is one where the legal moves' values, read from the solved table, are not all equal, so that
some legal move changes the position's solved value. A value is the result class (win, draw,
loss) *and* the distance (plies to the end under perfect play): a slower win, or a faster loss,
is a worse value than the best. That is the order of :attr:`fanfold.solvers.morris.Value.rank`,
the one the perfect agent plays by (:mod:`fanfold.agents.perfect`), and each move is valued
with the game's history, so a move that repeats a position is the draw the repetition rule
makes it (:func:`fanfold.solvers.morris.action_value`). A position where every legal move has
the same value (one legal move, or all moves equally good) never counts. The distance is part
of the value because it separates the solver from a strong player much better: a strong
player keeps the win but does not always find the fastest one, while a copier of the solver
does; with the result class alone, many of a strong player's slips (a slower win, a faster
loss) would look like the solver's move. A *match* is a critical decision where the move
played has the best value, class and distance.

**The verdict.** Evidence is the critical positions of one account over its games, collected
in :class:`AssistanceStats`. Below :data:`MIN_CRITICAL` critical positions or
:data:`MIN_GAMES` games there is no verdict (:attr:`Verdict.NOT_ENOUGH_EVIDENCE`); from there
an account is flagged when the share of matches reaches the threshold (:data:`THRESHOLD`,
chosen by ``benchmarks/assistance.py`` and ``docs/fairplay.md``). A flag asks a moderator to
look at the account's games: it is never a finding, and it removes nothing.

    >>> stats = AssistanceStats(games=6, critical=48, matched=48)
    >>> verdict(stats).verdict
    <Verdict.FLAGGED: 'flagged'>
    >>> verdict(AssistanceStats(games=4, critical=48, matched=48)).verdict
    <Verdict.NOT_ENOUGH_EVIDENCE: 'not enough evidence'>
    >>> verdict(AssistanceStats(games=6, critical=48, matched=45)).verdict
    <Verdict.NOT_FLAGGED: 'not flagged'>
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from fanfold.core.errors import RecordError
from fanfold.core.phrases import Phrase, phrases
from fanfold.core.records import GameRecord
from fanfold.core.registry import AnyGame, get_game
from fanfold.games.morris import GAME as MORRIS
from fanfold.games.morris import MorrisGame, MorrisState
from fanfold.play.stats import Proportion
from fanfold.solvers.morris import MorrisTable, Value, action_value, load_table, rank_actions

#: The fewest critical positions of an account before any verdict.
MIN_CRITICAL = 40
#: The fewest games of an account before any verdict.
MIN_GAMES = 5
#: The share of critical positions matched at or above which an account is flagged: every one
#: of them. Measured by ``benchmarks/assistance.py`` (``docs/fairplay.md``): the solver's copier
#: matches every critical position, so any threshold up to 1 flags each of its accounts that has
#: the evidence, and every step below 1 flags more honest strong players for nothing: at 0.975
#: (one slip in 40 forgiven) the flag rate of ``perfect(mistakes=0.05)`` accounts of 5 games
#: rises from 9% to 31%, of ``perfect(mistakes=0.02)`` from 36% to 72%.
THRESHOLD = 1.0


def checks(game: AnyGame) -> bool:
    """Whether the assistance check covers ``game``: only a strongly solved game, where every
    move's value is known (Fano330-R-Morris)."""
    return isinstance(game, MorrisGame)


@dataclass(frozen=True)
class Decision:
    """One decision of a seat, scored against the solved table.

    Attributes:
        number: the action's number in the game (1 for the first action).
        action: the move played, in the game's notation.
        critical: whether the legal moves' values differ (some move changes the value).
        matched: whether the move played has the best value (result class and distance);
            always true where the position is not critical.
        best: the best value a legal move had, for the side to move.
        played: the value of the move played, for the side to move.
        class_critical: whether the legal moves' result classes differ (some move turns a
            win or a draw into a worse result); the check itself reads :attr:`critical`.
    """

    number: int
    action: str
    critical: bool
    matched: bool
    best: Value
    played: Value
    class_critical: bool = False

    @property
    def kept_class(self) -> bool:
        """Whether the move played kept the best result class (win, draw or loss), whatever
        its distance."""
        return self.played.result is self.best.result


def _states(record: GameRecord | Sequence[str]) -> tuple[list[MorrisState], tuple[str, ...]]:
    """The states of a Morris game and its action texts (a plain list of texts is a game of
    the default variant from the empty board).

    Raises:
        RecordError: a record of another game, or one that does not replay.
    """
    if isinstance(record, GameRecord):
        game = get_game(record.game)
        if not checks(game):
            raise RecordError(
                f"the assistance check reads Fano330-R-Morris games, not {game.title}"
            )
        return list(record.states()), record.actions
    texts = tuple(record)
    replayed = GameRecord.start(MORRIS, MORRIS.default_config(), 0)
    return list(GameRecord(replayed.game, replayed.config, 0, texts).states()), texts


def critical_decisions(
    record: GameRecord | Sequence[str], seat: int, *, table: MorrisTable | None = None
) -> list[Decision]:
    """Every decision of ``seat`` in a Fano330-R-Morris game, each scored against the solved
    table: whether the position was critical, and whether the move played kept the best
    value.

    Args:
        record: the game's record, or its action texts from the empty board of the default
            variant.
        seat: the seat whose decisions are scored (0 White, 1 Black).
        table: the solved table of the game's variant (loaded from the cache if not given).

    Raises:
        RecordError: not a Morris game, or a game that does not replay under the rules.
    """
    states, texts = _states(record)
    if table is None:
        table = load_table(states[0].config.adjacency)
    decisions: list[Decision] = []
    for number, (text, before) in enumerate(zip(texts, states, strict=False), start=1):
        if MORRIS.current_player(before) != seat:
            continue
        ranked = rank_actions(table, before)
        best = ranked[0][1]
        played = action_value(table, before, MORRIS.parse_action(text))
        decisions.append(
            Decision(
                number,
                text,
                critical=ranked[-1][1].rank != best.rank,
                matched=played.rank == best.rank,
                best=best,
                played=played,
                class_critical=ranked[-1][1].result is not best.result,
            )
        )
    return decisions


@dataclass(frozen=True)
class AssistanceStats:
    """An account's evidence so far: games scored, critical positions met, and matches.

    Attributes:
        games: games scored (a game with no critical position counts as a game).
        critical: critical positions among the account's decisions.
        matched: critical positions where the move played had the best value.
    """

    games: int = 0
    critical: int = 0
    matched: int = 0

    def __post_init__(self) -> None:
        if min(self.games, self.critical, self.matched) < 0 or self.matched > self.critical:
            raise ValueError(f"not a count of games and positions: {self}")

    def add_game(self, decisions: Iterable[Decision]) -> AssistanceStats:
        """The evidence with one more game's decisions."""
        critical = [decision for decision in decisions if decision.critical]
        return AssistanceStats(
            self.games + 1,
            self.critical + len(critical),
            self.matched + sum(decision.matched for decision in critical),
        )

    def __add__(self, other: AssistanceStats) -> AssistanceStats:
        return AssistanceStats(
            self.games + other.games,
            self.critical + other.critical,
            self.matched + other.matched,
        )

    @property
    def share(self) -> Proportion:
        """Matches among critical positions, with its Wilson 95% interval."""
        return Proportion(self.matched, self.critical)

    @classmethod
    def of_games(cls, games: Iterable[Iterable[Decision]]) -> AssistanceStats:
        """The evidence of several games' decisions."""
        stats = cls()
        for decisions in games:
            stats = stats.add_game(decisions)
        return stats


class Verdict(enum.Enum):
    """What the check says of an account."""

    FLAGGED = "flagged"
    NOT_FLAGGED = "not flagged"
    NOT_ENOUGH_EVIDENCE = "not enough evidence"


@dataclass(frozen=True)
class Judgement:
    """A verdict and the sentence that explains it to a moderator."""

    verdict: Verdict
    sentence: str

    @property
    def flagged(self) -> bool:
        """Whether the account is flagged for a moderator."""
        return self.verdict is Verdict.FLAGGED


def percent(share: float) -> str:
    """A share as a percentage, as exact as it is given: ``100%``, ``97.5%``."""
    return f"{share * 100:g}%"


#: The verdict's sentences, as phrases (``fanfold moderate assistance`` words them in the
#: terminal's language).
phrases(
    {
        "assistance.positions": "{count} critical positions",
        "assistance.positions_one": "1 critical position",
        "assistance.games": "{count} games",
        "assistance.games_one": "1 game",
        "assistance.not_enough": "Not enough evidence: {positions} over {games}; a verdict "
        "needs at least {critical} over at least {least} games.",
        "assistance.told": "{matched} of {positions} over {games} ({share}) were played with "
        "the solved table's best move",
        "assistance.flagged": "Flagged for a moderator: {told}, at or above the threshold of "
        "{threshold}. A flag asks for a look at the games; it is not a finding and removes "
        "nothing.",
        "assistance.not_flagged": "Not flagged: {told}, below the threshold of {threshold}.",
    },
    terminal=True,
)


def _positions(count: int) -> Phrase:
    if count == 1:
        return Phrase("assistance.positions_one")
    return Phrase("assistance.positions", count=count)


def _games(count: int) -> Phrase:
    return Phrase("assistance.games_one") if count == 1 else Phrase("assistance.games", count=count)


def verdict(
    stats: AssistanceStats,
    threshold: float = THRESHOLD,
    *,
    min_critical: int = MIN_CRITICAL,
    min_games: int = MIN_GAMES,
) -> Judgement:
    """The check's verdict on an account's evidence.

    Args:
        stats: the account's games, critical positions and matches.
        threshold: the share of matches (0 to 1) at or above which the account is flagged.
        min_critical: the fewest critical positions for a verdict (at least
            :data:`MIN_CRITICAL`).
        min_games: the fewest games for a verdict (at least :data:`MIN_GAMES`).

    Raises:
        ValueError: a threshold outside 0 to 1, or minimums below the check's own.
    """
    if not 0.0 < threshold <= 1.0:
        raise ValueError(f"the threshold is a share above 0 and at most 1, not {threshold}")
    if min_critical < MIN_CRITICAL or min_games < MIN_GAMES:
        raise ValueError(
            f"a verdict needs at least {MIN_CRITICAL} critical positions over at least "
            f"{MIN_GAMES} games; {min_critical} over {min_games} is less"
        )
    if stats.critical < min_critical or stats.games < min_games:
        return Judgement(
            Verdict.NOT_ENOUGH_EVIDENCE,
            Phrase(
                "assistance.not_enough",
                positions=_positions(stats.critical),
                games=_games(stats.games),
                critical=min_critical,
                least=min_games,
            ),
        )
    share = stats.matched / stats.critical
    told = Phrase(
        "assistance.told",
        matched=stats.matched,
        positions=_positions(stats.critical),
        games=_games(stats.games),
        share=f"{share:.1%}",
    )
    if share >= threshold:
        return Judgement(
            Verdict.FLAGGED, Phrase("assistance.flagged", told=told, threshold=percent(threshold))
        )
    return Judgement(
        Verdict.NOT_FLAGGED,
        Phrase("assistance.not_flagged", told=told, threshold=percent(threshold)),
    )
