"""Where ratings start: a person at :data:`MU`, :data:`SIGMA`; a bot level at its measured
strength (:func:`bot_anchors`: arena runs of the levels against each other, rated with the
model of :mod:`fanfold.server.ratings` by ``scripts/rate_bots.py``), in its live family (a
daily family's levels are its live family's: a bot plays alike at any speed)."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

from fanfold.agents.levels import LEVELS as LEVEL_NAMES

#: The first rating (``mu``) and its deviation (``sigma``).
MU, SIGMA = 1500.0, 500.0
#: The suffix of a family played at the daily speed (days a move), rated apart from live play:
#: a game with a day for each move is another game than one with minutes for all of them.
DAILY_FAMILY = "-daily"


def live_family(family_name: str) -> str:
    """The live family of a daily one (``morris-daily``: ``morris``); any other as it is."""
    return family_name.removesuffix(DAILY_FAMILY)


#: The bot levels' measured starting ratings, written by ``scripts/rate_bots.py``.
BOT_RATINGS = Path(__file__).with_name("bot_ratings.json")


class AnchorError(ValueError):
    """The bots' ratings file is not what ``scripts/rate_bots.py`` writes."""


@dataclass(frozen=True)
class Anchor:
    """A level's measured starting rating in one family, as ``scripts/rate_bots.py`` wrote
    it: the game (its short name, as in :func:`bot_key`), ``mu`` and ``sigma``, the arena
    games the level played and the command that measured it."""

    family: str
    level: str
    game: str
    mu: float
    sigma: float
    games: int
    command: str

    @property
    def key(self) -> str:
        """The level's key in the ratings (:func:`bot_key`)."""
        return f"bot:{self.game}:{self.level}"


def read_anchor_runs(path: Path) -> dict[tuple[str, str], Anchor]:
    """The levels' measured ratings in a file of ``scripts/rate_bots.py``, with how they were
    measured: (family, level) to :class:`Anchor`, for the levels only (``random``, measured
    as a yardstick, is none, and a Fano family's yardstick ladder members, rated in the same
    pool, are under its ``members`` key, which is not read here; a file written before
    there were members reads alike). A family without its ``game`` is taken to be named after
    it (``GAME`` or ``GAME-EDITION``).

    Raises:
        AnchorError: a file that is not such a file, said with its name.
    """
    try:
        data = json.loads(path.read_text())
        anchors: dict[tuple[str, str], Anchor] = {}
        for name, part in data["families"].items():
            game = str(part.get("game") or str(name).split("-")[0]).split(".")[0]
            for level, rating in part["ratings"].items():
                if level not in LEVEL_NAMES:
                    continue
                mu, sigma = float(rating["mu"]), float(rating["sigma"])
                if not sigma > 0:
                    raise ValueError(f"{name} {level}: sigma {sigma} is not positive")
                anchors[(str(name), str(level))] = Anchor(
                    str(name),
                    str(level),
                    game,
                    mu,
                    sigma,
                    int(rating.get("games", 0)),
                    str(part.get("command", "")),
                )
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise AnchorError(f"the bots' ratings in {path} cannot be read: {error}") from error
    return anchors


def read_anchors(path: Path) -> dict[tuple[str, str], tuple[float, float]]:
    """The levels' starting ratings in a file of ``scripts/rate_bots.py``: (family, level) to
    (``mu``, ``sigma``) (:func:`read_anchor_runs`).

    Raises:
        AnchorError: a file that is not such a file, said with its name.
    """
    return {place: (a.mu, a.sigma) for place, a in read_anchor_runs(path).items()}


@functools.cache
def anchor_runs() -> dict[tuple[str, str], Anchor]:
    """The levels' measured ratings the server uses (:data:`BOT_RATINGS`, read once)."""
    return read_anchor_runs(BOT_RATINGS)


@functools.cache
def bot_anchors() -> dict[tuple[str, str], tuple[float, float]]:
    """The levels' starting ratings the server uses (:data:`BOT_RATINGS`, read once)."""
    return {place: (a.mu, a.sigma) for place, a in anchor_runs().items()}


def anchored_in(family_name: str) -> list[Anchor]:
    """The measured levels of one family (those its leaderboard shows from the start); a
    daily family's are its live family's (a bot plays alike at any speed)."""
    base = live_family(family_name)
    return [a for (name, _), a in anchor_runs().items() if name == base]


def first_rating(family_name: str, player: str) -> tuple[float, float]:
    """Where ``player`` starts in ``family_name``: a bot level at its measured rating
    (:func:`bot_anchors`), anyone else (and a level not measured) at :data:`MU`,
    :data:`SIGMA`."""
    if player.startswith("bot:"):
        found = bot_anchors().get((live_family(family_name), player.rsplit(":", 1)[-1]))
        if found is not None:
            return found
    return MU, SIGMA


def current(
    family_name: str, player: str, mu: float, sigma: float, games: int
) -> tuple[float, float]:
    """A stored rating as it stands: a bot level's row with no rated game yet (made when it
    sat at several seats of one game, which moves it not) is its measured rating as the
    server reads it now (:func:`first_rating`), so that measuring the levels again moves
    every level that has not played."""
    if games == 0 and player.startswith("bot:"):
        return first_rating(family_name, player)
    return mu, sigma
