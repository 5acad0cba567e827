"""Playing a game in the terminal: humans type moves, agents answer."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console

from fanfold.agents.base import Agent
from fanfold.core.errors import FanfoldError
from fanfold.core.records import GameRecord
from fanfold.core.registry import AnyGame

#: Extra commands a game offers at the prompt: name -> (help, function of the state -> text).
ExtraCommand = tuple[str, Callable[[Any], str]]
EXTRA_COMMANDS: dict[str, dict[str, ExtraCommand]] = {}


def register_terminal_command(
    game_name: str, name: str, help_text: str, run: Callable[[Any], str]
) -> None:
    """Offer ``name`` at the prompt while playing ``game_name``."""
    EXTRA_COMMANDS.setdefault(game_name, {})[name] = (help_text, run)


def _constant(text: str) -> Callable[[Any], str]:
    def show(_state: Any) -> str:
        return text

    return show


@dataclass
class Session:
    """A game in progress at the terminal."""

    game: AnyGame
    state: Any
    record: GameRecord
    seats: Sequence[Agent | None]  # None is a human
    console: Console
    read: Callable[[str], str] = input
    record_path: Path | None = None
    past: list[tuple[Any, GameRecord]] = field(default_factory=list)

    def seat_name(self, seat: int) -> str:
        agent = self.seats[seat]
        label = "you" if agent is None and self.seats.count(None) == 1 else "human"
        name = self.game.seat_name(self.game.config_of(self.state), seat)
        return f"{name} ({label if agent is None else agent.name})"

    def say(self, text: str) -> None:
        self.console.print(text, markup=False, highlight=False)

    def run(self) -> GameRecord:
        """Play until the game ends or a human quits; returns the record."""
        shown_for: int | None = None
        while True:
            player = self.game.current_player(self.state)
            if player is None:
                break
            agent = self.seats[player]
            legal = self.game.legal_actions(self.state)
            if agent is not None:
                action = agent.choose(self.game.observe(self.state, player), legal)
                announced = self.game.public_action_text(self.state, action, self._observer())
                self.say(f"{self.seat_name(player)} plays {announced}")
                self._apply(action)
                shown_for = None
                continue
            if shown_for != len(self.record.actions):
                self.say("")
                self.say(self.game.render(self.game.observe(self.state, player)))
                self.say(self.game.describe(self.state))
                shown_for = len(self.record.actions)
            try:
                line = self.read(f"{self.seat_name(player)}> ").strip()
            except (EOFError, KeyboardInterrupt):
                self.say("\nGame left unfinished.")
                self._save_if_asked()
                return self.record
            if not self._command(line, player):
                self._save_if_asked()
                return self.record
        outcome = self.game.outcome(self.state)
        final = self.game.render(self.game.observe(self.state, 0))
        self.say("")
        self.say(final)
        if outcome is not None:
            self.say(f"Game over: {outcome.reason}")
            self.record = GameRecord(
                self.record.game,
                self.record.config,
                self.record.seed,
                self.record.actions,
                self.record.start_position,
                self.record.players,
                outcome.to_json(),
            )
        self._save_if_asked()
        return self.record

    def _observer(self) -> int | None:
        """The seat the screen belongs to: the only human, else nobody in particular."""
        humans = [seat for seat, agent in enumerate(self.seats) if agent is None]
        return humans[0] if len(humans) == 1 else None

    def _apply(self, action: Any) -> None:
        self.past.append((self.state, self.record))
        self.state = self.game.apply(self.state, action)
        self.record = self.record.extend(self.game, action)

    def _command(self, line: str, player: int) -> bool:
        """Handle one line typed by a human; False to stop playing."""
        word, _, rest = line.partition(" ")
        word = word.lower()
        extras = dict(EXTRA_COMMANDS.get(self.game.name, {}))
        for name, (help_text, text) in self.game.reference_texts().items():
            extras.setdefault(name, (help_text, _constant(text)))
        if not line:
            return True
        if word in ("quit", "exit"):
            self.say("Game left unfinished.")
            return False
        if word in ("help", "h"):
            self.say(self._help(extras))
        elif word in ("legal", "moves", "?"):
            legal = self.game.legal_actions(self.state)
            self.say("Legal: " + "  ".join(self.game.action_text(a) for a in legal))
        elif word == "position":
            if self.game.has_hidden_information:
                self.say("The position notation shows hidden cards, so it is not shown in play.")
            else:
                self.say(self.game.format_position(self.state))
        elif word == "board":
            self.say(self.game.render(self.game.observe(self.state, player)))
        elif word == "undo":
            self._undo()
        elif word == "save":
            path = Path(rest.strip() or "fanfold-game.json")
            self.record.save(path)
            self.say(f"Saved the record to {path}")
        elif word in extras:
            self.say(extras[word][1](self.state))
        else:
            try:
                action = self.game.parse_action(line)
                self._apply_checked(action)
            except FanfoldError as error:
                self.say(f"Not played: {error}. Type 'help' for help, 'legal' for the moves.")
        return True

    def _apply_checked(self, action: Any) -> None:
        next_state = self.game.apply(self.state, action)
        self.past.append((self.state, self.record))
        self.state = next_state
        self.record = self.record.extend(self.game, action)

    def _undo(self) -> None:
        """Take back moves until it is a human's decision again, before their last move."""
        while self.past:
            self.state, self.record = self.past.pop()
            player = self.game.current_player(self.state)
            if player is not None and self.seats[player] is None:
                self.say("Took back the last move.")
                return
        self.say("Nothing to take back.")

    def _help(self, extras: dict[str, ExtraCommand]) -> str:
        lines = [
            self.game.notation_help(),
            "",
            "Commands: legal (list legal moves), board (draw again), undo, save [FILE],",
            "          position (position notation), help, quit",
        ]
        lines += [f"          {name}: {text}" for name, (text, _) in extras.items()]
        return "\n".join(lines)

    def _save_if_asked(self) -> None:
        if self.record_path is not None:
            self.record.save(self.record_path)
            self.say(f"Saved the record to {self.record_path}")
