"""The HTTP answers about tables, each the ``response_model`` of its route (so
``/openapi.json`` describes every answer), and their builders: a new table (:class:`Created`,
:func:`created_message`), an invitation, a claimed seat, an action, an undo or an ending done,
an analysis, the lobby's list (:func:`summaries`), today's deal, the games on offer
(:func:`game_catalogue`), a game's record and the lessons. A route builds its answer's model
and returns it; FastAPI serialises it (``response_model_exclude_unset``: the fields it was
given)."""

from __future__ import annotations

from typing import Any

from fanfold.agents.base import registered_agents
from fanfold.agents.levels import LEVELS, level_agent
from fanfold.core.registry import all_games
from fanfold.play.analysis import analyses_for
from fanfold.server.live import Created as NewTable
from fanfold.server.protocol.base import Out
from fanfold.server.protocol.messages import Choice, Outcome


class Created(Out):
    """A new table: its id, the creator's token and an invitation per friend's seat."""

    table: str
    token: str
    invites: dict[str, str]


class Invitation(Out):
    """What an invitation opens (nothing changes)."""

    table: str
    seat: int
    name: str
    game: str
    variant: Any
    chosen_deal: bool
    practice: bool


class SeatGiven(Out):
    """An open seat given to a bot."""

    table: str
    seat: int
    level: str


class Claimed(Out):
    """A claimed seat and the token that holds it now."""

    table: str
    seat: int
    token: str


class Reinvited(Out):
    """A new invitation to a seat."""

    table: str
    seat: int
    invite: str


class RematchAnswer(Out):
    """A rematch opened (or found): the new table and the asker's seats there."""

    table: str
    seats: list[int]


class Acted(Out):
    """An HTTP action done: the action, its number and the version it produced."""

    ok: bool
    played: str
    number: int
    version: int


class Undone(Out):
    """An HTTP undo: whether anything was taken back, and the version after it."""

    ok: bool
    version: int


class EndedAnswer(Out):
    """An HTTP ending: whether the game ended (a draw offered: not yet), and the version."""

    ok: bool
    version: int


class AnalysisAnswer(Out):
    """An analysis of the position at ``version``."""

    name: str
    text: str
    data: Any
    version: int


class TableSummary(Out):
    """A line of the lobby's list of public tables."""

    table: str
    game: str
    players: list[str]
    moves: int
    over: bool
    updated: float


class WaitingGame(Out):
    """An unfinished game waiting for the signed-in player's move (``GET /api/me/waiting``):
    the table, its game's title, the player's seat, the others at it, since when (a
    ``time.time()``), the table's page; ``daily`` and ``left`` (the seconds the move has
    left) for a table of the daily speed, ``speed`` for any table with a clock."""

    table: str
    game: str
    seat: int
    opponents: list[str]
    since: float
    page: str
    daily: bool
    speed: str | None = None
    left: float | None = None
    #: Each of ``opponents`` as a code and params where it is words, not a name (``a guest``,
    #: ``Easy bot``: ``fanfold.core.phrases.Phrase``), else ``None``; sent when any is.
    opponents_said: list[dict[str, Any] | None] | None = None


class Daily(Out):
    """Today's Fan deal, the same for everyone: a PySolFC deal number that the solver proved
    winnable under the ``variant`` (:mod:`fanfold.server.daily`), and the day (UTC)."""

    game: str
    deal: int
    variant: str | None = None
    date: str | None = None


class Preset(Out):
    name: str
    description: str
    players: list[int]
    default_players: int


class Bot(Out):
    name: str
    description: str
    strength: int
    #: One of the levels (easy, medium, hard); ``agent`` is what it plays as.
    level: bool
    agent: str


class CatalogueEntry(Out):
    """A game with its presets, bots and analyses (``GET /api/games``)."""

    name: str
    id: str
    title: str
    summary: str
    hidden_information: bool
    #: Whether a table may have a time limit per decision.
    time_limit: bool
    presets: list[Preset]
    bots: list[Bot]
    analyses: list[str]


class RecordFile(Out):
    """A game's record (``GET /api/tables/{id}/record``, a file to download)."""

    format: str
    game: str
    config: dict[str, Any]
    #: Decimal digits (a seed has up to 128 bits).
    seed: str
    actions: list[str]
    start_position: str | None = None
    players: list[str] | None = None
    outcome: Outcome | None = None


# ------------------------------------------------------------------ lessons


class LessonSummary(Out):
    game: str
    id: str
    title: str
    source: str
    variant: Any
    steps: int


class LessonStep(Out):
    """A step of a lesson as the learner sees it."""

    index: int
    prompt: str | None
    hint: str | None
    view: Any
    text: str
    legal: list[str]
    choices: list[Choice]
    log: list[dict[str, Any]]
    outcome: Outcome | None


class LessonAnswer(LessonSummary):
    """A lesson and one of its steps."""

    intro: str
    seat: int
    seats: list[str]
    next_lesson: LessonSummary | None
    step: LessonStep


class LessonShown(Out):
    """The lesson's move(s) at a step, and why."""

    step: int
    answers: list[str]
    #: Each answer in words, as the board's buttons say it.
    labels: list[str] | None = None
    explanation: str


class LessonVerdict(Out):
    """The verdict on a learner's move."""

    verdict: str
    played: str | None
    #: The move played, in words (when it is legal).
    label: str | None = None
    message: str
    done: bool | None = None
    next: LessonStep | None = None
    summary: str | None = None
    next_lesson: LessonSummary | None = None


# ------------------------------------------------------------------ builders


def created_message(created: NewTable) -> Created:
    """The answer to a new table (:class:`Created`)."""
    invites = {str(seat): invite for seat, invite in created.invites.items()}
    return Created(table=created.id, token=created.token, invites=invites)


def game_catalogue() -> list[CatalogueEntry]:
    """Every game with its presets (and their player counts) and the bots that play it."""
    games: list[CatalogueEntry] = []
    for game in all_games():
        presets = [
            Preset(
                name=preset.name,
                description=preset.description,
                players=list(preset.player_counts) or [game.num_players(preset.config)],
                default_players=game.num_players(preset.config),
            )
            for preset in game.presets()
        ]
        bots = [
            Bot(
                name=entry.name,
                description=entry.description,
                strength=entry.strength,
                level=entry.name in LEVELS,
                agent=level_agent(game, entry.name) if entry.name in LEVELS else entry.name,
            )
            for entry in sorted(registered_agents(game), key=lambda e: e.strength)
        ]
        games.append(
            CatalogueEntry(
                name=game.name,
                id=game.id,
                title=game.title,
                summary=game.summary,
                hidden_information=game.has_hidden_information,
                time_limit=game.has_passive_action,
                presets=presets,
                bots=bots,
                analyses=sorted(analyses_for(game)),
            )
        )
    return games


def summaries(found: Any) -> list[TableSummary]:
    """The lobby's list (:class:`TableSummary`) from the store's lines."""
    return [
        TableSummary(
            table=s.id,
            game=s.game.split(".")[0],
            players=list(s.players),
            moves=s.moves,
            over=s.over,
            updated=s.updated,
        )
        for s in found
    ]


__all__ = [
    "Acted",
    "AnalysisAnswer",
    "Bot",
    "CatalogueEntry",
    "Claimed",
    "Created",
    "Daily",
    "EndedAnswer",
    "Invitation",
    "LessonAnswer",
    "LessonShown",
    "LessonStep",
    "LessonSummary",
    "LessonVerdict",
    "Preset",
    "RecordFile",
    "Reinvited",
    "RematchAnswer",
    "SeatGiven",
    "TableSummary",
    "Undone",
    "created_message",
    "game_catalogue",
    "summaries",
]
