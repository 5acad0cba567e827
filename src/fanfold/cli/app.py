"""The ``fanfold`` command: games, play, legal, replay, solve, arena, balance, serve."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from fanfold import __version__
from fanfold.cli import arena as arena_command
from fanfold.cli import backup as backup_command
from fanfold.cli import balance as balance_command
from fanfold.cli import check_config as check_config_command
from fanfold.cli import deploy as deploy_commands
from fanfold.cli import deploy_backup as _deploy_backup  # noqa: F401  (registers it)
from fanfold.cli import deploy_logs as _deploy_logs  # noqa: F401  (registers it)
from fanfold.cli import deploy_monitoring as _deploy_monitoring  # noqa: F401  (registers them)
from fanfold.cli import deploy_systemd as _deploy_systemd  # noqa: F401  (registers it)
from fanfold.cli import keys as keys_commands
from fanfold.cli import moderate as moderate_commands
from fanfold.cli import restart as restart_command
from fanfold.cli import review as review_command
from fanfold.cli import serve as serve_command
from fanfold.cli import solve as solve_commands
from fanfold.cli import solve_fan as _solve_fan  # noqa: F401  (registers 'solve fan')
from fanfold.cli import solve_morris as _solve_morris  # noqa: F401  (registers 'solve morris')
from fanfold.cli.common import chosen_words, console, fail, game_and_config
from fanfold.cli.help_words import N_, LangOpt, WordedCommand, worded
from fanfold.core.errors import FanfoldError
from fanfold.core.registry import AnyGame, all_games, get_game

if TYPE_CHECKING:
    from fanfold.core.config import GameConfig
    from fanfold.core.records import GameRecord
    from fanfold.server.i18n import Messages

# The agents, the table and the terminal session are imported by the commands that use them:
# ``fanfold --help`` and the commands that need none of them start without loading them.

app = typer.Typer(
    name="fanfold",
    help="Play, solve and study the Fan family of games: Fano, Fano330-R-Morris, Fan Tan, Fan.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(solve_commands.app, name="solve")
app.add_typer(moderate_commands.app, name="moderate")
app.add_typer(keys_commands.app, name="keys")
app.add_typer(deploy_commands.app, name="deploy")
app.command()(serve_command.serve)
app.command()(restart_command.restart)
app.command()(backup_command.backup)
app.command("check-config", context_settings=check_config_command.CONTEXT_SETTINGS)(
    check_config_command.check_config
)
app.command()(arena_command.arena)
app.command()(balance_command.balance)
app.command()(review_command.review)

GameArg = Annotated[str, typer.Argument(help=N_("Game name, id or alias (see 'fanfold games')."))]
VariantOpt = Annotated[
    str | None, typer.Option("--variant", "-v", help=N_("A variant preset (see 'fanfold games')."))
]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help=N_("Change one config option: name=value (repeatable).")),
]


def _version(value: bool) -> None:
    if value:
        console.print(f"fanfold {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """Play, solve and study the Fan family of games."""


@app.command(cls=WordedCommand, help=N_("List the games, their variants and player counts."))
def games(lang: LangOpt = None) -> None:
    from rich.table import Table

    words = _language(lang)
    gettext = words.gettext
    for game in all_games():
        table = Table(
            title=f"{game.name} ({game.id}): {game.title}",
            caption=game.summary,
            title_justify="left",
            caption_justify="left",
            expand=True,
        )
        table.add_column(gettext("variant"), no_wrap=True)
        table.add_column(gettext("aliases"), overflow="fold", ratio=1)
        table.add_column(gettext("players"), no_wrap=True)
        table.add_column(gettext("description"), ratio=2)
        for number, preset in enumerate(game.presets()):
            players = preset.player_counts or (game.num_players(preset.config),)
            table.add_row(
                gettext("%(name)s (default)") % {"name": preset.name}
                if number == 0
                else preset.name,
                ", ".join(preset.aliases),
                _ranges(players),
                preset.description,
            )
        console.print(table)
        ranges = game.config_type.option_ranges()
        if ranges:
            each = gettext("%(name)s %(low)s to %(high)s")
            listed = ", ".join(
                each % {"name": name, "low": low, "high": high}
                for name, (low, high) in ranges.items()
            )
            said = gettext("Number options (--option name=value): %(listed)s")
            console.print(said % {"listed": listed}, markup=False)
        console.print()
    console.print(_agents_text(words), markup=False)


def _agents_text(words: Messages | None = None) -> str:
    """The agents, their games and parameters, in the language of ``words`` (English without);
    a built-in agent's description too (a plugin's agent keeps its own)."""
    from fanfold.server.i18n import ENGLISH, messages

    gettext = (words or messages(ENGLISH)).gettext
    from fanfold.agents.base import registered_agents
    from fanfold.agents.levels import LEVELS, has_levels, level_agent

    lines = [gettext("Agents (write parameters in brackets, e.g. --seat 'mcts(iterations=2000)'):")]
    each = gettext("%(name)s: %(description)s (%(games)s); parameters: %(parameters)s")
    bare = gettext("%(name)s: %(description)s (%(games)s); no parameters")
    for entry in registered_agents():
        games = ", ".join(game.name for game in all_games() if entry.supports(game))
        described = gettext(entry.description)  # a built-in agent's is in the catalogues
        named = {"name": entry.name, "description": described, "games": games}
        parameters = entry.parameters()
        said = each % {**named, "parameters": parameters} if parameters else bare % named
        lines.append(f"  {said}")
        if entry.name in LEVELS:
            lines.extend(
                f"    {game.name}: {level_agent(game, entry.name)}"
                for game in all_games()
                if has_levels(game)
            )
    return "\n".join(lines)


def _agents_epilog(words: Messages | None = None) -> str:
    """The agents and their parameters, for ``fanfold play --help``."""
    return "\n\n".join(_agents_text(words).splitlines())


def _ranges(numbers: tuple[int, ...]) -> str:
    values = sorted(set(numbers))
    if len(values) > 2 and values == list(range(values[0], values[-1] + 1)):
        return f"{values[0]}-{values[-1]}"
    return ", ".join(map(str, values))


class _PlayCommand(WordedCommand):
    """``fanfold play``: its help's epilog (the agents) is written when the help is shown, in
    the help's language."""

    @property
    def epilog(self) -> str:
        return _agents_epilog(self.words)

    @epilog.setter
    def epilog(self, value: Any) -> None:
        del value


@app.command(
    cls=_PlayCommand,
    help=N_("Play a game in the terminal against agents or friends (type 'help' at the prompt)."),
)
def play(
    game_name: GameArg,
    variant: VariantOpt = None,
    players: Annotated[
        int | None, typer.Option("--players", "-n", help=N_("Number of players."))
    ] = None,
    seat: Annotated[
        list[str] | None,
        typer.Option(
            "--seat",
            help=N_(
                "Who sits at each seat in turn order: 'human' or an agent, with parameters if "
                "wanted, e.g. 'mcts(iterations=500)' (repeatable; see 'fanfold games'). Unnamed "
                "seats: seat 1 human, the rest the strongest agent, capped at 3 s a move."
            ),
        ),
    ] = None,
    white: Annotated[str | None, typer.Option(help=N_("Morris: who plays White."))] = None,
    black: Annotated[str | None, typer.Option(help=N_("Morris: who plays Black."))] = None,
    seed: Annotated[
        int | None, typer.Option(help=N_("Seed of the deal (random if not given)."))
    ] = None,
    deal: Annotated[
        int | None, typer.Option(help=N_("Fan: the deal number (same as --seed)."))
    ] = None,
    option: OptionOpt = None,
    record: Annotated[
        Path | None,
        typer.Option("--record", help=N_("Save the game record to this file at the end.")),
    ] = None,
    agent_seed: Annotated[
        int | None,
        typer.Option(
            help=N_(
                "Seed of the agents' own generators (drawn from the system's generator, apart "
                "from the deal's, if not given)."
            )
        ),
    ] = None,
    edition: Annotated[
        str | None, typer.Option(help=N_("Fano: the rules edition, classic or trionfey."))
    ] = None,
    games_in_match: Annotated[
        int,
        typer.Option(
            "--games",
            help=N_(
                "Play a match of this many games, every player moving one seat on after each "
                "(--games 2 in Morris: play again swapping colours, as the rules suggest)."
            ),
        ),
    ] = 1,
    lang: LangOpt = None,
) -> None:
    from fanfold.play.setup import (
        choose_seed,
        default_agent,
        fresh_agent_seed,
        match_totals,
        plan_seats,
        rotate_seats,
    )
    from fanfold.play.table import HUMAN

    words = _language(lang)
    if edition is not None:
        if "edition" not in game_and_config(game_name, words=words)[1].option_texts():
            fail(
                words.gettext(
                    "--edition is for fano (classic or trionfey); other games have one edition"
                ),
                words=words,
            )
        # an edition that is not one is refused as the option's value, before it names a preset
        game_and_config(game_name, None, players, [f"edition={edition}"], words)
        variant = variant or edition
        option = [*(option or []), f"edition={edition}"]
    game, config = game_and_config(game_name, variant, players, option, words)
    names = list(seat or [])
    if white is not None or black is not None:
        if [game.seat_name(config, seat) for seat in range(game.num_players(config))] != [
            "White",
            "Black",
        ]:
            fail(
                words.gettext("--white and --black are for morris; use --seat for other games"),
                words=words,
            )
        names = [white or HUMAN, black or default_agent(game, INTERACTIVE_SECONDS)]
    if games_in_match < 1:
        fail(words.gettext("--games must be at least 1"), words=words)
    try:
        planned = plan_seats(game, config, names, default=default_agent(game, INTERACTIVE_SECONDS))
        first_seed = choose_seed(seed, deal, game=game)
    except FanfoldError as error:
        fail(words.text(error), words=words)
    records: list[GameRecord] = []
    for number in range(games_in_match):
        if games_in_match > 1:
            console.print(
                words.gettext("Game %(number)d of %(games)d")
                % {"number": number + 1, "games": games_in_match},
                markup=False,
            )
        path = record
        if record is not None and games_in_match > 1:
            path = record.with_name(f"{record.stem}-{number + 1}{record.suffix}")
        records.append(
            _play_one(
                game,
                config,
                rotate_seats(planned, number),
                first_seed + number,
                fresh_agent_seed() if agent_seed is None else agent_seed,
                path,
                told=seed is not None or deal is not None or not game.has_hidden_information,
                words=words,
            )
        )
        if records[-1].outcome is None:
            break
    if games_in_match > 1:
        totals = match_totals(records, len(planned))
        console.print(words.gettext("Match:"), markup=False)
        for player, total in enumerate(totals):
            line = words.gettext("%(player)s (first game %(seat)s): %(total)s") % {
                "player": planned[player],
                "seat": words.text(game.seat_name(config, player)),
                "total": f"{total:g}",
            }
            console.print(f"  {line}", markup=False)


def _language(lang: str | None) -> Messages:
    """The terminal's words (:func:`fanfold.cli.help_words.chosen_words`), or exit: a
    ``--lang`` no catalogue speaks is refused in the language of the locale's variables,
    naming the languages there are."""
    return chosen_words(lang)


#: Seconds a decision for the agents the terminal seats by default.
INTERACTIVE_SECONDS = 3.0


def _play_one(
    game: AnyGame,
    config: GameConfig,
    names: list[str],
    seed: int,
    agent_seed: int,
    record: Path | None,
    *,
    told: bool,
    words: Messages,
) -> GameRecord:
    """Play one game in the terminal. The seed is printed at the start only when ``told``
    (given by the person, or a game without hidden cards): it would tell the hidden cards."""
    from fanfold.cli.terminal import Session
    from fanfold.play.setup import new_table

    try:
        table = new_table(game, config, names, seed=seed, agent_seed=agent_seed)
    except FanfoldError as error:
        fail(words.text(error), words=words)
    named = {"title": game.title, "id": game.id, "seed": seed}
    if told:
        opening = words.gettext("%(title)s (%(id)s), seed %(seed)s. Type 'help' for help.")
    else:
        opening = words.gettext("%(title)s (%(id)s). Type 'help' for help.")
    console.print(opening % named, markup=False)
    finished = Session(table, console, record_path=record, words=words).run()
    if not told and finished.outcome is not None:
        console.print(
            words.gettext("The game was dealt from seed %(seed)s.") % {"seed": seed},
            markup=False,
        )
    return finished


@app.command(cls=WordedCommand, help=N_("List the legal actions in a position."))
def legal(
    game_name: GameArg,
    position: Annotated[
        str, typer.Option("--position", "-p", help=N_("Position in the game's notation."))
    ],
    variant: VariantOpt = None,
    option: OptionOpt = None,
    lang: LangOpt = None,
) -> None:
    words = _language(lang)
    game, config = game_and_config(game_name, variant, None, option, words)
    try:
        state = game.parse_position(position, config)
    except FanfoldError as error:
        fail(words.text(error), words=words)
    if game.outcome(state) is not None:
        console.print(words.text(game.describe(state)), markup=False)  # "Game over: ..."
        return
    actions = game.legal_actions(state)
    console.print(words.text(game.describe(state)), markup=False)
    listed = "  ".join(game.action_text(a) for a in actions)
    console.print(
        words.gettext("%(count)d legal: %(actions)s") % {"count": len(actions), "actions": listed},
        markup=False,
    )


@app.command(
    cls=WordedCommand,
    help=N_("Check that a record replays under the rules and show how the game went."),
)
def replay(
    path: Annotated[Path, typer.Argument(help=N_("A game record (JSON) saved by fanfold."))],
    show: Annotated[bool, typer.Option(help=N_("Draw the position after every action."))] = False,
    lang: LangOpt = None,
) -> None:
    from fanfold.cli.terminal import drawn
    from fanfold.core.records import GameRecord
    from fanfold.server.i18n import ENGLISH

    words = _language(lang)
    gettext = words.gettext
    try:
        record = GameRecord.load(path)
        states = record.states()
        record.check_outcome(states)
    except FanfoldError as error:
        fail(words.text(error), words=words)
    game = get_game(record.game)
    config = game.config_of(states[0])
    heading = gettext("%(title)s (%(id)s), seed %(seed)s, %(count)d actions")
    named = {"title": game.title, "id": record.game, "seed": record.seed}
    console.print(heading % {**named, "count": len(record.actions)}, markup=False)
    for number, (text, before) in enumerate(zip(record.actions, states, strict=False), start=1):
        mover = game.current_player(before)
        who = words.text(game.seat_name(config, mover)) if mover is not None else "?"
        said = gettext("%(who)s: %(move)s") % {"who": who, "move": text}
        console.print(f"{number:4d}. {said}", markup=False)
        if show:
            board = game.drawing(game.observe(states[number], 0))
            console.print(drawn(words, board), markup=False)
    final = states[-1]
    position = game.format_position(final)
    console.print(gettext("final position: %(position)s") % {"position": position}, markup=False)
    outcome = game.outcome(final)
    if outcome is None:
        console.print(gettext("result: the game is unfinished"), markup=False)
    else:
        reason = outcome.reason
        if words.code != ENGLISH:
            reason = words.text(game.ending_words(final) or reason)
        console.print(gettext("result: %(reason)s") % {"reason": reason}, markup=False)
    console.print(gettext("The record replays under the rules."), markup=False)


worded(app)  # every command's help in the terminal's language, and --lang for each


def main() -> None:
    """Entry point of the ``fanfold`` script."""
    app()
