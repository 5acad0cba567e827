"""What a balance experiment measured, and the report a designer reads.

:func:`summarize` counts the rows of :func:`fanfold.balance.run.run_experiment` per variant:
win rate of every seat against its fair share (1 / seats) and of every player, each with its
Wilson 95% interval and a z test; the player who moved first; game length (actions, and turns
where the game counts them); draws and turn-limit draws; how often each action kind was played,
and how a seat fared in the games it used a kind against those it did not. With two or more
variants, each is compared with the first: the difference of every seat's and every player's
win rate and of the limit-draw rate, with Newcombe's 95% interval and the two-proportion test.

:func:`write_report` writes ``report.md`` (tables and pictures), ``report.html`` (the same, one
file with the pictures inside, to open directly) and ``summary.json``.
"""

from __future__ import annotations

import base64
import html
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fanfold.balance.experiment import Experiment, Variant
from fanfold.core.config import JSONObject, JSONValue
from fanfold.core.game import Termination
from fanfold.core.kinds import forbids
from fanfold.play.markdown import markdown_table
from fanfold.play.stats import (
    Proportion,
    difference_interval,
    proportion_test,
    quantile,
    two_proportion_test,
)


@dataclass
class UseCount:
    """One action kind in one variant."""

    kind: str
    times: int = 0
    #: seat-games in which the kind was played at least once, and of those the ones won
    used: int = 0
    used_won: int = 0
    #: seat-games in which it was not played (every seat-game of the variant), and those won
    unused: int = 0
    unused_won: int = 0
    #: games whose winner played the kind
    winner_used: int = 0
    #: the sum over games of the square of the times it was played in the game
    squares: int = 0
    #: games in which some seat played it
    games: int = 0

    def per_game(self, games: int) -> tuple[float, tuple[float, float]]:
        """Times played a game, and its 95% interval (normal approximation) over ``games``."""
        if not games:
            return 0.0, (0.0, 0.0)
        mean = self.times / games
        if games < 2:
            return mean, (mean, mean)
        variance = max(0.0, (self.squares - games * mean * mean) / (games - 1))
        half = 1.96 * math.sqrt(variance / games)
        return mean, (max(0.0, mean - half), mean + half)


@dataclass
class VariantSummary:
    """Everything measured in one variant."""

    variant: Variant
    seats: int
    games: int = 0
    seat_wins: list[int] = field(default_factory=list)
    player_games: list[int] = field(default_factory=list)
    player_wins: list[int] = field(default_factory=list)
    player_returns: list[float] = field(default_factory=list)
    player_seconds: list[float] = field(default_factory=list)
    player_decisions: list[int] = field(default_factory=list)
    player_yielded: list[int] = field(default_factory=list)
    first_games: int = 0
    first_draws: int = 0
    first_wins: int = 0
    draws: int = 0
    limit_draws: int = 0
    lengths: list[int] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)
    kinds: dict[str, UseCount] = field(default_factory=dict)
    #: how the games ended (:class:`~fanfold.core.game.Termination` values)
    terminations: dict[str, int] = field(default_factory=dict)
    #: per action kind, the games and the decisions at which some seat was offered it
    offered_games: dict[str, int] = field(default_factory=dict)
    offered_decisions: dict[str, int] = field(default_factory=dict)
    #: games whose row says what was offered, and the digest of the actions of each game,
    #: keyed by deal and rotation (rows of older runs hold neither)
    offered_rows: int = 0
    digests: dict[str, str] = field(default_factory=dict)

    @property
    def fair(self) -> float:
        """A seat's fair share of the wins."""
        return 1 / self.seats

    def seat_rate(self, seat: int) -> Proportion:
        """Seat ``seat``'s wins among the games."""
        return Proportion(self.seat_wins[seat], self.games)

    @property
    def decided(self) -> int:
        """Games someone won (the others drawn)."""
        return self.games - self.draws

    def seat_share(self, seat: int) -> Proportion:
        """Seat ``seat``'s wins among the decided games: what its fair share is tested on
        (with draws, every seat's win rate among all games falls short of 1 / seats)."""
        return Proportion(self.seat_wins[seat], self.decided)

    @property
    def first_share(self) -> Proportion:
        """The first mover's wins among the decided games."""
        return Proportion(self.first_wins, self.first_games - self.first_draws)

    def player_rate(self, player: int) -> Proportion:
        """Player ``player``'s wins among the games it played (a seat each)."""
        return Proportion(self.player_wins[player], self.player_games[player])

    @property
    def first_rate(self) -> Proportion:
        """Wins of the seat that took the game's first decision."""
        return Proportion(self.first_wins, self.first_games)

    @property
    def limit_rate(self) -> Proportion:
        """Games that ended at the turn limit."""
        return Proportion(self.limit_draws, self.games)

    def to_json(self, experiment: Experiment) -> JSONObject:
        lineup = experiment.lineup(self.variant)
        seats: list[JSONValue] = []
        for seat in range(self.seats):
            rate = self.seat_rate(seat)
            seats.append(
                {
                    "seat": seat + 1,
                    "wins": rate.successes,
                    "games": rate.trials,
                    "win_rate": rate.fraction,
                    "interval": list(rate.interval),
                    "fair_share": self.fair,
                    "share_of_decided": self.seat_share(seat).fraction,
                    "share_interval": list(self.seat_share(seat).interval),
                    "p_value": proportion_test(self.seat_share(seat), self.fair),
                }
            )
        players: list[JSONValue] = []
        for number, player in enumerate(lineup):
            rate = self.player_rate(number)
            players.append(
                {
                    "player": number + 1,
                    "agent": player.agent,
                    "forbidden": list(player.forbidden),
                    "wins": rate.successes,
                    "games": rate.trials,
                    "win_rate": rate.fraction,
                    "interval": list(rate.interval),
                    "yielded": self.player_yielded[number],
                }
            )
        kinds: list[JSONValue] = [
            {
                "kind": use.kind,
                "per_game": use.times / self.games if self.games else 0.0,
                "per_game_interval": list(use.per_game(self.games)[1]),
                "games_used": use.used,
                "share_used": Proportion(use.used, use.used + use.unused).fraction,
                "share_used_interval": list(Proportion(use.used, use.used + use.unused).interval),
                "win_rate_used": Proportion(use.used_won, use.used).fraction,
                "win_rate_unused": Proportion(use.unused_won, use.unused).fraction,
                "winner_used": use.winner_used,
            }
            for use in self.kinds.values()
        ]
        first = Proportion(self.first_wins, self.first_games)
        return {
            "name": self.variant.name,
            "config": self.variant.config.to_json(),
            "games": self.games,
            "seats": seats,
            "players": players,
            "first_mover": {
                "wins": first.successes,
                "games": first.trials,
                "win_rate": first.fraction,
                "interval": list(first.interval),
            },
            "draws": self.draws,
            "limit_draws": self.limit_draws,
            "limit_interval": list(self.limit_rate.interval),
            "length": _spread(self.lengths),
            "turns": _spread(self.turns) if self.turns else None,
            "kinds": kinds,
            "terminations": dict(sorted(self.terminations.items())),
        }


#: A variant whose games end at the turn limit (or are cut short) more often than this share
#: is warned about: its answer rests on games nobody finished.
LIMIT_SHARE = 0.03
#: A distinguishing action kind played in fewer than this share of the games where it was
#: offered is "rarely used".
RARE_SHARE = 0.05
#: Two variants with at least this share of their games the same move for move are warned
#: about (all of them: the change never came into play).
SAME_SHARE = 0.5


@dataclass(frozen=True)
class BalanceWarning:
    """Something that may make an answer the bots' rather than the rules'.

    Attributes:
        kind: ``"same_games"``, ``"unused_action"`` or ``"turn_limit"``.
        variant: the variant it is about.
        message: the sentence for the report.
        details: the counts behind it (for the JSON).
    """

    kind: str
    variant: str
    message: str
    details: JSONObject = field(default_factory=dict)

    def to_json(self) -> JSONObject:
        return {"kind": self.kind, "variant": self.variant, "message": self.message, **self.details}


@dataclass(frozen=True)
class Difference:
    """One rate compared between a variant and the first."""

    what: str
    variant: str
    baseline: Proportion
    other: Proportion

    @property
    def delta(self) -> float | None:
        """other - baseline, or ``None`` when either had no trials."""
        if self.baseline.fraction is None or self.other.fraction is None:
            return None
        return self.other.fraction - self.baseline.fraction

    @property
    def interval(self) -> tuple[float, float]:
        """Newcombe's 95% interval of the difference."""
        return difference_interval(self.other, self.baseline)

    @property
    def p_value(self) -> float:
        """Two-sided p-value of the two-proportion test."""
        return two_proportion_test(self.other, self.baseline)

    def to_json(self) -> JSONObject:
        return {
            "what": self.what,
            "variant": self.variant,
            "baseline": self.baseline.fraction,
            "other": self.other.fraction,
            "difference": self.delta,
            "interval": list(self.interval),
            "p_value": self.p_value,
        }


@dataclass
class Summary:
    """A whole experiment's results."""

    experiment: Experiment
    variants: list[VariantSummary]
    differences: list[Difference]
    warnings: list[BalanceWarning] = field(default_factory=list)

    def warnings_of(self, variant: str) -> list[BalanceWarning]:
        """The warnings about ``variant``."""
        return [warning for warning in self.warnings if warning.variant == variant]

    def to_json(self) -> JSONObject:
        variants: list[JSONValue] = []
        for summary in self.variants:
            entry = summary.to_json(self.experiment)
            entry["warnings"] = [w.message for w in self.warnings_of(summary.variant.name)]
            variants.append(entry)
        differences: list[JSONValue] = [d.to_json() for d in self.differences]
        warnings: list[JSONValue] = [w.to_json() for w in self.warnings]
        picture: list[JSONValue] = [row.to_json() for row in picture_series(self)]
        return {
            "experiment": self.experiment.to_json(),
            "variants": variants,
            "differences": differences,
            "warnings": warnings,
            "picture": picture,
        }


def summarize(experiment: Experiment, rows: Sequence[JSONObject]) -> Summary:
    """Count ``rows`` (one per job of ``experiment``, any order) per variant."""
    payloads = {job.key: job.payload for job in experiment.jobs()}
    summaries = []
    for variant in experiment.variants:
        seats = experiment.seats(variant)
        players = len(experiment.lineup(variant))
        summaries.append(
            VariantSummary(
                variant,
                seats,
                seat_wins=[0] * seats,
                player_games=[0] * players,
                player_wins=[0] * players,
                player_returns=[0.0] * players,
                player_seconds=[0.0] * players,
                player_decisions=[0] * players,
                player_yielded=[0] * players,
            )
        )
    for row in rows:
        key = str(row["job"])
        summary = summaries[int(key.split(":")[0])]
        order = [int(_number(index)) for index in _list(payloads[key]["players"])]
        winners = {int(_number(seat)) for seat in _list(row["winners"])}
        returns = [_number(value) for value in _list(row["returns"])]
        decisions = _list(row["decisions"])
        seconds = _list(row["seconds"])
        yielded = _list(row.get("yielded") or [0] * len(order))
        kinds = [_counts(entry) for entry in _list(row.get("kinds") or [{}] * len(order))]
        summary.games += 1
        summary.lengths.append(int(_number(row["actions"])))
        if isinstance(row.get("turns"), int):
            summary.turns.append(int(_number(row["turns"])))
        if not winners and summary.seats > 1:
            summary.draws += 1
        summary.limit_draws += bool(row["by_limit"])
        termination = row.get("termination")
        if not isinstance(termination, str):  # a row of an older run
            termination = Termination.TURN_LIMIT.value if row["by_limit"] else "unrecorded"
        summary.terminations[termination] = summary.terminations.get(termination, 0) + 1
        digest = row.get("digest")
        if isinstance(digest, str):
            summary.digests[key.partition(":")[2]] = digest
        offered = row.get("offered")
        if isinstance(offered, list):
            _count_offered(summary, [_counts(entry) for entry in offered])
        first = row.get("first")
        if isinstance(first, int) and summary.seats > 1:
            summary.first_games += 1
            summary.first_wins += first in winners
            summary.first_draws += not winners
        for seat, player in enumerate(order):
            won = seat in winners
            summary.seat_wins[seat] += won
            summary.player_games[player] += 1
            summary.player_wins[player] += won
            summary.player_returns[player] += returns[seat]
            summary.player_seconds[player] += _number(seconds[seat])
            summary.player_decisions[player] += int(_number(decisions[seat]))
            summary.player_yielded[player] += int(_number(yielded[seat]))
        _count_kinds(summary, kinds, winners)
    differences: list[Difference] = []
    if len(summaries) > 1:
        base = summaries[0]
        for other in summaries[1:]:
            name = other.variant.name
            if other.seats != base.seats:  # seats and players of another table: not compared
                differences.append(
                    Difference("turn-limit draws", name, base.limit_rate, other.limit_rate)
                )
                continue
            for seat in range(base.seats):
                differences.append(
                    Difference(
                        f"seat {seat + 1} win rate",
                        name,
                        base.seat_rate(seat),
                        other.seat_rate(seat),
                    )
                )
            for player in range(min(len(base.player_games), len(other.player_games))):
                differences.append(
                    Difference(
                        f"player {player + 1} win rate",
                        name,
                        base.player_rate(player),
                        other.player_rate(player),
                    )
                )
            if base.first_games and other.first_games:
                differences.append(
                    Difference("first mover's win rate", name, base.first_rate, other.first_rate)
                )
            differences.append(
                Difference("turn-limit draws", name, base.limit_rate, other.limit_rate)
            )
    return Summary(experiment, summaries, differences, find_warnings(summaries))


def _count_offered(summary: VariantSummary, offered: list[dict[str, int]]) -> None:
    """Count one game's offered kinds (per seat, the decisions that offered each)."""
    summary.offered_rows += 1
    seen: set[str] = set()
    for counts in offered:
        for kind, times in counts.items():
            summary.offered_decisions[kind] = summary.offered_decisions.get(kind, 0) + times
            seen.add(kind)
    for kind in seen:
        summary.offered_games[kind] = summary.offered_games.get(kind, 0) + 1


def find_warnings(variants: Sequence[VariantSummary]) -> list[BalanceWarning]:
    """What the report says beside its answers: variants with the same games, distinguishing
    action kinds never or rarely played, turn-limit draws above :data:`LIMIT_SHARE`."""
    warnings: list[BalanceWarning] = []
    for variant in variants:
        warnings += _limit_warnings(variant)
    for index, variant in enumerate(variants):
        others = [variants[0]] if index else list(variants[1:])
        warnings += _unused_warnings(variant, others)
    for index, one in enumerate(variants):
        for other in variants[index + 1 :]:
            warnings += _same_warnings(one, other)
    return warnings


def _limit_warnings(variant: VariantSummary) -> list[BalanceWarning]:
    limit = variant.terminations.get(Termination.TURN_LIMIT.value, 0)
    cut = variant.terminations.get(Termination.CUT_SHORT.value, 0)
    if not variant.games or (limit + cut) / variant.games <= LIMIT_SHARE:
        return []
    rate = Proportion(limit + cut, variant.games)
    ended = [f"{limit} at the turn limit"] if limit else []
    if cut:
        ended.append(f"{cut} cut short as endless")
    message = (
        f"{variant.variant.name}: {' and '.join(ended)} of {variant.games} games "
        f"({percent(rate.fraction)}, 95% interval {_interval(rate.interval)}), more than "
        f"{percent(LIMIT_SHARE)}: the answer rests on games nobody won, so a rule that makes "
        "games stall looks like a balanced one; raise the turn limit or use stronger players."
    )
    details: JSONObject = {
        "turn_limit": limit,
        "cut_short": cut,
        "games": variant.games,
        "share": rate.fraction,
        "interval": list(rate.interval),
    }
    return [BalanceWarning("turn_limit", variant.variant.name, message, details)]


def _unused_warnings(
    variant: VariantSummary, others: Sequence[VariantSummary]
) -> list[BalanceWarning]:
    """The variant's distinguishing kinds, named by the experiment file or else derived from
    what was offered (kinds offered in one of the first variant and another, never in the
    other; checked in the one that offers them: ``others`` is the first variant, or for the
    first every other), each never or rarely played."""
    name = variant.variant.name
    checks: list[tuple[str, list[str], str]] = []  # (label, kinds, where they come from)
    if variant.variant.distinguishing:
        for word in variant.variant.distinguishing:
            kinds = sorted(
                {k for k in (*variant.offered_games, *variant.kinds) if forbids((word,), k)}
            )
            checks.append((word, kinds, "named by the experiment file"))
    elif variant.offered_rows:
        # kinds this variant offers that another never did (e.g. a special allowed here)
        derived: dict[str, list[str]] = {}
        for other in others:
            if other.offered_rows:
                for kind in set(variant.offered_games) - set(other.offered_games):
                    derived.setdefault(kind, []).append(other.variant.name)
        for kind, names in sorted(derived.items()):
            checks.append((kind, [kind], f"offered here, never in {', '.join(names)}"))
    warnings = []
    for label, kinds, source in checks:
        played = sum(variant.kinds[k].games for k in kinds if k in variant.kinds)
        times = sum(variant.kinds[k].times for k in kinds if k in variant.kinds)
        offered = sum(variant.offered_games.get(k, 0) for k in kinds)
        decisions = sum(variant.offered_decisions.get(k, 0) for k in kinds)
        out_of = offered if variant.offered_rows else variant.games
        if out_of and played >= RARE_SHARE * out_of:
            continue
        if variant.offered_rows and not offered:
            how = "was never offered to a player"
        else:
            where = (
                f"of the {offered} games where it was offered (at {decisions} decisions)"
                if variant.offered_rows
                else f"of {variant.games} games"
            )
            how = (
                "was never played " + where
                if not played
                else f"was played {times} times, in {played} {where}"
            )
        if variant.offered_rows and not offered:
            why = "check the variant's rules and its players' restrictions"
        else:
            why = (
                "the players hardly use what this variant is about, so its answer says little "
                "about the rule; a player that plays it (e.g. hard) would measure it"
            )
        message = f"{name}: its distinguishing action {label} ({source}) {how}: {why}."
        details: JSONObject = {
            "action": label,
            "source": source,
            "kinds": list(kinds),
            "games_played": played,
            "times": times,
            "games_offered": offered if variant.offered_rows else None,
            "decisions_offered": decisions if variant.offered_rows else None,
        }
        warnings.append(BalanceWarning("unused_action", name, message, details))
    return warnings


def _same_warnings(one: VariantSummary, other: VariantSummary) -> list[BalanceWarning]:
    """Two variants that played at least :data:`SAME_SHARE` of their common deals (same deal,
    same rotation) move for move alike."""
    common = sorted(set(one.digests) & set(other.digests))
    if not common:
        return []
    same = sum(one.digests[key] == other.digests[key] for key in common)
    if same < SAME_SHARE * len(common):
        return []
    a, b = one.variant.name, other.variant.name
    if same == len(common):
        message = (
            f"{b}: all {same} games were the same, move for move, as in {a}: the difference "
            "between the two never came into play for these players, so their figures are "
            "equal by construction, not by measurement."
        )
    else:
        message = (
            f"{b}: {same} of {len(common)} games ({percent(same / len(common))}) were the same, "
            f"move for move, as in {a}: the difference between the two rests on the other "
            f"{len(common) - same}."
        )
    details: JSONObject = {"other": a, "same": same, "compared": len(common)}
    return [BalanceWarning("same_games", b, message, details)]


def _count_kinds(summary: VariantSummary, kinds: list[dict[str, int]], winners: set[int]) -> None:
    """Count one game's action kinds (the game already counted in ``summary``'s games and
    seat wins): a kind seen for the first time was not played in any earlier seat-game."""
    seen = set(summary.kinds)
    for counts in kinds:
        seen.update(counts)
    for kind in sorted(seen):
        use = summary.kinds.get(kind)
        if use is None:
            use = summary.kinds[kind] = UseCount(kind)
            use.unused = (summary.games - 1) * len(kinds)
            use.unused_won = sum(summary.seat_wins) - len(winners)
        game_times = 0
        for seat, counts in enumerate(kinds):
            times = counts.get(kind, 0)
            use.times += times
            game_times += times
            won = seat in winners
            if times:
                use.used += 1
                use.used_won += won
            else:
                use.unused += 1
                use.unused_won += won
        use.squares += game_times * game_times
        use.games += bool(game_times)
        if any(kinds[seat].get(kind, 0) for seat in winners if seat < len(kinds)):
            use.winner_used += 1


def _spread(values: Sequence[int]) -> JSONObject:
    """Mean (with its 95% interval: the normal approximation, mean +- 1.96 standard errors),
    10% quantile, median, 90% quantile and maximum of ``values``."""
    floats = [float(value) for value in values]
    mean = sum(floats) / len(floats) if floats else None
    interval: JSONValue = None
    if mean is not None and len(floats) > 1:
        variance = sum((value - mean) ** 2 for value in floats) / (len(floats) - 1)
        half = 1.96 * math.sqrt(variance / len(floats))
        interval = [mean - half, mean + half]
    return {
        "mean": mean,
        "mean_interval": interval,
        "p10": quantile(floats, 0.1),
        "median": quantile(floats, 0.5),
        "p90": quantile(floats, 0.9),
        "max": max(floats) if floats else None,
    }


def _mean_interval(spread: JSONObject) -> str:
    """ ", 95% interval A to B" for a spread's mean, or nothing without one."""
    interval = spread.get("mean_interval")
    if not isinstance(interval, list):
        return ""
    low, high = interval
    return f", 95% interval {_float(low)} to {_float(high)}"


def _counts(value: JSONValue) -> dict[str, int]:
    if not isinstance(value, dict):
        raise TypeError(f"not action-kind counts: {value!r}")
    return {str(kind): int(_number(times)) for kind, times in value.items()}


def _list(value: JSONValue | None) -> list[JSONValue]:
    if not isinstance(value, list):
        raise TypeError(f"not a list in a result row: {value!r}")
    return value


def _number(value: JSONValue | None) -> float:
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise TypeError(f"not a number in a result row: {value!r}")
    return float(value)


# ---------------------------------------------------------------------------------- writing
def percent(value: float | None) -> str:
    """``0.4812`` as ``48.1%``; ``-`` for nothing."""
    return "-" if value is None else f"{100 * value:.1f}%"


def _interval(pair: tuple[float, float]) -> str:
    return f"{percent(pair[0])} to {percent(pair[1])}"


def _points(pair: tuple[float, float]) -> str:
    return f"{100 * pair[0]:+.1f} to {100 * pair[1]:+.1f} points"


def _p(value: float) -> str:
    return "<0.0001" if value < 0.0001 else f"{value:.4f}"


def render_markdown(summary: Summary, pictures: Sequence[tuple[str, str]] = ()) -> str:
    """The report as Markdown; ``pictures`` are (file name, caption) pairs placed after the
    tables."""
    experiment = summary.experiment
    out = [f"# {experiment.title or experiment.game.title + ': balance experiment'}", ""]
    order = (
        "each deal played once per rotation of the players over the seats"
        if experiment.rotate
        else "players in fixed seats"
    )
    out += [
        f"{experiment.game.title}, {experiment.games} games per variant from seed "
        f"{experiment.seed} ({order}). Intervals are 95% (Wilson for a rate, Newcombe for a "
        "difference); p is the two-sided z test (a seat's share of the decided games "
        "against its fair share, a variant against the first). A shared first place counts "
        "as a win for each.",
        "",
    ]
    if summary.warnings:
        out += [
            "## Warnings",
            "",
            "Read these before the answers: where they apply, the bots, not the rules, may "
            "have decided the figures.",
            "",
        ]
        out += [f"* {warning.message}" for warning in summary.warnings]
        out += [""]
    for variant in summary.variants:
        out += _variant_markdown(experiment, variant)
        out += [f"**Warning.** {w.message}\n" for w in summary.warnings_of(variant.variant.name)]
    if summary.differences:
        base = summary.variants[0].variant.name
        out += [f"## Against {base}", ""]
        rows = [
            [
                f"{diff.variant}: {diff.what}",
                percent(diff.baseline.fraction),
                percent(diff.other.fraction),
                "-" if diff.delta is None else f"{100 * diff.delta:+.1f}",
                _points(diff.interval),
                _p(diff.p_value),
            ]
            for diff in summary.differences
        ]
        out += [
            markdown_table(
                ["what", base, "variant", "difference (points)", "95% interval", "p"], rows
            ),
            "",
        ]
    for name, caption in pictures:
        out += [f"![{caption}]({name})", "", f"*{caption}*", ""]
    return "\n".join(out)


def _variant_markdown(experiment: Experiment, variant: VariantSummary) -> list[str]:
    out = [f"## {variant.variant.name}", ""]
    options = variant.variant.config.changed_options_from(experiment.game.default_config())
    described = ", ".join(f"{k}={v}" for k, v in options.items()) or "the default rules"
    out += [f"Rules: {described}. {variant.games} games.", ""]
    rows = []
    entries = [
        (f"seat {n + 1}", variant.seat_rate(n), variant.seat_share(n)) for n in range(variant.seats)
    ]
    if variant.first_games:
        entries.append(("moved first", variant.first_rate, variant.first_share))
    for label, rate, share in entries:
        rows.append(
            [
                label,
                str(rate.successes),
                percent(rate.fraction),
                _interval(rate.interval),
                percent(share.fraction),
                _interval(share.interval),
                percent(variant.fair),
                _p(proportion_test(share, variant.fair)),
            ]
        )
    headers = ["seat", "wins", "win rate", "95% interval", "of decided", "95% interval"]
    out += [markdown_table([*headers, "fair share", "p"], rows), ""]
    rows = []
    for number, player in enumerate(experiment.lineup(variant.variant)):
        rate = variant.player_rate(number)
        games = variant.player_games[number]
        decisions = variant.player_decisions[number]
        rows.append(
            [
                f"player {number + 1}: {player}",
                str(games),
                str(rate.successes),
                percent(rate.fraction),
                _interval(rate.interval),
                f"{variant.player_returns[number] / games:+.2f}" if games else "-",
                f"{variant.player_seconds[number] / decisions:.4f}" if decisions else "-",
                str(variant.player_yielded[number]),
            ]
        )
    out += [
        markdown_table(
            [
                "player",
                "games",
                "wins",
                "win rate",
                "95% interval",
                "mean return",
                "s/decision",
                "yielded",
            ],
            rows,
        ),
        "",
    ]
    length = _spread(variant.lengths)
    limit = variant.limit_rate
    text = (
        f"Length: mean {_float(length['mean'])} actions{_mean_interval(length)} (10% "
        f"{_float(length['p10'])}, median {_float(length['median'])}, 90% "
        f"{_float(length['p90'])}, longest {_float(length['max'])})"
    )
    if variant.turns:
        turns = _spread(variant.turns)
        text += (
            f"; turns: mean {_float(turns['mean'])}{_mean_interval(turns)} (median "
            f"{_float(turns['median'])}, 90% {_float(turns['p90'])})"
        )
    text += (
        f". Drawn: {variant.draws}; at the turn limit: {variant.limit_draws} "
        f"({percent(limit.fraction)}, 95% interval {_interval(limit.interval)})."
    )
    out += [text, ""]
    rows = []
    for use in sorted(variant.kinds.values(), key=lambda entry: -entry.times):
        used = Proportion(use.used_won, use.used)
        unused = Proportion(use.unused_won, use.unused)
        mean, (low, high) = use.per_game(variant.games)
        share = Proportion(use.used, use.used + use.unused)
        rows.append(
            [
                use.kind,
                f"{mean:.2f} ({low:.2f} to {high:.2f})" if variant.games else "-",
                f"{percent(share.fraction)} ({_interval(share.interval)})" if share.trials else "-",
                percent(used.fraction),
                percent(unused.fraction),
                _points(difference_interval(used, unused)) if use.used and use.unused else "-",
                percent(use.winner_used / variant.games) if variant.games else "-",
            ]
        )
    out += [
        "Actions: how often each kind was played, and how seats that played it fared against "
        "seats that did not (an association, not a cause: a restriction experiment measures "
        "the cause).",
        "",
        markdown_table(
            [
                "kind",
                "per game (95% interval)",
                "seat-games used (95% interval)",
                "win rate used",
                "not used",
                "difference 95%",
                "winner used",
            ],
            rows,
        ),
        "",
    ]
    return out


def _float(value: JSONValue | None) -> str:
    return "-" if not isinstance(value, int | float) else f"{value:.1f}"


@dataclass(frozen=True)
class Series:
    """One row of the win-rate picture: a rate and its 95% interval in one variant."""

    panel: str
    label: str
    variant: str
    value: float
    low: float
    high: float
    #: the line it is read against: the fair share, or 0 for a difference
    reference: float | None = None

    def to_json(self) -> JSONObject:
        return {
            "panel": self.panel,
            "label": self.label,
            "variant": self.variant,
            "value": self.value,
            "interval": [self.low, self.high],
            "reference": self.reference,
        }


def picture_series(summary: Summary) -> list[Series]:
    """What the win-rate picture shows: per variant the first mover's win rate (the seat that
    took the game's first decision: in Fano not always seat 1), each seat's and each player's,
    the draws and turn-limit draws, and against the first variant each difference in points,
    all with their 95% intervals."""
    series: list[Series] = []
    for variant in summary.variants:
        rates: list[tuple[str, str, Proportion, float | None]] = []
        if variant.first_games:
            rates.append(("win rates", "moved first", variant.first_rate, variant.fair))
        for seat in range(variant.seats):
            rates.append(("win rates", f"seat {seat + 1}", variant.seat_rate(seat), variant.fair))
        for player in range(len(variant.player_games)):
            rates.append(
                ("win rates", f"player {player + 1}", variant.player_rate(player), variant.fair)
            )
        rates.append(("draws", "drawn", Proportion(variant.draws, variant.games), None))
        rates.append(("draws", "at the turn limit", variant.limit_rate, None))
        for panel, label, value, fair in rates:
            if value.fraction is not None:
                low, high = value.interval
                series.append(
                    Series(panel, label, variant.variant.name, value.fraction, low, high, fair)
                )
    for diff in summary.differences:
        if diff.delta is not None:
            low, high = diff.interval
            series.append(
                Series(
                    f"against {summary.variants[0].variant.name}",
                    diff.what,
                    diff.variant,
                    diff.delta,
                    low,
                    high,
                    0.0,
                )
            )
    return series


def _zoom(values: Sequence[float], floor: float, ceiling: float) -> tuple[float, float]:
    """An axis range around ``values`` with a little room, inside [floor, ceiling], so that
    a few points of difference are wide enough to see."""
    low, high = min(values), max(values)
    room = max(0.01, 0.08 * (high - low))
    return max(floor, low - room), min(ceiling, high + room)


def _draw_panel(ax: Any, panel: str, rows: Sequence[Series], variants: Sequence[str]) -> None:
    """One panel of the win-rate picture: a dot and its interval per series and variant, the
    axis zoomed to the intervals, ticks every point or every five where the range is wide."""
    from matplotlib.ticker import FuncFormatter, MultipleLocator

    difference = panel.startswith("against")
    labels = list(dict.fromkeys(row.label for row in rows))
    colours = {name: f"C{number % 10}" for number, name in enumerate(variants)}
    step = 0.8 / max(1, len(variants))
    for row in rows:
        position = (
            labels.index(row.label) + (variants.index(row.variant) - (len(variants) - 1) / 2) * step
        )
        line = ax.errorbar(
            [row.value],
            [position],
            xerr=[[max(0.0, row.value - row.low)], [max(0.0, row.high - row.value)]],
            fmt="o",
            color=colours[row.variant],
            capsize=3,
            markersize=4,
            label=row.variant,
        )
        line[0].set_gid(f"series|{panel}|{row.label}|{row.variant}")
    references = sorted({row.reference for row in rows if row.reference is not None})
    for reference in references:
        ax.axvline(reference, color="black", linestyle="dashed", linewidth=1)
    edges = [row.low for row in rows] + [row.high for row in rows] + references
    low, high = _zoom(edges, -1.0 if difference else 0.0, 1.0)
    ax.set_xlim(low, high)
    span = high - low
    ax.xaxis.set_major_locator(
        MultipleLocator(0.01 if span <= 0.12 else 0.05 if span <= 0.6 else 0.1)
    )
    ax.xaxis.set_minor_locator(MultipleLocator(0.01 if span > 0.12 else 0.005))
    ax.xaxis.set_major_formatter(
        FuncFormatter(lambda x, _: f"{100 * x:+.0f}" if difference else f"{100 * x:.0f}%")
    )
    ax.grid(axis="x", which="major", alpha=0.5)
    ax.grid(axis="x", which="minor", alpha=0.15)
    ax.set_yticks(range(len(labels)))
    ax.set_yticklabels(labels)
    ax.set_ylim(len(labels) - 0.5, -0.5)
    ax.set_title(panel + (" (points, 95% intervals)" if difference else " (95% intervals)"))


def draw_pictures(summary: Summary, folder: Path) -> list[tuple[str, str]]:
    """The win-rate picture (``win_rates.png``, and ``win_rates.svg`` whose dots carry their
    series' names) and game-length histograms (``lengths.png``) in ``folder``; returns (file
    name, caption) pairs for the report."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pictures: list[tuple[str, str]] = []
    variants = summary.variants
    series = picture_series(summary)
    panels = list(dict.fromkeys(row.panel for row in series))
    names = [variant.variant.name for variant in variants]
    heights = [len({row.label for row in series if row.panel == panel}) for panel in panels]
    fig, axes = plt.subplots(
        len(panels),
        1,
        figsize=(9, 1.2 + 0.32 * len(variants) * sum(heights) + 0.9 * len(panels)),
        gridspec_kw={"height_ratios": [max(1, h) * len(variants) for h in heights]},
        squeeze=False,
    )
    for ax, panel in zip(axes[:, 0], panels, strict=True):
        _draw_panel(ax, panel, [row for row in series if row.panel == panel], names)
    if len(variants) > 1:
        handles, labels = axes[0, 0].get_legend_handles_labels()
        unique = dict(zip(labels, handles, strict=True))
        fig.legend(unique.values(), unique.keys(), loc="upper right", fontsize="small")
    fig.tight_layout(rect=(0, 0, 0.82 if len(variants) > 1 else 1, 1))
    fig.savefig(folder / "win_rates.png", dpi=90)
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "fanfold"}):
        fig.savefig(folder / "win_rates.svg", metadata={"Date": None})
    plt.close(fig)
    pictures.append(
        (
            "win_rates.png",
            "Win rates of the first mover, each seat and each player, draws, and the "
            "differences from the first variant, with 95% intervals; the dashed lines are the "
            "fair shares (and no difference)",
        )
    )
    fig, ax = plt.subplots(figsize=(8, 3.5))
    # the longest 1% of games are left off the picture (a game at the turn limit would squash
    # every other bar into a corner); the tables give the longest game
    everything = [float(length) for v in variants for length in v.lengths]
    longest = max(1.0, quantile(everything, 0.99) or 1.0)
    bins = min(50, max(5, int(math.sqrt(max(1, variants[0].games if variants else 1)))))
    for variant in variants:
        if variant.lengths:
            ax.hist(
                variant.lengths,
                bins=bins,
                range=(0, longest),
                alpha=0.5,
                label=variant.variant.name,
            )
    ax.set_xlabel("actions in the game (the longest 1% left off)")
    ax.set_ylabel("games")
    ax.set_title("game length")
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(folder / "lengths.png", dpi=90)
    plt.close(fig)
    pictures.append(("lengths.png", "Game length in actions"))
    return pictures


def write_report(summary: Summary, folder: Path) -> Path:
    """Write ``report.md``, ``report.html``, ``summary.json`` and the pictures into ``folder``;
    returns the HTML report's path."""
    folder.mkdir(parents=True, exist_ok=True)
    pictures = draw_pictures(summary, folder)
    text = render_markdown(summary, pictures)
    (folder / "report.md").write_text(text + "\n", encoding="utf-8")
    (folder / "summary.json").write_text(
        json.dumps(summary.to_json(), indent=2) + "\n", encoding="utf-8"
    )
    page = folder / "report.html"
    page.write_text(markdown_to_html(text, folder), encoding="utf-8")
    return page


def markdown_to_html(text: str, folder: Path) -> str:
    """The report's Markdown (headings, paragraphs, tables, pictures) as one HTML page, the
    pictures inlined so that the page opens on its own."""
    body: list[str] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("|"):
            table = []
            while index < len(lines) and lines[index].startswith("|"):
                table.append(lines[index])
                index += 1
            cells = [[cell.strip() for cell in row.strip("|").split("|")] for row in table]
            head, rows = cells[0], cells[2:]
            body.append(
                "<table><tr>" + "".join(f"<th>{html.escape(c)}</th>" for c in head) + "</tr>"
            )
            body += [
                "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
                for row in rows
            ]
            body.append("</table>")
            continue
        if line.startswith("* "):
            body.append("<ul>")
            while index < len(lines) and lines[index].startswith("* "):
                body.append(f"<li>{html.escape(lines[index][2:])}</li>")
                index += 1
            body.append("</ul>")
            continue
        if line.startswith("## "):
            body.append(f"<h2>{html.escape(line[3:])}</h2>")
        elif line.startswith("# "):
            body.append(f"<h1>{html.escape(line[2:])}</h1>")
        elif line.startswith("!["):
            caption, _, name = line[2:].rstrip(")").partition("](")
            data = base64.b64encode((folder / name).read_bytes()).decode("ascii")
            body.append(f'<img alt="{html.escape(caption)}" src="data:image/png;base64,{data}">')
        elif line.startswith("**Warning.** "):
            text = html.escape(line.removeprefix("**Warning.** "))
            body.append(f'<p class="warning"><strong>Warning.</strong> {text}</p>')
        elif line.strip():
            body.append(f"<p>{html.escape(line.strip('*'))}</p>")
        index += 1
    style = (
        "body{font-family:sans-serif;max-width:70em;margin:2em auto}"
        "table{border-collapse:collapse;margin:1em 0}"
        "td,th{border:1px solid #bbb;padding:2px 8px;text-align:right}"
        "td:first-child,th:first-child{text-align:left}img{max-width:100%}"
        ".warning{background:#fff3cd;padding:4px 8px}"
    )
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>fanfold balance report</title>"
        f"<style>{style}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n"
    )
