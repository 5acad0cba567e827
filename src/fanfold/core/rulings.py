"""Endings of the table, not of the rules: a side resigns, the sides agree to a draw, the
game is called off (aborted) before every side has moved, or a side claims the win because
the other left. They are the same for every game,
so no game's notation, kernel or action space knows them: a table applies a
:class:`Ruling` on top of the game (:meth:`fanfold.play.table.Table.rule`), and a record
carries it after its actions (``"ruling"``), checked again when the record is replayed
(:func:`check_ruling`).

Who may ask for which ending (:func:`check_ruling`):

* **resign**: a seat of a game of one or two sides (teams, :meth:`Game.teams`) while it goes
  on; its side loses (-1, the other +1; a solitaire's lowest return). At a table of three or
  more sides one player leaving does not end the game for the others, so it is refused.
* **draw**: agreed by a seat of every side (:attr:`Ruling.seat` is the one who accepted), in
  a game whose rules have draws (:attr:`Game.has_draws`); every return 0.
* **abort**: before every side has played an action; no result (every return 0), never
  rated.
* **timeout**: the seat's clock ran out (a front end keeps the clocks: the play server's
  time controls), in a game of one or two sides; its side loses, unless the other side could
  not have won by any legal sequence of actions (:meth:`Game.can_still_win`): then every
  return is 0, a draw.
* **claim**: a seat of a game of two sides claims the win because the other side left the
  game (a front end decides when a side has left: the play server, once none of its people has
  had a connection for a while); the claimant's side wins, the other loses.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fanfold.core.config import JSONObject
from fanfold.core.errors import FanfoldError
from fanfold.core.game import Outcome, Termination
from fanfold.core.phrases import Phrase, phrases
from fanfold.core.registry import AnyGame


class RulingError(FanfoldError, ValueError):
    """A table-level ending that may not be made here, or a record's ruling that is not one,
    said with the reason."""


class Ending(enum.StrEnum):
    """The table-level endings; each value is the text written in JSON."""

    RESIGN = "resign"
    DRAW = "draw"
    ABORT = "abort"
    CLAIM = "claim"
    TIMEOUT = "timeout"


_TERMINATION = {
    Ending.RESIGN: Termination.RESIGNED,
    Ending.DRAW: Termination.AGREED_DRAW,
    Ending.ABORT: Termination.ABORTED,
    Ending.CLAIM: Termination.ABANDONED,
    Ending.TIMEOUT: Termination.TIME_FORFEIT,
}


@dataclass(frozen=True)
class Ruling:
    """A table-level ending: which, the seat that made it (who resigned, who accepted the
    draw, who called the game off) and the number of actions played when it was made."""

    ending: Ending
    seat: int
    after: int

    def to_json(self) -> JSONObject:
        """The ruling as JSON."""
        return {"ending": self.ending.value, "seat": self.seat, "after": self.after}

    @classmethod
    def from_json(cls, data: object) -> Ruling:
        """Read a ruling.

        Raises:
            RulingError: not a ruling, with the reason.
        """
        if not isinstance(data, Mapping):
            raise RulingError("a ruling must be an object with 'ending', 'seat' and 'after'")
        ending, seat, after = data.get("ending"), data.get("seat"), data.get("after")
        known = ", ".join(member.value for member in Ending)
        if ending not in {member.value for member in Ending}:
            raise RulingError(f"a ruling's ending is one of {known}, not {ending!r}")
        for name, value in (("seat", seat), ("after", after)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise RulingError(f"a ruling's {name} must be a whole number, not {value!r}")
        assert isinstance(seat, int)
        assert isinstance(after, int)
        return cls(Ending(ending), seat, after)


def _team_of(teams: Sequence[tuple[int, ...]], seat: int) -> int:
    return next(number for number, team in enumerate(teams) if seat in team)


def check_ruling(
    game: AnyGame,
    state: Any,
    ruling: Ruling,
    movers: Sequence[int],
    *,
    offered: int | None = None,
    agreed: bool = False,
) -> None:
    """Refuse ``ruling`` where it may not be made: at ``state`` (the game now), after the
    actions of the seats ``movers`` (in order), with a draw ``offered`` by that seat (or
    none; ``agreed``: a finished game's record, whose draw was agreed, offer and all).

    Raises:
        RulingError: the ending is not open to that seat here, with the reason.
    """
    config = game.config_of(state)
    teams = game.teams(config)
    if not 0 <= ruling.seat < game.num_players(config):
        raise RulingError(f"this game has no seat {ruling.seat + 1}")
    if ruling.after != len(movers):
        raise RulingError(
            f"a ruling made after {ruling.after} actions, but {len(movers)} were played"
        )
    if game.current_player(state) is None:
        raise RulingError("the game is over already")
    if ruling.ending in (Ending.RESIGN, Ending.TIMEOUT):
        if len(teams) > 2:
            raise RulingError(
                f"a game of {len(teams)} sides goes on without a player who leaves: only a "
                "game of two sides (or a solitaire) can be resigned"
            )
    elif ruling.ending is Ending.CLAIM:
        if len(teams) != 2:
            raise RulingError("the win can be claimed only in a game of two sides")
    elif ruling.ending is Ending.DRAW:
        if not game.has_draws:
            raise RulingError(f"{game.title} has no drawn games: no draw can be agreed")
        if agreed:
            pass
        elif offered is None or _team_of(teams, offered) == _team_of(teams, ruling.seat):
            raise RulingError("a draw needs an offer from another side to accept")
    elif ruling.ending is Ending.ABORT:
        moved = {_team_of(teams, seat) for seat in movers}
        if len(moved) == len(teams):
            raise RulingError("every side has moved: the game can no longer be called off")


# How a table-level ending reads (a page words it in its reader's language from the code).
phrases(
    {
        "ruling.timeout": "{seat} ran out of time.",
        "ruling.timeout_draw": "{seat} ran out of time, but the other side could not have won "
        "by any sequence of moves: a draw.",
        "ruling.gave_up": "{seat} gave up.",
        "ruling.resigned": "{seat} resigned.",
        "ruling.claimed": "{seat} claimed the win: the other side left the game.",
        "ruling.drawn": "Drawn by agreement.",
        "ruling.aborted": "Called off by {seat} before every side had moved.",
    }
)


def ruled_outcome(game: AnyGame, state: Any, ruling: Ruling) -> Outcome:
    """The outcome ``ruling`` gives the game at ``state``."""
    config = game.config_of(state)
    count = game.num_players(config)
    name = game.seat_name(config, ruling.seat)
    termination = _TERMINATION[ruling.ending]
    if ruling.ending is Ending.TIMEOUT:
        teams = game.teams(config)
        losers = teams[_team_of(teams, ruling.seat)]
        if count == 1:
            return Outcome(
                Phrase("ruling.timeout", seat=name),
                (game.traits.returns[0],),
                termination=termination,
            )
        others = [seat for seat in range(count) if seat not in losers]
        if not any(game.can_still_win(state, seat) for seat in others):
            return Outcome(
                Phrase("ruling.timeout_draw", seat=name),
                (0.0,) * count,
                termination=termination,
            )
        returns = tuple(-1.0 if seat in losers else 1.0 for seat in range(count))
        return Outcome(Phrase("ruling.timeout", seat=name), returns, termination=termination)
    if ruling.ending is Ending.RESIGN:
        if count == 1:
            return Outcome(
                Phrase("ruling.gave_up", seat=name),
                (game.traits.returns[0],),
                termination=termination,
            )
        teams = game.teams(config)
        losers = teams[_team_of(teams, ruling.seat)]
        returns = tuple(-1.0 if seat in losers else 1.0 for seat in range(count))
        return Outcome(Phrase("ruling.resigned", seat=name), returns, termination=termination)
    if ruling.ending is Ending.CLAIM:
        teams = game.teams(config)
        winners = teams[_team_of(teams, ruling.seat)]
        returns = tuple(1.0 if seat in winners else -1.0 for seat in range(count))
        return Outcome(
            Phrase("ruling.claimed", seat=name),
            returns,
            termination=termination,
        )
    if ruling.ending is Ending.DRAW:
        return Outcome(Phrase("ruling.drawn"), (0.0,) * count, termination=termination)
    return Outcome(
        Phrase("ruling.aborted", seat=name),
        (0.0,) * count,
        termination=termination,
    )
