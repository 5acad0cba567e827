"""Lessons: worked examples of a rules text, played one move at a time.

A :class:`Lesson` is a position written in its game's position notation (and loaded through
the game's engine), the seat the learner plays, and one or more :class:`LessonStep` s. At each
step the learner is asked for a move; :meth:`LessonBook.judge` reads the answer with the game's
notation and checks it with the game's rules:

* ``correct``: one of the step's answers; the lesson goes on from the position after it (and
  after any replies of the other seats that the step scripts, such as a defender's ``allow``);
* ``other``: a legal move, but not the one the lesson is about, with why (a listed
  :class:`Mistake` says why in the lesson's words);
* ``illegal``: the rules refuse it, with the game's own explanation.

Text that does not parse raises the game's :class:`~fanfold.core.errors.NotationError`. Judging
changes nothing: states are immutable, and the position before each step is rebuilt from the
lesson's start by playing the answers (and replies) of the steps before it.

Lessons hold every card of their positions, hidden ones included: a front end shows the learner
only ``game.observe(state, lesson.seat)`` and the lesson's own words.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from fanfold.core.errors import FanfoldError, Refusal, templates
from fanfold.core.game import Game

StateT = TypeVar("StateT")


templates(
    {
        "lesson.unknown": "{game} has no lesson called {lesson}; its lessons: {names}",
        "lesson.no_step": "the lesson {lesson} has steps 0 to {last}, not step {step}",
    }
)


class UnknownLessonError(FanfoldError, KeyError):
    """A lesson id, or a step of a lesson, that does not exist."""

    def __str__(self) -> str:  # KeyError quotes its message; show it plainly.
        return str(self.args[0]) if self.args else ""


@dataclass(frozen=True, slots=True)
class Mistake:
    """A move a learner may well try at a step, and what the lesson says about it.

    Attributes:
        action: the move in the game's notation.
        legal: whether the rules allow it here (the lesson's tests check it).
        note: why it is not the move the lesson asks for.
    """

    action: str
    legal: bool
    note: str


@dataclass(frozen=True, slots=True)
class LessonStep:
    """One move the learner is asked to find.

    Attributes:
        prompt: the question.
        hint: a nudge towards the answer that does not give it away.
        answers: the accepted moves, in the game's notation. Before the last step they must all
            lead to the same position (after the replies), from which the lesson goes on.
        explanation: what the move does and why it is good, shown once it is found.
        mistakes: likely wrong moves and what the lesson says about each.
        replies: moves of other seats that follow the answer, in the game's notation, until
            the learner decides again (or the lesson ends).
    """

    prompt: str
    hint: str
    answers: tuple[str, ...]
    explanation: str
    mistakes: tuple[Mistake, ...] = ()
    replies: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Lesson:
    """A worked example to play.

    Attributes:
        id: unique within its game (a URL part: lower case letters, digits and dashes).
        title: a short title.
        source: where the example comes from (the rules text and the example).
        variant: the variant in words (``"classic"``, ``"Trionfey"``).
        config: the game's config for the position.
        position: the position in the game's notation (hidden cards included).
        seat: the seat the learner plays.
        intro: the situation, in words.
        steps: the moves to find, in order.
        summary: the closing words once every step is done.
    """

    id: str
    title: str
    source: str
    variant: str
    config: Any
    position: str
    seat: int
    intro: str
    steps: tuple[LessonStep, ...]
    summary: str


class Verdict(enum.Enum):
    """How a learner's move was judged."""

    CORRECT = "correct"
    OTHER = "other"
    ILLEGAL = "illegal"


@dataclass(frozen=True, slots=True)
class Judgement:
    """The verdict on a learner's move: ``played`` is its canonical text, ``message`` the
    explanation (correct), the reason it is not the lesson's move (other) or the rules' reason
    (illegal)."""

    verdict: Verdict
    played: str
    message: str


class LessonBook(Generic[StateT]):
    """A game's lessons, and the positions and verdicts that the game's engine gives them."""

    def __init__(self, game: Game[Any, StateT, Any, Any], lessons: Sequence[Lesson]) -> None:
        ids = [lesson.id for lesson in lessons]
        if len(set(ids)) != len(ids):
            raise ValueError(f"lesson ids must be unique: {ids}")
        self.game = game
        self.lessons: tuple[Lesson, ...] = tuple(lessons)
        self._by_id = {lesson.id: lesson for lesson in lessons}
        self._states: dict[str, tuple[StateT, ...]] = {}

    def get(self, lesson_id: str) -> Lesson:
        """The lesson called ``lesson_id``; :class:`UnknownLessonError` if none is."""
        found = self._by_id.get(lesson_id)
        if found is None:
            names = ", ".join(self._by_id)
            raise UnknownLessonError(
                Refusal("lesson.unknown", game=self.game.title, lesson=repr(lesson_id), names=names)
            )
        return found

    def next_after(self, lesson: Lesson) -> Lesson | None:
        """The lesson that follows ``lesson`` in the book, if any."""
        index = self.lessons.index(lesson)
        return self.lessons[index + 1] if index + 1 < len(self.lessons) else None

    def states(self, lesson: Lesson) -> tuple[StateT, ...]:
        """The position before each step, and last the position after the final step.

        Raises:
            NotationError, IllegalActionError: the lesson's data does not fit its game (the
                lessons' tests make sure it does).
        """
        known = self._states.get(lesson.id)
        if known is not None:
            return known
        game = self.game
        state = game.parse_position(lesson.position, lesson.config)
        states = [state]
        for step in lesson.steps:
            for text in (step.answers[0], *step.replies):
                state = game.apply_text(state, text)
            states.append(state)
        self._states[lesson.id] = tuple(states)
        return self._states[lesson.id]

    def state(self, lesson: Lesson, step: int) -> StateT:
        """The position before step ``step`` (from 0); ``len(lesson.steps)``: after the last."""
        if not 0 <= step <= len(lesson.steps):
            raise UnknownLessonError(
                Refusal(
                    "lesson.no_step", lesson=repr(lesson.id), last=len(lesson.steps) - 1, step=step
                )
            )
        return self.states(lesson)[step]

    def played(self, lesson: Lesson, step: int) -> list[tuple[int, str]]:
        """The moves played from the start up to the position before ``step``: (seat, the text
        the learner's seat was told)."""
        return [(seat, text) for seat, text, _ in self.told(lesson, step)]

    def told(
        self, lesson: Lesson, step: int, answer: str | None = None
    ) -> list[tuple[int, str, str]]:
        """As :meth:`played`, each move also in words as the learner's seat is told it at a
        table (:meth:`~fanfold.core.game.Game.describe_action`): (seat, text, words). With
        ``answer`` (one of step ``step``'s answers), the moves after it and the step's
        replies too."""
        self.state(lesson, step)  # the step exists
        state = self.state(lesson, 0)
        told: list[tuple[int, str, str]] = []
        for earlier in lesson.steps[:step]:
            state = self._play(lesson, state, (earlier.answers[0], *earlier.replies), told)
        if answer is not None:
            self._play(lesson, state, (answer, *lesson.steps[step].replies), told)
        return told

    def after(self, lesson: Lesson, step: int, answer: str) -> tuple[StateT, list[tuple[int, str]]]:
        """The position after ``answer`` (one of step ``step``'s answers) and the step's
        replies, with the moves played from the start (as :meth:`played`)."""
        told: list[tuple[int, str, str]] = []
        state = self._play(
            lesson, self.state(lesson, step), (answer, *lesson.steps[step].replies), told
        )
        return state, self.played(lesson, step) + [(seat, text) for seat, text, _ in told]

    def _play(
        self, lesson: Lesson, state: StateT, texts: Sequence[str], told: list[tuple[int, str, str]]
    ) -> StateT:
        game = self.game
        for text in texts:
            seat = game.current_player(state)
            action = game.parse_action(text)
            announced = game.public_action_text(state, action, lesson.seat)
            reached = game.apply(state, action)
            if announced and seat is not None:
                words = game.describe_action(state, action, lesson.seat, reached)
                told.append((seat, announced, words or announced))
            state = reached
        return state

    def judge(self, lesson: Lesson, step: int, text: str) -> Judgement:
        """The verdict on the learner's move ``text`` at ``step``.

        Raises:
            NotationError: ``text`` is not a move in the game's notation.
            UnknownLessonError: there is no such step.
        """
        if not 0 <= step < len(lesson.steps):
            raise UnknownLessonError(
                Refusal(
                    "lesson.no_step", lesson=repr(lesson.id), last=len(lesson.steps) - 1, step=step
                )
            )
        game = self.game
        state = self.state(lesson, step)
        action = game.parse_action(text)
        played = game.action_text(action)
        current = lesson.steps[step]
        mistake = next(
            (
                m
                for m in current.mistakes
                if game.action_text(game.parse_action(m.action)) == played
            ),
            None,
        )
        if not game.is_legal(state, action):
            reason = game.explain_illegal(state, action)
            if mistake is not None:
                reason = f"{reason}. {mistake.note}"
            return Judgement(Verdict.ILLEGAL, played, reason)
        answers = {game.action_text(game.parse_action(answer)) for answer in current.answers}
        if played in answers:
            return Judgement(Verdict.CORRECT, played, current.explanation)
        # The move in words, as the table offers it (its choice's label), not in notation.
        named = next((c.label for c in game.choices(state) if c.text == played), played)
        if mistake is not None:
            return Judgement(Verdict.OTHER, played, f"“{named}” is legal, but {mistake.note}")
        return Judgement(
            Verdict.OTHER,
            played,
            f"“{named}” is legal, but it is not the move this lesson is after; "
            "read the question again, or ask for the hint.",
        )

    def problems(self, lesson: Lesson) -> list[str]:
        """What is wrong with ``lesson``'s data: every answer must be legal where it is asked,
        the learner must decide at every step, replies must be legal and bring the decision
        back to the learner, and every mistake must be judged as the lesson says (legal or
        not, and never an answer). An empty list: nothing."""
        game = self.game
        found: list[str] = []
        if not lesson.steps:
            return [f"{lesson.id}: no steps"]
        try:
            state = game.parse_position(lesson.position, lesson.config)
        except FanfoldError as error:
            return [f"{lesson.id}: the position does not load: {error}"]
        for number, step in enumerate(lesson.steps):
            where = f"{lesson.id} step {number}"
            if game.current_player(state) != lesson.seat:
                found.append(f"{where}: seat {lesson.seat} does not decide here")
                break
            if not step.answers:
                found.append(f"{where}: no answer")
                break
            answers = set()
            for answer in step.answers:
                try:
                    action = game.parse_action(answer)
                except FanfoldError as error:
                    found.append(f"{where}: answer {answer!r} does not parse: {error}")
                    continue
                answers.add(game.action_text(action))
                if not game.is_legal(state, action):
                    found.append(f"{where}: answer {answer} is illegal")
            for mistake in step.mistakes:
                try:
                    action = game.parse_action(mistake.action)
                except FanfoldError as error:
                    found.append(f"{where}: mistake {mistake.action!r} does not parse: {error}")
                    continue
                if game.action_text(action) in answers:
                    found.append(f"{where}: mistake {mistake.action} is also an answer")
                if game.is_legal(state, action) != mistake.legal:
                    said = "legal" if mistake.legal else "illegal"
                    found.append(f"{where}: mistake {mistake.action} is not {said}")
            last = number == len(lesson.steps) - 1
            try:
                reached = [
                    game.format_position(self._play(lesson, state, (answer, *step.replies), []))
                    for answer in step.answers
                ]
                state = self._play(lesson, state, step.answers[:1], [])
                for reply in step.replies:
                    if game.current_player(state) == lesson.seat:
                        found.append(f"{where}: the reply {reply} would be the learner's move")
                    state = self._play(lesson, state, (reply,), [])
            except FanfoldError as error:
                found.append(f"{where}: an answer or a reply cannot be played: {error}")
                break
            if not last and len(set(reached)) > 1:
                found.append(
                    f"{where}: the answers lead to different positions (only the last "
                    "step may accept answers that do)"
                )
            if not last and game.current_player(state) != lesson.seat:
                found.append(f"{where}: after the replies seat {lesson.seat} does not decide")
                break
        return found
