"""Playing a game in the terminal: a prompt and printing around a :class:`~fanfold.play.Table`.

The table runs the game (seats, agents, legality, undo, the record); this module only reads
what a human types, prints views and announcements, and offers the game's reference texts and
position analyses (:func:`fanfold.play.analysis.analyses_for`) as prompt commands.

A bot whose compiled search is not compiled yet in this installation (``hard`` in Fano and Fan
Tan, on a fresh install) does not hold the game up: the compile runs in a subprocess in the
background (:func:`fanfold.agents.strategy.compiled.compile_ahead`), the terminal says what is
being prepared and how long it took last time, the bot plays its game's fallback level
(:data:`~fanfold.agents.strategy.compiled.FALLBACK_LEVEL`) meanwhile, and from its first move
after the compile it loads its search from the cache and plays at full strength.

The terminal speaks the languages of the play server's catalogues (``fanfold play --lang fr``;
without it, the language of ``LC_ALL``, ``LC_MESSAGES`` or ``LANG`` where it is one of them,
else English: :func:`terminal_language`). Its own words go through the catalogue (``gettext``
here; ``python -m fanfold.server.i18n_catalogues update`` extracts them), and so do the refusals
of the rules, the notation and the records, the seats' names and how a game ended, the board's
drawing (:meth:`fanfold.core.game.Game.drawing`, worded piece by piece: :func:`drawn`), the
status line under it, the notation's help, the analyses' help and answers and what a bot's
compile says, each worded from its code (:meth:`fanfold.server.i18n.Messages.text`). The
notation a player types is never translated.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

from rich.console import Console

from fanfold.agents.base import Agent, AnyAgent, create_agent
from fanfold.agents.levels import fallback_agent
from fanfold.agents.strategy import compiled
from fanfold.cli.common import LANGUAGE_VARIABLES as LANGUAGE_VARIABLES  # the terminal's
from fanfold.cli.common import terminal_language as terminal_language
from fanfold.core.config import GameConfig
from fanfold.core.errors import FanfoldError
from fanfold.core.records import GameRecord
from fanfold.play.analysis import Analysis, analyses_for
from fanfold.play.table import Played, Table
from fanfold.server import i18n


def drawn(words: i18n.Messages, lines: Sequence[Sequence[str]]) -> str:
    """A game's drawing (:meth:`fanfold.core.game.Game.drawing`) in the language of ``words``:
    each piece worded from its code where it has one (a label, a sentence), the rest (the
    board's lines, cards, the notation) as it is."""
    return "\n".join("".join(words.text(piece) for piece in line) for line in lines)


class Compiling:
    """A game's compiled code being compiled in the background (one per game a process).

    What the compile says when it ends waits in :attr:`notes` until the session prints it
    between two moves, so that it never lands in the middle of a line being typed."""

    def __init__(self, name: str, words: i18n.Messages | None = None) -> None:
        self.name = name
        self.words = words or i18n.messages(i18n.ENGLISH)
        self.done = threading.Event()
        self.failed: str | None = None
        self.notes: list[str] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._run, name=f"compile-{name}", daemon=True).start()

    def _run(self) -> None:
        said = 0

        def note(text: str) -> None:
            nonlocal said
            said += 1
            if said > 1:  # the first is the progress line, which the session said already
                with self._lock:
                    self.notes.append(self.words.text(text))

        try:
            compiled.compile_ahead(self.name, note)
        except Exception as error:  # told to the player; the fallback plays on
            self.failed = str(error)
            reason = error.args[0] if len(error.args) == 1 else error  # a phrase where it is one
            with self._lock:
                told = self.words.gettext("%(error)s; the bots play the %(level)s level.")
                worded = self.words.text(reason)
                self.notes.append(told % {"error": worded, "level": compiled.FALLBACK_LEVEL})
        self.done.set()

    def take_notes(self) -> list[str]:
        """What the compile said since the last call."""
        with self._lock:
            notes, self.notes = self.notes, []
        return notes


#: The compiles started in this process, by game (a match's later games reuse them).
_COMPILING: dict[str, Compiling] = {}


class UntilCompiled(Agent[Any, Any]):
    """A bot that plays ``fallback``'s moves until its game's compile is done, then loads its
    compiled code from the cache (a second or two) and plays its own."""

    def __init__(
        self,
        agent: AnyAgent,
        fallback: AnyAgent,
        config: GameConfig,
        compiling: Compiling,
        say: Callable[[str], None],
    ) -> None:
        super().__init__(agent.game)
        self.name = agent.name
        self.agent = agent
        self.fallback = fallback
        self.config = config
        self.compiling = compiling
        self.say = say
        self.ready = False

    def choose(self, view: Any, legal: Sequence[Any]) -> Any:
        if not self.ready and self.compiling.done.is_set() and self.compiling.failed is None:
            self.agent.prepare(self.config, self.say)
            self.ready = True
        return (self.agent if self.ready else self.fallback).choose(view, legal)


@dataclass
class Session:
    """A game in progress at the terminal.

    Args:
        table: the game.
        console: where to print.
        read: how to read a line (``input`` by default; tests pass their own).
        record_path: where to save the record when the game ends or is left.
        words: the language to speak (:func:`fanfold.server.i18n.messages`; English by
            default).
    """

    table: Table
    console: Console
    read: Callable[[str], str] = input
    record_path: Path | None = None
    words: i18n.Messages = field(default_factory=lambda: i18n.messages(i18n.ENGLISH))
    _compiling: list[Compiling] = field(default_factory=list, init=False, repr=False)

    def seat_label(self, seat: int) -> str:
        """``"White (you)"``, ``"Player 2 (mcts)"``, ``"Player 1 (human)"``."""
        player = self.table.seats[seat]
        gettext = self.words.gettext
        if player.is_human:
            label = gettext("you") if len(self.table.humans) == 1 else gettext("human")
        else:
            label = player.player
        return gettext("%(seat)s (%(who)s)") % {
            "seat": self.words.text(self.table.seat_name(seat)),
            "who": label,
        }

    def say(self, text: str) -> None:
        """Print plain text (no markup, no highlighting); a phrase (what a bot's preparation
        says: the compile's progress, :mod:`fanfold.agents.strategy.compiled`) worded in the
        session's language."""
        self.console.print(self.words.text(text), markup=False, highlight=False)

    @property
    def observer(self) -> int | None:
        """The seat the screen belongs to: the only human, else nobody in particular."""
        humans = self.table.humans
        return humans[0] if len(humans) == 1 else None

    def run(self) -> GameRecord:
        """Play until the game ends or a human quits; returns the record."""
        table = self.table
        self._prepare_agents()
        shown_at: int | None = None
        while True:
            table.play_agents(on_played=self._announce)
            seat = table.decider
            if seat is None:
                break
            self._print_notes()
            if shown_at != table.version:
                self.say("")
                self.say(self.board(seat))
                self.say(self.words.text(table.game.describe(table.state)))
                shown_at = table.version
            try:
                line = self.read(f"{self.seat_label(seat)}> ").strip()
            except (EOFError, KeyboardInterrupt):
                self.say("\n" + self.words.gettext("Game left unfinished."))
                return self._save_if_asked()
            if not self._command(line, seat):
                return self._save_if_asked()
        outcome = table.outcome
        self.say("")
        self.say(self.board(self.observer or 0))
        if outcome is not None:
            self.say(self._game_over(outcome.reason))
        return self._save_if_asked()

    def _game_over(self, reason: str) -> str:
        """``Game over: …``, the reason worded from its code in a language other than
        English (the game's words for its end, :meth:`~fanfold.core.game.Game.ending_words`)."""
        if self.words.code != i18n.ENGLISH:
            reason = self.words.text(self.table.game.ending_words(self.table.state) or reason)
        return self.words.gettext("Game over: %(reason)s") % {"reason": reason}

    def board(self, seat: int) -> str:
        """The game drawn as ``seat`` sees it, in the session's language (:func:`drawn`)."""
        table = self.table
        return drawn(self.words, table.game.drawing(table.view(seat)))

    def refused(self, error: BaseException) -> str:
        """An error's sentence in the session's language: its refusal worded from its code
        (the rules', the notation's, a record's), else its English text."""
        return self.words.text(error)

    def _prepare_agents(self) -> None:
        """Let every bot get ready before play (load a solved table, Fano's or Fan Tan's
        compiled search), saying so when that is slow, so that a bot's first move does not
        stall the game without a word. Bots of the same text get ready once. A bot whose
        compiled code is not compiled yet plays its fallback while it compiles (above)."""
        table = self.table
        waiting: set[str] = set()
        ready: set[str] = set()
        for seat in table.seats:
            agent = seat.agent
            if agent is None or agent.name in ready or agent.name in waiting:
                continue
            try:
                with compiled.without_compiling():
                    agent.prepare(table.config, self.say)
                ready.add(agent.name)
            except compiled.NotCompiledError:
                waiting.add(agent.name)
        if waiting:
            table.seats = tuple(
                replace(seat, agent=self._until_compiled(seat.agent))
                if seat.agent is not None and seat.agent.name in waiting
                else seat
                for seat in table.seats
            )

    def _until_compiled(self, agent: AnyAgent) -> UntilCompiled:
        name = agent.game.name
        running = _COMPILING.get(name)
        if running is None or running.failed is not None:
            self.say(compiled.progress_line(name))
            running = _COMPILING[name] = Compiling(name, self.words)
        if running not in self._compiling:
            self._compiling.append(running)
            self.say(
                self.words.gettext(
                    "Until it is ready, %(agent)s plays the %(level)s level's moves, then its own."
                )
                % {"agent": agent.name, "level": compiled.FALLBACK_LEVEL}
            )
        fallback = create_agent(fallback_agent(agent.game), agent.game)
        fallback.rng.setstate(agent.rng.getstate())
        return UntilCompiled(agent, fallback, self.table.config, running, self.say)

    def _print_notes(self) -> None:
        for running in self._compiling:
            for note in running.take_notes():
                self.say(note)

    def _announce(self, played: Played) -> None:
        self._print_notes()
        announced = self.table.announcement(played, self.observer)
        if announced:  # an action this player is not told of leaves no line
            self.say(
                self.words.gettext("%(seat)s plays %(move)s")
                % {"seat": self.seat_label(played.seat), "move": announced}
            )

    def _commands(self) -> dict[str, tuple[str, Callable[[], str]]]:
        """The game's own prompt commands: analyses, then reference texts."""
        table = self.table
        commands: dict[str, tuple[str, Callable[[], str]]] = {}
        for name, analysis in analyses_for(table.game).items():
            commands[name] = (analysis.help, partial(self._analysed, analysis, table.state))
        for name, (help_text, text) in table.game.reference_texts().items():
            commands.setdefault(name, (help_text, partial(self.words.text, text)))
        return commands

    def _analysed(self, analysis: Analysis, state: Any) -> str:
        """An analysis's answer in the session's language (its phrases worded from their
        codes; the notation and the numbers in it as they are)."""
        return self.words.text(analysis.run(state))

    def _command(self, line: str, seat: int) -> bool:
        """Handle one line typed by a human; False to stop playing."""
        table = self.table
        gettext = self.words.gettext
        word, _, rest = line.partition(" ")
        word = word.lower()
        extras = self._commands()
        if not line:
            return True
        if word in ("quit", "exit"):
            self.say(gettext("Game left unfinished."))
            return False
        if word in ("help", "h"):
            self.say(self._help(extras))
        elif word in ("legal", "moves", "?"):
            self.say(gettext("Legal: %(moves)s") % {"moves": "  ".join(table.legal_texts())})
        elif word == "position":
            if table.game.has_hidden_information:
                self.say(
                    gettext("The position notation shows hidden cards, so it is not shown in play.")
                )
            else:
                self.say(table.game.format_position(table.state))
        elif word == "board":
            self.say(self.board(seat))
        elif word == "undo":
            taken = table.undo()
            self.say(
                gettext("Took back the last move.") if taken else gettext("Nothing to take back.")
            )
        elif word == "save":
            self._save(table.finish(), Path(rest.strip() or "fanfold-game.json"))
        elif word in extras:
            self.say(extras[word][1]())
        else:
            try:
                table.submit(seat, line, table.version)
            except FanfoldError as error:
                self.say(
                    gettext("Not played: %(error)s. Type 'help' for help, 'legal' for the moves.")
                    % {"error": self.refused(error)}
                )
        return True

    def _help(self, extras: dict[str, tuple[str, Callable[[], str]]]) -> str:
        gettext = self.words.gettext
        text = self.words.text
        lines = [
            text(self.table.game.notation_help()),
            "",
            gettext("Commands: legal (list legal moves), board (draw again), undo, save [FILE],"),
            "          " + gettext("position (position notation), help, quit"),
        ]
        lines += [f"          {name}: {text(help_text)}" for name, (help_text, _) in extras.items()]
        return "\n".join(lines)

    def _save(self, record: GameRecord, path: Path) -> None:
        """Save ``record`` to ``path`` and say so, or say why it could not be (a folder that
        is not there, no permission): the game goes on either way."""
        gettext = self.words.gettext
        try:
            record.save(path)
        except OSError as error:
            why = error.strerror or type(error).__name__
            self.say(
                gettext("Could not save the record to %(path)s: %(why)s")
                % {"path": path, "why": why}
            )
            return
        self.say(gettext("Saved the record to %(path)s") % {"path": path})

    def _save_if_asked(self) -> GameRecord:
        record = self.table.finish()
        if self.record_path is not None:
            self._save(record, self.record_path)
        return record
