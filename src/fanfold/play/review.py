"""The engines' review of a finished game: which moves lost value, and what was better.

A review reads a :class:`fanfold.core.records.GameRecord` (the record a table downloads) and
judges every move with the exact engines fanfold has, for the games with no hidden
information:

* **Fano330-R-Morris**, from the solved table (:mod:`fanfold.solvers.morris`). Every move is
  valued with the game's history, as :mod:`fanfold.play.assistance` scores it (a move that
  repeats a position is the draw the repetition rule makes it). A move's *value before* is
  the best value a legal move had, for the side to move: the position's value, with its
  history. Its *value after* is the value of the move played, for the same side and counted
  from the same position, in plies to the end under perfect play (the way the ``values``
  analysis lists every move), so the two compare directly: equal values mean that nothing was
  lost. Where the move played is worse, the review names the best move and marks the move
  (:class:`Mark`): :attr:`Mark.WORSE_RESULT` when the result class fell (a win turned into
  a draw or a loss, a draw into a loss), else :attr:`Mark.SLOWER_WIN` (a win kept, but
  slower) or :attr:`Mark.FASTER_LOSS` (a loss, sooner than the slowest).
* **Fan patience**, from the exact solver (:mod:`fanfold.solvers.fan`). Whether a position
  can still be won only ever goes from yes to no as moves are made (a position reached from
  a lost one is lost), so the first move after which the deal could no longer be won is found
  by bisection over the game's positions, a handful of solver calls for any game. That move
  is marked :attr:`Mark.LOST_DEAL`, and the review gives the solver's winning line from the
  position just before it (its first move is the best move). A won game has no lost move; a
  deal that could never be won says so.

Fano and Fan Tan have hidden cards: a fair review judges a seat from what that seat could see,
which needs sampled searches; :func:`review` refuses them (:class:`ReviewError`) and
:mod:`fanfold.play.review_cards` reviews them, each decision from its seat's view.

A :class:`Review` is JSON (:meth:`Review.to_json`, fields documented in ``docs/review/api.md``)
with the inputs that make it reproducible: the record itself, the version of the review
(:data:`REVIEW_VERSION`), and the engine's identity (the solved table's variant, format and
checksum; the Fan solver's budget).

    >>> from fanfold.core.records import GameRecord
    >>> from fanfold.games.morris import GAME as MORRIS
    >>> record = GameRecord.start(MORRIS, MORRIS.default_config(), 0).extend(MORRIS, "C7")
    >>> result = review(record)
    >>> result.moves[0].mark, result.moves[0].best
    (<Mark.WORSE_RESULT: 'worse_result'>, 'C1')
    >>> result.summary[1]
    "White's 1st move, C7, turned a draw into a loss; best was C1."
"""

from __future__ import annotations

import enum
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

import numpy as np

from fanfold.core.config import JSONObject, JSONValue
from fanfold.core.errors import FanfoldError
from fanfold.core.phrases import Phrase, phrases, said
from fanfold.core.phrases import ordinal as ordinal_words
from fanfold.core.records import GameRecord
from fanfold.core.registry import AnyGame, get_game
from fanfold.core.rulings import Ending, Ruling
from fanfold.games.fan import FanGame, FanState
from fanfold.games.morris import MorrisGame
from fanfold.play.assistance import Decision, critical_decisions
from fanfold.solvers import fan as fan_solver
from fanfold.solvers import morris as morris_solver
from fanfold.solvers.fan_search import BEST_FIRST_AFTER, BEST_FIRST_STATES
from fanfold.solvers.morris import MorrisTable, Result, Value

#: The version of the review: its rules (what is marked, how Fan is searched) and its JSON.
#: A stored review of another version is made again rather than read.
REVIEW_VERSION = 1
#: The JSON format's name, written in every review.
REVIEW_FORMAT = "fanfold.review/1"


class ReviewError(FanfoldError):
    """A game the engines cannot review (hidden information), said in a sentence."""


class Mark(enum.StrEnum):
    """Why a move is marked; each value is the word written in JSON."""

    #: Morris: the result class fell (a win into a draw or a loss, a draw into a loss).
    WORSE_RESULT = "worse_result"
    #: Morris: a win kept, but slower than the best move's.
    SLOWER_WIN = "slower_win"
    #: Morris: a loss, sooner than the best move's (the slowest).
    FASTER_LOSS = "faster_loss"
    #: Fan: the first move after which the deal could no longer be won.
    LOST_DEAL = "lost_deal"
    #: Fano, Fan Tan: expected result lost above the noise floor, at the smallest cut-off
    #: (:mod:`fanfold.play.review_cards`).
    INACCURACY = "inaccuracy"
    #: Fano, Fan Tan: expected result lost at the middle cut-off.
    MISTAKE = "mistake"
    #: Fano, Fan Tan: expected result lost at the largest cut-off.
    BLUNDER = "blunder"


class Verdict(enum.StrEnum):
    """What the review of a Fan game found about the deal as a whole."""

    #: Every card went home: no move lost the deal.
    WON = "won"
    #: The game's start could not be won: no sequence of moves wins it.
    NEVER_WINNABLE = "never_winnable"
    #: A winnable deal was lost: :attr:`DealFinding.first_losing_move` says by which move.
    LOST = "lost"
    #: An unfinished game whose last position can still be won.
    STILL_WINNABLE = "still_winnable"
    #: The solver's budget of positions ran out before the losing move was pinned down.
    UNDECIDED = "undecided"


@dataclass(frozen=True)
class MoveValue:
    """A position's value for the side to move in a review.

    Attributes:
        result: ``"win"``, ``"draw"`` or ``"loss"`` (Fan: ``"win"`` while the deal can still
            be won, ``"loss"`` once it cannot).
        distance: plies to the end under perfect play (Morris; ``None`` for a draw, and for
            Fan, whose solver finds a win, not the shortest).
    """

    result: str
    distance: int | None = None

    @classmethod
    def of(cls, value: Value) -> MoveValue:
        """The review's form of a solved-table value."""
        return cls(value.result.value, value.distance)

    def __str__(self) -> str:
        if self.distance is None:
            return self.result
        plies = "ply" if self.distance == 1 else "plies"
        return f"{self.result} in {self.distance} {plies}"

    def to_json(self) -> JSONObject:
        """``{"result": "win", "distance": 13}`` (``distance`` null where none)."""
        return {"result": self.result, "distance": self.distance}


#: Fan's two values: the deal can still be won, or it cannot.
WINNABLE = MoveValue(Result.WIN.value)
LOST = MoveValue(Result.LOSS.value)


@dataclass(frozen=True)
class ReviewedMove:
    """One move of the game, judged.

    Attributes:
        number: the move's number in the game (1 for the first action).
        seat: the seat that made it.
        seat_name: that seat's name (``"White"``, ``"Player"``; a
            :class:`~fanfold.core.phrases.Phrase`, sent as ``seat_said``).
        seat_move: the how-manyeth move of that seat it was (1 for its first).
        text: the move in the game's notation.
        words: the move in a sentence, as a spectator is told it (a phrase, sent as
            ``said``).
        before: the value of the position before the move, for the mover (``None``: not
            known, Fan past the solver's budget).
        after: the value of the move played, for the mover (Morris: counted from the same
            position as ``before``, so equal values mean nothing was lost).
        best: the best move, where the move played lost value (else ``None``).
        mark: why the move is marked (``None``: it kept the best value).
    """

    number: int
    seat: int
    seat_name: str
    seat_move: int
    text: str
    words: str
    before: MoveValue | None
    after: MoveValue | None
    best: str | None = None
    mark: Mark | None = None

    def to_json(self) -> JSONObject:
        """The move as JSON (the fields above; values as :meth:`MoveValue.to_json`), with
        the seat's name and the words as codes and params beside their English (``seat_said``,
        ``said``: :func:`said_fields`)."""
        return {
            "number": self.number,
            "seat": self.seat,
            "seat_name": self.seat_name,
            "seat_move": self.seat_move,
            "text": self.text,
            "words": self.words,
            "before": None if self.before is None else self.before.to_json(),
            "after": None if self.after is None else self.after.to_json(),
            "best": self.best,
            "mark": None if self.mark is None else self.mark.value,
            **said_fields(seat_said=self.seat_name, said=self.words),
        }


def said_fields(**texts: str | None) -> JSONObject:
    """Each of ``texts`` that is a :class:`~fanfold.core.phrases.Phrase` as its code and
    params under its name (``{"said": {"code": ..., "params": ...}}``); plain text leaves its
    name out, so a reader of old reviews finds nothing new."""
    found: JSONObject = {}
    for name, text in texts.items():
        value = said(text)
        if value is not None:
            found[name] = value
    return found


def summary_said(summary: Sequence[str]) -> list[JSONValue]:
    """Each sentence of a summary as its code and params (``None``: a plain sentence)."""
    return [said(line) for line in summary]


def summary_fields(kept: Sequence[JSONValue]) -> JSONObject:
    """A kept summary (:func:`stored_summary`) as an answer's ``summary`` (the English
    sentences) and ``summary_said`` (each one's code and params, ``None`` for plain text)."""
    sentences = summary_of_json(kept)
    listed: list[JSONValue] = list(sentences)
    return {"summary": listed, "summary_said": summary_said(sentences)}


def summary_from_json(data: JSONObject) -> list[str]:
    """A review's summary read from its JSON: each sentence the phrase its ``summary_said``
    holds, else (a plain sentence, or JSON written without the codes) its English."""
    english: Any = data["summary"]
    said: Any = data.get("summary_said") or [None] * len(english)
    return summary_of_json(
        [code if isinstance(code, dict) else line for code, line in zip(said, english, strict=True)]
    )


def stored_summary(summary: Sequence[str]) -> list[JSONValue]:
    """A summary to keep: each sentence as its code and params (plain text as it is)."""
    return [line.to_json() if isinstance(line, Phrase) else line for line in summary]


def summary_of_json(items: Sequence[JSONValue]) -> list[str]:
    """A stored summary's sentences (each a phrase's code and params, or plain English, as
    reviews made before the codes kept them) as their English words, phrases again."""
    return [Phrase.from_json(item) if isinstance(item, dict) else str(item) for item in items]


@dataclass(frozen=True)
class DealFinding:
    """What the review of a Fan game found about the deal.

    Attributes:
        verdict: won, never winnable, lost, still winnable or undecided.
        first_losing_move: the number of the first move after which the deal could no longer
            be won (``LOST`` only).
        winning_line: the solver's winning moves from the position just before that move.
        last_winnable: the last position (by the number of moves made to reach it) known to
            be winnable (``UNDECIDED``: where the search stopped; else as found).
        first_lost: the first position known to be lost (``None`` where none is known).
        solves: how many positions the solver was asked about.
    """

    verdict: Verdict
    first_losing_move: int | None = None
    winning_line: tuple[str, ...] = ()
    last_winnable: int | None = None
    first_lost: int | None = None
    solves: int = 0

    def to_json(self) -> JSONObject:
        """The finding as JSON."""
        line: list[JSONValue] = list(self.winning_line)
        return {
            "verdict": self.verdict.value,
            "first_losing_move": self.first_losing_move,
            "winning_line": line,
            "last_winnable": self.last_winnable,
            "first_lost": self.first_lost,
            "solves": self.solves,
        }


@dataclass(frozen=True)
class Review:
    """The engines' review of one game.

    Attributes:
        record: the game reviewed.
        game: the game's versioned id.
        title: the game's title.
        engine: the engine's identity and settings (what makes the review reproducible).
        moves: every move, judged, in order.
        summary: sentences for a person: the start's value, each marked move, the end
            (phrases: ``summary_said`` in JSON).
        deal: Fan only: what was found about the deal (``None`` for Morris).
        version: :data:`REVIEW_VERSION` when made.
    """

    record: GameRecord
    game: str
    title: str
    engine: JSONObject
    moves: tuple[ReviewedMove, ...]
    summary: tuple[str, ...]
    deal: DealFinding | None = None
    version: int = REVIEW_VERSION

    @property
    def marked(self) -> tuple[ReviewedMove, ...]:
        """The moves that lost value, in order."""
        return tuple(move for move in self.moves if move.mark is not None)

    def to_json(self) -> JSONObject:
        """The review as JSON: ``format``, ``version``, ``game``, ``title``, ``engine``,
        ``record``, ``moves``, ``deal``, ``summary`` and ``summary_said`` (each sentence's
        code and params, ``docs/review/api.md``). The same record and engine give the same
        JSON."""
        moves: list[JSONValue] = [move.to_json() for move in self.moves]
        summary: list[JSONValue] = list(self.summary)
        return {
            "format": REVIEW_FORMAT,
            "version": self.version,
            "game": self.game,
            "title": self.title,
            "engine": dict(self.engine),
            "record": self.record.to_json(),
            "moves": moves,
            "deal": None if self.deal is None else self.deal.to_json(),
            "summary": summary,
            "summary_said": summary_said(self.summary),
        }


def reviews(game: AnyGame) -> bool:
    """Whether the engines review ``game``: Fano330-R-Morris (solved table) and Fan patience
    (exact solver)."""
    return isinstance(game, MorrisGame | FanGame)


def review(
    record: GameRecord,
    *,
    table: MorrisTable | None = None,
    max_states: int | None = None,
    message: Callable[[str], None] | None = None,
) -> Review:
    """Review a game's moves with the engines.

    Args:
        record: the game (finished or not: an unfinished game is reviewed as far as it went).
        table: Morris: the solved table of the game's variant (loaded, or solved once and
            cached, if not given).
        max_states: Fan: the positions the solver may expand per question (``None``: no
            limit, every answer exact); past it the review may be :attr:`Verdict.UNDECIDED`.
        message: told when the Morris table is solved first (not cached yet), or when its
            cache is unusable and is rebuilt.

    Raises:
        ReviewError: a game this function does not review (Fano, Fan Tan:
            :mod:`fanfold.play.review_cards`).
        RecordError: the record does not replay under the rules.
    """
    game = get_game(record.game)
    if isinstance(game, MorrisGame):
        return _review_morris(record, game, table, message)
    if isinstance(game, FanGame):
        return _review_fan(record, game, max_states)
    raise ReviewError(
        f"no engine review for {game.title} here: its hands are hidden, so it is reviewed from "
        "each seat's view, on a finished table's review page (fanfold.play.review_cards)"
    )


# --------------------------------------------------------------------------- shared


def ordinal(number: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``22nd`` (a phrase).

    >>> [str(ordinal(n)) for n in (1, 2, 3, 4, 11, 12, 13, 21, 102)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '102nd']
    """
    return ordinal_words(number)


# The review's sentences as phrases (fanfold.core.phrases): the page words them in its
# reader's language. A seat's move: ``{seat}`` its name, ``{ordinal}`` the how-manyeth of its
# own, ``{move}`` and ``{best}`` notation.
phrases(
    {
        "review.a_win": "a win",
        "review.a_draw": "a draw",
        "review.a_loss": "a loss",
        "review.value_in": "{value} in {distance} plies",
        "review.start": "The solved table values the start as {value} for {seat}.",
        "review.move.worse_result": (
            "{seat}'s {ordinal} move, {move}, turned {before} into {after}; best was {best}."
        ),
        "review.move.slower_win": (
            "{seat}'s {ordinal} move, {move}, kept the win but made it slower (in {after} "
            "plies, not {before}); best was {best}."
        ),
        "review.move.faster_loss": (
            "{seat}'s {ordinal} move, {move}, made the loss come sooner (in {after} plies, not "
            "{before}); best was {best}."
        ),
        "review.nothing_lost": "No move lost value: every move kept the solved table's best value.",
        "review.resigned": "{seat} resigned.",
        "review.agreed_draw": "The players agreed to a draw.",
        "review.called_off": "The game was called off.",
        "review.claimed": "{seat} claimed the win: the other side left.",
        "review.timed_out": "{seat} ran out of time.",
        "review.unfinished": "The game is unfinished.",
        "review.result": "Result: {reason}.",
        "review.deal_won": "The deal was won: no move lost it.",
        "review.never_winnable": (
            "This deal could never be won: no sequence of moves wins it from the start."
        ),
        "review.still_winnable": (
            "The game is unfinished and can still be won: no move lost it yet."
        ),
        "review.move.lost_deal": (
            "The player's {ordinal} move, {move}, lost the deal: it could be won before that "
            "move and not after; best was {best}."
        ),
        "review.winning_line": "A winning line from just before it ({count} moves): {line}.",
        "review.undecided": (
            "Undecided: the solver's budget of {budget} positions a question ran out; the move "
            "that lost the deal, if any, is one of moves {low} to {high}."
        ),
        "review.undecided_to_end": (
            "Undecided: the solver's budget of {budget} positions a question ran out; the move "
            "that lost the deal, if any, is one of moves {low} to the last."
        ),
    }
)
#: The sentences on one marked move: the page leaves them out of the summary, its list of
#: moves saying the same beside each.
MOVE_SENTENCE = "review.move."


def _fanfold_version() -> str:
    try:
        return metadata.version("fanfold")
    except metadata.PackageNotFoundError:  # a source tree that is not installed
        return "unknown"


def _ending(record: GameRecord, game: AnyGame, final: Any) -> str:
    """How the game ended, in a sentence (a phrase)."""
    if record.ruling is not None:
        ruling = Ruling.from_json(record.ruling)  # checked by GameRecord.states already
        who = game.seat_name(game.config_of(final), ruling.seat)
        if ruling.ending is Ending.DRAW:
            return Phrase("review.agreed_draw")
        if ruling.ending is Ending.ABORT:
            return Phrase("review.called_off")
        code = {
            Ending.RESIGN: "review.resigned",
            Ending.CLAIM: "review.claimed",
            Ending.TIMEOUT: "review.timed_out",
        }[ruling.ending]
        return Phrase(code, seat=who)
    reason = game.ending_words(final)
    if reason is None:
        return Phrase("review.unfinished")
    return Phrase("review.result", reason=Phrase("words.capital", words=reason))


@dataclass
class _Seats:
    """Counts each seat's moves as the game goes."""

    game: AnyGame
    config: Any
    counts: dict[int, int] = field(default_factory=dict)

    def next(self, seat: int) -> tuple[str, int]:
        """The seat's name and the number of this move among its own."""
        self.counts[seat] = self.counts.get(seat, 0) + 1
        return self.game.seat_name(self.config, seat), self.counts[seat]


# --------------------------------------------------------------------------- Morris

#: Each solved table's identity, worked out once per table.
_IDENTITIES: dict[int, tuple[MorrisTable, JSONObject]] = {}


def table_identity(table: MorrisTable) -> JSONObject:
    """What identifies a solved Morris table: its variant, the solver's format version, the
    number of positions and a CRC-32 of its results and distances (the values a review
    reads), so that two reviews from equal tables say so."""
    known = _IDENTITIES.get(id(table))
    if known is not None and known[0] is table:
        return known[1]
    checksum = zlib.crc32(np.ascontiguousarray(table.results).tobytes())
    checksum = zlib.crc32(np.ascontiguousarray(table.distances).tobytes(), checksum)
    identity: JSONObject = {
        "engine": "morris-solved-table",
        "adjacency": table.adjacency.value,
        "format": morris_solver.FORMAT_VERSION,
        "positions": table.size,
        "crc32": checksum,
    }
    _IDENTITIES[id(table)] = (table, identity)
    return identity


def _mark(decision: Decision) -> Mark | None:
    """Why a Morris move is marked, from its value and the best one (``None``: kept)."""
    played, best = decision.played, decision.best
    if played.rank == best.rank:
        return None
    if played.result is not best.result:
        return Mark.WORSE_RESULT
    return Mark.SLOWER_WIN if best.result is Result.WIN else Mark.FASTER_LOSS


def _article(result: str) -> Phrase:
    """``a win``, ``a draw``, ``a loss``."""
    return Phrase(f"review.a_{result}")


def _morris_sentence(move: ReviewedMove) -> str:
    """``White's 7th move, C3, turned a draw into a loss; best was T5.``"""
    before, after = move.before, move.after
    assert before is not None
    assert after is not None
    assert move.mark is not None
    who: dict[str, Any] = {
        "seat": move.seat_name,
        "ordinal": ordinal(move.seat_move),
        "move": move.text,
        "best": str(move.best),
    }
    if move.mark is Mark.WORSE_RESULT:
        return Phrase(
            "review.move.worse_result",
            **who,
            before=_article(before.result),
            after=_article(after.result),
        )
    return Phrase(
        f"{MOVE_SENTENCE}{move.mark.value}",
        **who,
        before=str(before.distance),
        after=str(after.distance),
    )


def _review_morris(
    record: GameRecord,
    game: MorrisGame,
    table: MorrisTable | None,
    message: Callable[[str], None] | None,
) -> Review:
    states = record.states()
    config = states[0].config
    if table is None:
        if message is not None and morris_solver.stored_path(config.adjacency) is None:
            message(
                f"Solving {game.title} ({config.adjacency.value} adjacency) for the review: "
                "first use only, a few seconds..."
            )
        table = morris_solver.load_table(config.adjacency, message=message)
    elif table.adjacency is not config.adjacency:
        raise ValueError(
            f"the table is of the {table.adjacency.value} variant, the game of "
            f"{config.adjacency.value}"
        )
    decisions: dict[int, Decision] = {}
    for seat in range(game.num_players(config)):
        for decision in critical_decisions(record, seat, table=table):
            decisions[decision.number] = decision
    seats = _Seats(game, config)
    moves: list[ReviewedMove] = []
    for number, text in enumerate(record.actions, start=1):
        before, after = states[number - 1], states[number]
        mover = game.current_player(before)
        assert mover is not None  # the record replays: someone was to move
        decision = decisions[number]
        name, seat_move = seats.next(mover)
        mark = _mark(decision)
        best = None
        if mark is not None:
            best = game.action_text(morris_solver.best_actions(table, before)[0])
        moves.append(
            ReviewedMove(
                number,
                mover,
                name,
                seat_move,
                text,
                game.describe_action(before, game.parse_action(text), None, after),
                MoveValue.of(decision.best),
                MoveValue.of(decision.played),
                best,
                mark,
            )
        )
    summary: list[str] = []
    if moves and moves[0].before is not None:
        start = moves[0].before
        value: str = _article(start.result)
        if start.distance is not None:
            value = Phrase("review.value_in", value=value, distance=start.distance)
        summary.append(Phrase("review.start", value=value, seat=moves[0].seat_name))
    marked = [move for move in moves if move.mark is not None]
    summary += [_morris_sentence(move) for move in marked]
    if not marked:
        summary.append(Phrase("review.nothing_lost"))
    summary.append(_ending(record, game, states[-1]))
    engine: JSONObject = {**table_identity(table), "fanfold": _fanfold_version()}
    return Review(record, game.id, game.title, engine, tuple(moves), tuple(summary))


# --------------------------------------------------------------------------- Fan


_FAN = FanGame()


class _Probe:
    """The solver's answers about the game's positions, each asked once."""

    def __init__(self, states: Sequence[FanState], max_states: int | None) -> None:
        self.states = states
        self.max_states = max_states
        self.answers: dict[int, fan_solver.FanSolution] = {}

    def __call__(self, index: int) -> fan_solver.FanSolution:
        if index not in self.answers:
            self.answers[index] = fan_solver.solve(self.states[index], max_states=self.max_states)
        return self.answers[index]


def first_lost_position(
    states: Sequence[FanState], *, max_states: int | None = None
) -> DealFinding:
    """Bisect a Fan game's positions for the first one that can no longer be won.

    Winnability is monotone along a game (a position reached from a lost one is lost), so
    with the start winnable and the end lost, the boundary is found in about log2(moves)
    solver calls; the position just before it is winnable and its solution is the winning
    line. A won game needs no call at all; a game stuck without a win (no legal move left) is
    lost at its end without one.

    Args:
        states: the game's positions, the start first (:meth:`GameRecord.states`).
        max_states: the solver's budget per position (``None``: exact).
    """
    final = states[-1]
    last = len(states) - 1
    if final.is_won:
        return DealFinding(Verdict.WON, last_winnable=last)
    probe = _Probe(states, max_states)
    start = probe(0)
    if start.verdict == fan_solver.UNKNOWN:
        return DealFinding(Verdict.UNDECIDED, solves=len(probe.answers))
    if start.verdict == fan_solver.UNSOLVABLE:
        return DealFinding(Verdict.NEVER_WINNABLE, first_lost=0, solves=1)
    winnable = 0
    if _stuck(final):
        lost = last
    else:
        end = probe(last)
        if end.verdict == fan_solver.SOLVED:
            return DealFinding(
                Verdict.STILL_WINNABLE, last_winnable=last, solves=len(probe.answers)
            )
        if end.verdict == fan_solver.UNKNOWN:
            return DealFinding(Verdict.UNDECIDED, last_winnable=0, solves=len(probe.answers))
        lost = last
    while lost - winnable > 1:
        middle = (winnable + lost) // 2
        answer = probe(middle)
        if answer.verdict == fan_solver.UNKNOWN:
            return DealFinding(
                Verdict.UNDECIDED,
                last_winnable=winnable,
                first_lost=lost,
                solves=len(probe.answers),
            )
        if answer.verdict == fan_solver.SOLVED:
            winnable = middle
        else:
            lost = middle
    line = tuple(_FAN.action_text(move) for move in probe(winnable).moves)
    return DealFinding(
        Verdict.LOST,
        first_losing_move=lost,
        winning_line=line,
        last_winnable=winnable,
        first_lost=lost,
        solves=len(probe.answers),
    )


def _stuck(state: FanState) -> bool:
    """Whether a Fan game is over without a win (no legal move left)."""
    return not state.is_won and _FAN.outcome(state) is not None


def _fan_value(index: int, finding: DealFinding) -> MoveValue | None:
    """Whether position ``index`` can be won, as far as the finding tells."""
    if finding.verdict in (Verdict.WON, Verdict.STILL_WINNABLE):
        return WINNABLE
    if finding.verdict is Verdict.NEVER_WINNABLE:
        return LOST
    if finding.last_winnable is not None and index <= finding.last_winnable:
        return WINNABLE
    if finding.first_lost is not None and index >= finding.first_lost:
        return LOST
    return None


def _fan_summary(
    finding: DealFinding, moves: Sequence[ReviewedMove], budget: int | None
) -> list[str]:
    """The sentences on the deal: won, never winnable, lost by which move (and the winning
    line from just before it), still winnable, or undecided within the budget."""
    verdict = finding.verdict
    if verdict is Verdict.WON:
        return [Phrase("review.deal_won")]
    if verdict is Verdict.NEVER_WINNABLE:
        return [Phrase("review.never_winnable")]
    if verdict is Verdict.STILL_WINNABLE:
        return [Phrase("review.still_winnable")]
    if verdict is Verdict.LOST:
        assert finding.first_losing_move is not None
        move = moves[finding.first_losing_move - 1]
        line = " ".join(finding.winning_line)
        return [
            Phrase(
                "review.move.lost_deal",
                ordinal=ordinal(move.seat_move),
                move=move.text,
                best=str(move.best),
            ),
            Phrase("review.winning_line", count=len(finding.winning_line), line=line),
        ]
    low = (finding.last_winnable or 0) + 1
    if finding.first_lost is None:
        return [Phrase("review.undecided_to_end", budget=str(budget), low=low)]
    return [Phrase("review.undecided", budget=str(budget), low=low, high=finding.first_lost)]


def _review_fan(record: GameRecord, game: FanGame, max_states: int | None) -> Review:
    states: list[FanState] = record.states()
    config = states[0].config
    finding = first_lost_position(states, max_states=max_states)
    seats = _Seats(game, config)
    moves: list[ReviewedMove] = []
    for number, text in enumerate(record.actions, start=1):
        before, after = states[number - 1], states[number]
        name, seat_move = seats.next(0)
        losing = number == finding.first_losing_move
        moves.append(
            ReviewedMove(
                number,
                0,
                name,
                seat_move,
                text,
                game.describe_action(before, game.parse_action(text), None, after),
                _fan_value(number - 1, finding),
                _fan_value(number, finding),
                finding.winning_line[0] if losing and finding.winning_line else None,
                Mark.LOST_DEAL if losing else None,
            )
        )
    summary = (*_fan_summary(finding, moves, max_states), _ending(record, game, states[-1]))
    engine: JSONObject = {
        "engine": "fan-solver",
        "max_states": max_states,
        "best_first_after": BEST_FIRST_AFTER,
        "best_first_states": BEST_FIRST_STATES,
        "fanfold": _fanfold_version(),
    }
    return Review(record, game.id, game.title, engine, tuple(moves), summary, finding)
