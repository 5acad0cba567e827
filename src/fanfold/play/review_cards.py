"""The engines' review of a Fano or Fan Tan game, each decision judged from the deciding seat's
view only.

Fano and Fan Tan hide cards, so no exact engine values their positions; the review asks the
``hard`` level's own evaluation instead, from what the seat could see when it decided:

* **Fano**: ``ladder(deals=24)``'s look-ahead (:mod:`fanfold.agents.ladder.lookahead`): every
  legal move is played on deals sampled from the seat's view and the game carried on by the
  balanced ladder member for every seat (each reading only its own view) to the end of the
  seat's next turn, where the learned evaluation judges it (a logit of winning; a game won or
  lost is a certain win or loss).
* **Fan Tan**: ``pimc(deals=2000, infer=true, lookahead=2, group=50, fast=true)``'s compiled
  search (:mod:`fanfold.agents.strategy.fantan_fast`): every legal card tried on deals drawn by
  reading the others' play, played out by the strategy except at the seat's own next two
  choices. Reviewed for the variants that search covers (one hand, plain scoring, a fixed
  starting rank).

Each move's **expected result** is its mean, over the same sampled deals (common random
numbers: the moves differ only by the move), of the seat's chance of winning (Fano: the
evaluation's logit through the logistic function; Fan Tan: 1 for going out first, 0 for not,
½ for a hand with no winner). The **loss** of the move played is the best move's expected
result less its own. The deals are drawn from the decision's own generator, seeded by the
review's seed and the move's number, so a review is reproducible from its seed and its deals a
decision and a decision is judged alike in a step of any length.

**Information.** The record is replayed to reach each decision, and only the deciding seat's
view (:meth:`fanfold.core.game.Game.observe`) goes to the evaluation: the deals are sampled
from it, never from the stored deal (tested: swapping the other seats' hidden cards under the
same view and seed gives the same review).

**Marks.** A loss is marked only above the measured noise floor (:data:`NOISE_FLOOR`: the
spread of the loss when the move played is the best one, judged with other seeds), at
lichess's cut-offs of winning chances halved to this 0-to-1 scale: an
:attr:`~fanfold.play.review.Mark.INACCURACY` from :data:`INACCURACY`, a
:attr:`~fanfold.play.review.Mark.MISTAKE` from :data:`MISTAKE`, a
:attr:`~fanfold.play.review.Mark.BLUNDER` from :data:`BLUNDER`; the better move is named.

Only the seats given are reviewed (the server's: its human seats); the other seats' moves, and
decisions with one legal move, are listed but not judged (``judged``: ``"bot"``,
``"forced"``).
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from fanfold.core.config import JSONObject, JSONValue
from fanfold.core.pauses import pause_point
from fanfold.core.phrases import Phrase, joined, phrases
from fanfold.core.records import GameRecord
from fanfold.core.registry import AnyGame, get_game
from fanfold.games.fano.config import FanoConfig
from fanfold.games.fano.game import FanoGame
from fanfold.games.fantan.config import FanTanConfig
from fanfold.games.fantan.game import FanTanGame
from fanfold.play.review import (
    REVIEW_FORMAT,
    REVIEW_VERSION,
    Mark,
    ReviewError,
    _ending,
    _fanfold_version,
    _Seats,
    ordinal,
    said_fields,
    summary_said,
)

#: Fano: deals a decision in a review (as ``hard``'s 24; a two-player review then takes
#: seconds: ``docs/review/speed.md``).
FANO_DEALS = 24
#: Fan Tan: deals a decision in a review (``hard`` plays with 2000; half keeps a four-seat
#: review within seconds).
FANTAN_DEALS = 1000
#: Fan Tan: the fewest deals sharing the seat's view at a later choice of its own for the
#: search to choose there (``hard``: 50 of 2000; the same share of the review's deals).
FANTAN_GROUP = 25
#: Fan Tan: the seat's own later choices searched inside the deals (as ``hard``).
FANTAN_LOOKAHEAD = 2

#: The noise floor of the loss (expected result, 0 to 1) for each game: the 99th percentile
#: of the best move's expected result less the played move's when the move played is the
#: best one (under another seed), each judged again with other seeds at the review's deals.
#: Measured with ``python3 benchmarks/review.py --floor --games 12 --seeds 4``
#: (``docs/review/judging.md``).
NOISE_FLOOR: dict[str, float] = {"fano": 0.04, "fantan": 0.03}
#: The cut-offs of the marks, in expected result lost (0 to 1): lichess's 0.1, 0.2 and 0.3
#: of winning chances on its -1-to-1 scale, halved. A loss is marked only above the floor too.
INACCURACY = 0.05
MISTAKE = 0.10
BLUNDER = 0.15

#: The seat's chance of winning a won, lost or drawn game.
_WON_LOGIT = 20.0


def reviews_cards(game: AnyGame, config: Any) -> bool:
    """Whether this module reviews ``game`` with ``config``: Fano where the compiled fast path
    plays the variant, Fan Tan where its compiled search does."""
    if isinstance(game, FanoGame) and isinstance(config, FanoConfig):
        from fanfold.games.fano import fast

        return fast.supports(config)
    if isinstance(game, FanTanGame) and isinstance(config, FanTanConfig):
        from fanfold.agents.strategy.fantan_scope import supports  # no compiler loaded

        return supports(config)
    return False


def _kind(game: AnyGame) -> str:
    return "fano" if isinstance(game, FanoGame) else "fantan"


def default_deals(game: AnyGame) -> int:
    """The review's deals a decision for ``game``."""
    return FANO_DEALS if isinstance(game, FanoGame) else FANTAN_DEALS


def decision_seed(seed: str | int, number: int) -> int:
    """The generator's seed of move ``number``'s judgement: from the review's seed and the
    move's number only."""
    digest = hashlib.blake2b(f"{seed}:{number}".encode(), digest_size=8, person=b"decide").digest()
    return int.from_bytes(digest, "big")


def _chance(logit: float) -> float:
    """A logit of winning as a chance (a won game's :data:`_WON_LOGIT` as 1)."""
    if logit >= _WON_LOGIT:
        return 1.0
    if logit <= -_WON_LOGIT:
        return 0.0
    return 1.0 / (1.0 + math.exp(-logit))


def fano_values(view: Any, legal: Sequence[Any], seed: int, deals: int) -> list[float]:
    """Each of ``legal``'s expected result for the viewing seat (0 to 1): its mean chance of
    winning over ``deals`` deals sampled from ``view``, each move on the same deals, carried on
    by the balanced ladder member (:func:`fanfold.agents.ladder.compiled.look_ahead`).
    Deterministic given the view, the moves, the seed and the deals."""
    from fanfold.agents.ladder import compiled
    from fanfold.agents.ladder.styles import Style, params
    from fanfold.games.fano.fast import codec, engine

    game = get_game("fano")
    rng = random.Random(seed)
    chosen = params(Style.BALANCED, view.config)
    ids = np.array([codec.action_id(action) for action in legal], np.int64)
    sums = [0.0] * len(legal)
    engine.seed(rng.getrandbits(31))
    for _ in range(deals):
        pause_point()  # between deals: the review worker may wait here for live play
        deal = engine.encode(game.sample_state(view, rng))
        totals = np.zeros(len(legal))
        compiled.look_ahead([deal], view.player, ids, chosen, totals)
        for index, logit in enumerate(totals):
            sums[index] += _chance(float(logit))
    return [total / deals for total in sums]


def fantan_values(view: Any, legal: Sequence[Any], seed: int, deals: int) -> list[float]:
    """Each of ``legal``'s expected result for the viewing seat (0 to 1): ``hard``'s compiled
    search (:meth:`fanfold.agents.strategy.fantan.FanTanKnowledge.fast_values`) on ``deals``
    deals read from ``view``, its return (1 out first, -1 not, 0 no winner) as a chance."""
    from fanfold.agents.strategy.fantan_fast import infer_deals, search_values

    rng = random.Random(seed)
    hands = infer_deals(view, deals, rng, True)
    totals = search_values(view, hands, legal, rng, FANTAN_LOOKAHEAD, FANTAN_GROUP)
    return [(total / deals + 1.0) / 2.0 for total in totals]


#: A game's evaluation: (view, legal moves, seed, deals) to each move's expected result.
Values = Callable[[Any, Sequence[Any], int, int], list[float]]


def values_of(game: AnyGame) -> Values:
    """The evaluation of ``game``'s decisions."""
    return fano_values if isinstance(game, FanoGame) else fantan_values


def mark_of(loss: float, floor: float) -> Mark | None:
    """The mark a loss of expected result earns (``None``: within the floor or below the
    inaccuracy cut-off)."""
    if loss <= floor:
        return None
    if loss >= BLUNDER:
        return Mark.BLUNDER
    if loss >= MISTAKE:
        return Mark.MISTAKE
    if loss >= INACCURACY:
        return Mark.INACCURACY
    return None


@dataclass(frozen=True)
class CardMove:
    """One move of a Fano or Fan Tan game, judged from its seat's view (or not judged).

    Attributes:
        number, seat, seat_name, seat_move, text, words: as
            :class:`fanfold.play.review.ReviewedMove`.
        judged: ``"yes"``; ``"bot"`` (a seat not reviewed); ``"forced"`` (one legal move).
        played: the move played's expected result (0 to 1; ``None`` where not judged).
        best_value: the best move's expected result.
        best: the best move's text, where it was better than the move played by more than
            nothing (else ``None``).
        best_words: the best move in a sentence, as a spectator is told a move (a phrase,
            sent as ``best_said``).
        loss: ``best_value - played``.
        mark: inaccuracy, mistake or blunder (``None``: unmarked).
    """

    number: int
    seat: int
    seat_name: str
    seat_move: int
    text: str
    words: str
    judged: str
    played: float | None = None
    best_value: float | None = None
    best: str | None = None
    best_words: str | None = None
    loss: float | None = None
    mark: Mark | None = None

    def to_json(self) -> JSONObject:
        """The move as JSON: the fields of a Morris move (``before``: the best expected
        result, ``after``: the played one, each ``{"result": "expected", "expected": p,
        "distance": null}``), with ``judged``, ``loss`` and ``best_words``."""

        def value(expected: float | None) -> JSONValue:
            if expected is None:
                return None
            return {"result": "expected", "expected": round(expected, 6), "distance": None}

        return {
            "number": self.number,
            "seat": self.seat,
            "seat_name": self.seat_name,
            "seat_move": self.seat_move,
            "text": self.text,
            "words": self.words,
            "before": value(self.best_value),
            "after": value(self.played),
            "best": self.best,
            "best_words": self.best_words,
            "mark": None if self.mark is None else self.mark.value,
            "judged": self.judged,
            "loss": None if self.loss is None else round(self.loss, 6),
            **said_fields(seat_said=self.seat_name, said=self.words, best_said=self.best_words),
        }


def engine_of(game: AnyGame, deals: int, seed: str | int, seats: Iterable[int]) -> JSONObject:
    """The review's engine and settings: what makes it reproducible."""
    kind = _kind(game)
    engine: JSONObject
    if isinstance(game, FanoGame):
        from fanfold.agents.ladder import lookahead, model

        engine = {
            "engine": "fano-ladder-lookahead",
            "member": "balanced",
            "model": model.VERSION,
            "limit": lookahead.LIMIT,
        }
    else:
        engine = {
            "engine": "fantan-pimc",
            "infer": True,
            "lookahead": FANTAN_LOOKAHEAD,
            "group": FANTAN_GROUP,
        }
    seated: list[JSONValue] = list(seats)
    return {
        **engine,
        "deals": deals,
        "seed": str(seed),
        "seats": seated,
        "noise_floor": NOISE_FLOOR[kind],
        "inaccuracy": INACCURACY,
        "mistake": MISTAKE,
        "blunder": BLUNDER,
        "fanfold": _fanfold_version(),
    }


def reviewed_seats(record: GameRecord, players: int) -> tuple[int, ...]:
    """The seats a review judges: those the record labels ``"human"``; every seat where the
    record names no players."""
    if not record.players:
        return tuple(range(players))
    return tuple(seat for seat, label in enumerate(record.players) if label == "human")


def review_moves(
    record: GameRecord,
    *,
    seed: str | int,
    deals: int | None = None,
    seats: Iterable[int] | None = None,
    start: int = 0,
    stop: int | None = None,
    values: Values | None = None,
    states: Sequence[Any] | None = None,
) -> list[CardMove]:
    """Judge moves ``start + 1`` to ``stop`` of a Fano or Fan Tan game (numbered from 1; all
    by default), each from its seat's view.

    Args:
        record: the game (replayed to reach each decision).
        seed: the review's seed.
        deals: deals a decision (default :func:`default_deals`).
        seats: the seats judged (default :func:`reviewed_seats`).
        values: the evaluation (default :func:`values_of` the game's).
        states: the record's states (:meth:`GameRecord.states`), where the caller replayed
            it already (a step that also needs the game's end): not replayed again.

    Raises:
        ReviewError: not a game (or variant) this module reviews.
        RecordError: the record does not replay.
    """
    game = get_game(record.game)
    states = record.states() if states is None else states
    config = game.config_of(states[0])
    if not reviews_cards(game, config):
        raise ReviewError(
            f"no engine review for this {game.title} variant: reviews cover the variants the "
            "compiled search plays (Fan Tan: one hand, plain scoring, a fixed starting rank)"
        )
    deals = default_deals(game) if deals is None else deals
    judged = set(reviewed_seats(record, game.num_players(config)) if seats is None else seats)
    evaluate = values_of(game) if values is None else values
    end = len(record.actions) if stop is None else min(stop, len(record.actions))
    counter = _Seats(game, config)
    moves: list[CardMove] = []
    floor = NOISE_FLOOR[_kind(game)]
    for number, text in enumerate(record.actions, start=1):
        if number > end:
            break
        before, after = states[number - 1], states[number]
        mover = game.current_player(before)
        assert mover is not None  # the record replays: someone was to move
        name, seat_move = counter.next(mover)
        if number <= start:
            continue
        action = game.parse_action(text)
        words = game.describe_action(before, action, None, after)
        legal = list(game.legal_actions(before))
        if mover not in judged or len(legal) < 2:
            kind = "bot" if mover not in judged else "forced"
            moves.append(CardMove(number, mover, name, seat_move, text, words, kind))
            continue
        # Only the deciding seat's view goes on: the deals are sampled from it.
        view = game.observe(before, mover)
        found = evaluate(view, legal, decision_seed(seed, number), deals)
        played_index = next(i for i, move in enumerate(legal) if game.action_text(move) == text)
        best_index = max(range(len(legal)), key=lambda i: (found[i], i == played_index))
        loss = found[best_index] - found[played_index]
        best_move = None if best_index == played_index else legal[best_index]
        moves.append(
            CardMove(
                number,
                mover,
                name,
                seat_move,
                text,
                words,
                "yes",
                found[played_index],
                found[best_index],
                None if best_move is None else game.action_text(best_move),
                None
                if best_move is None
                else game.describe_action(
                    before, best_move, None, game.apply_legal(before, best_move)
                ),
                loss,
                mark_of(loss, floor),
            )
        )
    return moves


# The summary's sentences (fanfold.core.phrases), worded on the page in its reader's language;
# a percentage is a whole number.
phrases(
    {
        "review.move.inaccuracy": (
            "{seat}'s {ordinal} move, {move}, was an inaccuracy: {played}% expected against "
            "{best_value}% for {best}."
        ),
        "review.move.mistake": (
            "{seat}'s {ordinal} move, {move}, was a mistake: {played}% expected against "
            "{best_value}% for {best}."
        ),
        "review.move.blunder": (
            "{seat}'s {ordinal} move, {move}, was a blunder: {played}% expected against "
            "{best_value}% for {best}."
        ),
        "review.nothing_judged": (
            "No decision was judged: a review judges the decisions of human seats that had a "
            "choice of moves, and this game had none."
        ),
        "review.judged_from_views": (
            "Each decision of {seats} was judged from that seat's view only, on {deals} deals "
            "sampled from what it could see; a move is marked when it lost more than {floor}% "
            "of expected result (the measured noise)."
        ),
        "review.nothing_marked": "No move was marked: none lost expected result above the noise.",
        "review.bots_not_reviewed": "Bots' seats are not reviewed: {seats}.",
    }
)


def _percent(fraction: float) -> int:
    """A fraction as a whole percentage, rounded as ``format(fraction, ".0%")`` rounds."""
    return int(f"{fraction:.0%}".removesuffix("%"))


def _seat_name(entry: JSONObject) -> str:
    """A stored move's seat name: the phrase it was (``seat_said``), else its English."""
    said: Any = entry.get("seat_said")
    return Phrase.from_json(said) if isinstance(said, dict) else str(entry["seat_name"])


def move_sentence(entry: JSONObject) -> str:
    """``Player 1's 3rd move, play 7H, was a mistake: 41% expected against 58% for play 8H.``"""
    mark = Mark(str(entry["mark"]))
    before: Any = entry["before"]
    after: Any = entry["after"]
    return Phrase(
        f"review.move.{mark.value}",
        seat=_seat_name(entry),
        ordinal=ordinal(int(str(entry["seat_move"]))),
        move=str(entry["text"]),
        played=_percent(after["expected"]),
        best_value=_percent(before["expected"]),
        best=str(entry["best"]),
    )


def summary_of(entries: Sequence[JSONObject], engine: JSONObject, ending: str) -> list[str]:
    """The review's sentences from its stored moves (phrases): what judged them, each marked
    move, the seats not reviewed, and how the game ended."""
    seats = sorted({int(str(entry["seat"])) for entry in entries if entry["judged"] == "yes"})
    names = {int(str(entry["seat"])): _seat_name(entry) for entry in entries}
    lines: list[str]
    if not seats:
        lines = [Phrase("review.nothing_judged")]
    else:
        floor: Any = engine["noise_floor"]
        lines = [
            Phrase(
                "review.judged_from_views",
                seats=joined([names[seat] for seat in seats], "words.and_also"),
                deals=str(engine["deals"]),
                floor=_percent(float(floor)),
            )
        ]
    lines += [move_sentence(entry) for entry in entries if entry.get("mark") is not None]
    if not any(entry.get("mark") is not None for entry in entries) and seats:
        lines.append(Phrase("review.nothing_marked"))
    bots = {int(str(e["seat"])) for e in entries if e["judged"] == "bot"}
    skipped = sorted((names[seat] for seat in bots), key=str)
    if skipped:
        lines.append(Phrase("review.bots_not_reviewed", seats=joined(skipped)))
    lines.append(ending)
    return lines


def ending_of(record: GameRecord, states: Sequence[Any] | None = None) -> str:
    """How the game ended, in a sentence (``states``: the record's, where the caller replayed
    it already)."""
    game = get_game(record.game)
    return _ending(record, game, (record.states() if states is None else states)[-1])


def review_cards(
    record: GameRecord,
    *,
    seed: str | int,
    deals: int | None = None,
    seats: Iterable[int] | None = None,
) -> JSONObject:
    """The whole review of a Fano or Fan Tan game as JSON (the format of
    :meth:`fanfold.play.review.Review.to_json`, ``deal`` null). The same record, seed, deals
    and seats give the same JSON; the stored full deal is read only to build each deciding
    seat's view."""
    game = get_game(record.game)
    config = game.config_from_json(record.config)
    chosen = reviewed_seats(record, game.num_players(config)) if seats is None else tuple(seats)
    deals = default_deals(game) if deals is None else deals
    states = record.states()  # replayed once, for the moves and the ending
    judged = review_moves(record, seed=seed, deals=deals, seats=chosen, states=states)
    moves = [move.to_json() for move in judged]
    engine = engine_of(game, deals, seed, chosen)
    sentences = summary_of(moves, engine, ending_of(record, states))
    summary: list[JSONValue] = list(sentences)
    listed: list[JSONValue] = list(moves)
    return {
        "format": REVIEW_FORMAT,
        "version": REVIEW_VERSION,
        "game": game.id,
        "title": game.title,
        "engine": engine,
        "record": record.to_json(),
        "moves": listed,
        "deal": None,
        "summary": summary,
        "summary_said": summary_said(sentences),
    }
