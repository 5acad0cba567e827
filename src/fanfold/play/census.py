"""The Fan census: many deals decided by the exact solver, on the batch runner.

Each deal is a job keyed ``"VARIANT:DEAL"``; its row holds the verdict, the positions searched,
the time and the length of the solution. :func:`census_summary` counts the verdicts and gives
the winnable fraction with its Wilson 95% interval.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from fanfold.core import lab_refusals as _lab_refusals  # noqa: F401  (registers the codes)
from fanfold.core.config import JSONObject
from fanfold.core.errors import FanfoldError, Refusal
from fanfold.games.fan import GAME as FAN
from fanfold.games.fan import FanConfig
from fanfold.play.batch import Job, ProgressCallback, run_batch
from fanfold.play.stats import median, wilson_interval
from fanfold.solvers.fan import SOLVED, UNKNOWN, solve_deal


def parse_deal_ranges(text: str) -> list[int]:
    """``"1-1000"`` or ``"1,5,7-9"`` into deal numbers, in order, without repeats.

    >>> parse_deal_ranges("3,1-2,2")
    [3, 1, 2]
    """
    deals: dict[int, None] = {}
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        low, sep, high = part.partition("-")
        try:
            start = int(low)
            stop = int(high) if sep else start
        except ValueError:
            refusal = Refusal("census.not_a_range", part=repr(part), example="1-1000")
            raise FanfoldError(refusal) from None
        if start < 0 or stop < start:
            raise FanfoldError(Refusal("census.bad_range", part=repr(part)))
        for deal in range(start, stop + 1):
            deals[deal] = None
    if not deals:
        raise FanfoldError(Refusal("census.no_deals", example="--deals 1-1000"))
    return list(deals)


def variant_name(config: FanConfig) -> str:
    """The preset a config is, or ``"custom"``."""
    for preset in FAN.presets():
        if preset.config == config:
            return preset.name
    return "custom"


def decide_deal(payload: JSONObject) -> JSONObject:
    """The census worker: one deal decided (payload: deal, config, max_states)."""
    deal, config_json, max_states = payload["deal"], payload["config"], payload["max_states"]
    if not isinstance(deal, int) or not isinstance(config_json, dict):
        raise TypeError("a census job needs a deal number and a config")
    config = FanConfig.from_json(config_json)
    result = solve_deal(
        deal, config, max_states=max_states if isinstance(max_states, int) else None
    )
    return {
        "variant": variant_name(config),
        "deal": deal,
        "verdict": result.verdict,
        "states": result.states,
        "seconds": round(result.seconds, 6),
        "moves": len(result.moves),
    }


def run_census(
    deals: Sequence[int],
    config: FanConfig,
    *,
    workers: int = 1,
    results: Path | None = None,
    max_states: int | None = None,
    progress: ProgressCallback | None = None,
    ray: str | None = None,
) -> list[JSONObject]:
    """Decide ``deals`` (rows in deal order); deals already decided in ``results`` are reused,
    those left ``unknown`` there are tried again. ``ray`` runs it on a Ray cluster (see
    :mod:`fanfold.play.backends`), with the same rows."""
    variant = variant_name(config)
    jobs = [
        Job(
            f"{variant}:{deal}",
            {"deal": deal, "config": config.to_json(), "max_states": max_states},
        )
        for deal in deals
    ]
    return run_batch(
        decide_deal,
        jobs,
        workers=workers,
        results=results,
        is_done=lambda row: row.get("verdict") != UNKNOWN,
        progress=progress,
        ray=ray,
        fields=("verdict",),
    )


def census_summary(rows: Sequence[JSONObject]) -> dict[str, Any]:
    """Counts, the winnable fraction with its Wilson 95% interval, and time figures."""
    decided = [row for row in rows if row["verdict"] != UNKNOWN]
    won = sum(1 for row in decided if row["verdict"] == SOLVED)
    low, high = wilson_interval(won, len(decided))
    times = [float(_number(row["seconds"])) for row in rows]
    return {
        "deals": len(rows),
        "solved": won,
        "unsolvable": len(decided) - won,
        "unknown": len(rows) - len(decided),
        "winnable_fraction": won / len(decided) if decided else None,
        "wilson_95": [low, high],
        "median_seconds": median(times),
        "max_seconds": max(times) if times else None,
        "total_states": sum(int(_number(row["states"])) for row in rows),
    }


def _number(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise FanfoldError(Refusal("census.not_a_number", value=repr(value)))
    return value
