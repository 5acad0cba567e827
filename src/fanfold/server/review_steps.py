"""One step of a stored engine review (:mod:`fanfold.server.reviews`): where it ends
(:func:`step_end`), what the review worker computes for it (:func:`review_step`), and, where
the reviews have a SQLite file of their own, the step computed and its moves stored by the
worker itself (:func:`stored_step`, asked by :class:`WorkerSteps` with a :class:`StepClaim`),
so that the server's process writes none of them."""

from __future__ import annotations

import dataclasses
import functools
import pickle
import time
from collections.abc import Awaitable, Callable
from typing import Any

from fanfold.core.config import JSONObject, JSONValue
from fanfold.core.pauses import pause_point
from fanfold.core.records import GameRecord
from fanfold.core.registry import get_game
from fanfold.games.morris import MorrisGame
from fanfold.play import review as reviewed
from fanfold.play.review import review
from fanfold.server.card_reviews import card_step, card_summary, is_card_review
from fanfold.server.store.review_step_writes import claim_review, entry_rows, store_step

#: Morris moves judged per step (one call in the bot pool, then stored).
CHUNK = 16
#: Fano and Fan Tan moves per step (each decision of a human seat sampled; the page fills in
#: every few seconds).
CARD_CHUNK = 6


def step_end(game: str, moves: int, start: int) -> int:
    """Where the step that starts at move ``start`` (0-based) ends: Morris after
    :data:`CHUNK` moves, Fano and Fan Tan after :data:`CARD_CHUNK`, Fan at the game's end (its
    bisection needs the whole game)."""
    if isinstance(get_game(game), MorrisGame):
        return min(moves, start + CHUNK)
    if is_card_review(game):
        return min(moves, start + CARD_CHUNK)
    return moves


def review_step(
    record: JSONObject, stop: int, budget: int | None, seed: str = "0", start: int = 0
) -> JSONObject:
    """The review of a record cut after its first ``stop`` moves (the whole game, with its
    ending, when ``stop`` reaches it), as JSON: what a worker of the bot pool computes for one
    step. A Morris move is judged from the moves before it only, so a cut record judges its
    moves as the whole one does. Each move gets ``best_words`` (and ``best_said``) too.

    Fano and Fan Tan (:mod:`fanfold.play.review_cards`): only moves ``start + 1`` to ``stop``
    are judged, on ``budget`` deals a decision from ``seed``; the human seats are those the
    record labels ``"human"``; the summary holds the ending only (the whole summary is made
    from the stored moves, :func:`card_summary`)."""
    if is_card_review(str(record["game"])):
        return card_step(GameRecord.from_json(record), stop, budget, seed, start)
    cut = GameRecord.from_json(record)
    if stop < len(cut.actions):
        cut = dataclasses.replace(cut, actions=cut.actions[:stop], outcome=None, ruling=None)
    result = review(cut, max_states=budget).to_json()
    game = get_game(cut.game)
    states = cut.states()
    moves: list[Any] = result["moves"]  # type: ignore[assignment]
    for entry in moves:
        best = entry["best"]
        before = states[int(entry["number"]) - 1]
        entry["best_words"] = (
            None
            if best is None
            else game.describe_action(
                before, game.parse_action(str(best)), None, game.apply_text(before, str(best))
            )
        )
        entry.update(reviewed.said_fields(best_said=entry["best_words"]))
    return result


@dataclasses.dataclass(frozen=True)
class StepClaim:
    """Where the review worker writes a review itself, and under whose claim: the reviews'
    SQLite file (``path``), the review (``table_id``, ``version``, its ``game``), its holder
    (``owner``) and the lease each write extends (seconds from the worker's clock). ``first``:
    the review's first step here, which claims it first and goes on from the moves stored."""

    path: str
    table_id: str
    version: int
    game: str
    owner: str
    lease: float
    first: bool = False


#: The fields of a step's answer kept for the server (its moves, what its writes did and, of
#: a first step, its claim; the rest of the review's JSON is not sent back).
STEP_FIELDS = ("moves", "stored", "writes", "claimed", "attempts", "start", "stop", "done")


def closing(
    game: str, result: JSONObject, stored: list[JSONObject] | None
) -> tuple[JSONObject, list[JSONValue], Any]:
    """What closes a review after its last step's ``result``: its engine, its summary as kept
    (Fano and Fan Tan: made from the ``stored`` moves) and its deal."""
    summary = reviewed.summary_from_json(result)
    engine: Any = result["engine"]
    if is_card_review(game):
        assert stored is not None
        summary = card_summary(stored, engine, summary[-1])
    return engine, reviewed.stored_summary(summary), result["deal"]


def stored_step(
    claim: StepClaim, record: JSONObject, stop: int, budget: int | None, seed: str, start: int
) -> JSONObject:
    """One step of a review computed and written by the review worker itself, in the reviews'
    file under ``claim`` (:mod:`fanfold.server.store.review_step_writes`). A first step claims
    the review (``claimed``, false: someone else holds it, nothing computed; ``attempts``) and
    starts after the moves stored (``start`` and ``stop`` answered), else moves ``start + 1``
    to ``stop``. Its moves are stored only while the owner holds the review, extending the
    lease (``stored``; false: taken over, nothing stored), and the game's last step closes the
    review in the same transaction (``done``). ``moves``: those stored, by number; ``writes``:
    each transaction's seconds waiting for the file's write lock and in it. The write of the
    moves is a pause point (:func:`~fanfold.core.pauses.pause_point`): in the review worker it
    waits while live play is under way, as the step's work does."""
    answer: dict[str, Any] = {"claimed": True, "done": False, "writes": []}
    if claim.first:
        claimed = claim_review(
            claim.path, claim.table_id, claim.version, claim.owner, time.time(), claim.lease
        )
        if claimed is None:
            answer.update(claimed=False, stored=False, moves=[])
            return answer
        answer["writes"].append([claimed.write.waited, claimed.write.took])
        answer["attempts"] = claimed.attempts
        start = claimed.stored
        stop = step_end(claim.game, len(record["actions"]), start)  # type: ignore[arg-type]
    result = review_step(record, stop, budget, seed, start)
    listed: list[Any] = result["moves"]  # type: ignore[assignment]
    moves = sorted(
        (entry for entry in listed if start < int(entry["number"]) <= stop),
        key=lambda entry: int(entry["number"]),
    )
    rows = entry_rows(moves)  # the texts made before the transaction
    last = stop >= len(record["actions"])  # type: ignore[arg-type]
    done = functools.partial(closing, claim.game, result) if last else None
    pause_point()  # the worker's write waits for live play too, as the step's work does
    write = store_step(
        claim.path,
        claim.table_id,
        claim.version,
        claim.owner,
        rows,
        time.time(),
        claim.lease,
        done,
        read=is_card_review(claim.game),
    )
    answer["writes"].append([write.waited, write.took])
    answer.update(moves=moves, stored=write.stored, start=start, stop=stop)
    answer["done"] = write.stored and last
    return {name: answer[name] for name in STEP_FIELDS if name in answer}


def packed_review_step(
    packed: bytes, stop: int, budget: int | None, seed: str, start: int
) -> JSONObject:
    """:func:`review_step` of the record pickled in ``packed`` (:meth:`WorkerSteps.packed`)."""
    return review_step(pickle.loads(packed), stop, budget, seed, start)


def packed_stored_step(
    claim: StepClaim, packed: bytes, stop: int, budget: int | None, seed: str, start: int
) -> JSONObject:
    """:func:`stored_step` of the record pickled in ``packed`` (:meth:`WorkerSteps.packed`)."""
    return stored_step(claim, pickle.loads(packed), stop, budget, seed, start)


#: The records :class:`WorkerSteps` keeps pickled (the reviews under way at once, and more).
PACKED_RECORDS = 32


@dataclasses.dataclass(frozen=True)
class WorkerSteps:
    """A review's steps computed by the review worker (``run``:
    :meth:`fanfold.server.bots.ReviewWorker.run`) at ``priority``: called as a
    :data:`~fanfold.server.reviews.Compute`, it answers :func:`review_step`'s JSON (the
    server stores the moves); given a :class:`StepClaim` besides, the worker stores them
    itself (:func:`stored_step`).

    The record crosses to the worker as bytes pickled once for all of a review's steps
    (:meth:`packed`), not as its JSON pickled again for each step on the event loop (about
    0.13 ms a step for a Fano game of 900 moves)."""

    run: Callable[..., Awaitable[Any]]
    priority: Any
    _packed: dict[int, tuple[GameRecord, bytes]] = dataclasses.field(
        default_factory=dict, repr=False, compare=False
    )

    def packed(self, record: GameRecord) -> bytes:
        """``record``'s JSON pickled, made at its first step and kept for the next ones (the
        last :data:`PACKED_RECORDS` records; each kept with its bytes, so that its ``id`` is
        not another's)."""
        kept = self._packed.get(id(record))
        if kept is not None and kept[0] is record:
            return kept[1]
        data = pickle.dumps(record.to_json(), protocol=pickle.HIGHEST_PROTOCOL)
        self._packed[id(record)] = (record, data)
        while len(self._packed) > PACKED_RECORDS:
            del self._packed[next(iter(self._packed))]
        return data

    async def __call__(
        self,
        record: GameRecord,
        stop: int,
        budget: int | None,
        seed: str,
        start: int,
        claim: StepClaim | None = None,
    ) -> JSONObject:
        game = self.packed(record)
        if claim is None:
            answer = await self.run(
                packed_review_step, game, stop, budget, seed, start, priority=self.priority
            )
        else:
            answer = await self.run(
                packed_stored_step, claim, game, stop, budget, seed, start, priority=self.priority
            )
        found: JSONObject = answer
        return found


__all__ = [
    "CARD_CHUNK",
    "CHUNK",
    "STEP_FIELDS",
    "StepClaim",
    "WorkerSteps",
    "closing",
    "packed_review_step",
    "packed_stored_step",
    "review_step",
    "step_end",
    "stored_step",
]
