"""The server's own timings in each window of ``benchmarks/review.py --impact --interleave``:
the histograms of the server's ``/metrics`` read as each window opens and closes, so that the
on and off windows can be told apart by what the process did inside (a group commit's time in
the store's thread, the event loop's lag, a request's time), not only by what the players saw.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping, Sequence

import httpx

#: The histograms compared, by their name in ``/metrics``, with the line's label.
WATCHED: dict[str, str] = {
    "fanfold_store_write_seconds": "group commit (store's thread)",
    "fanfold_event_loop_lag_seconds": "event loop lag (timer every 0.25 s)",
    "fanfold_act_seconds": "action handled (server side)",
    'fanfold_act_stage_seconds{stage="parse"}': "action: socket message read and parsed",
    'fanfold_act_stage_seconds{stage="lock"}': "action: wait for its table's lock",
    'fanfold_act_stage_seconds{stage="rules"}': "action: the rules (checked, applied)",
    'fanfold_act_stage_seconds{stage="store"}': "action: stored (queue and commit)",
    'fanfold_act_stage_seconds{stage="queue"}': "any row: wait for its group commit",
    'fanfold_act_stage_seconds{stage="commit"}': "any row: its group commit to its table",
    'fanfold_act_stage_seconds{stage="tell"}': "action: its watchers told",
    "fanfold_http_request_seconds": "HTTP request",
    "fanfold_bot_queue_wait_seconds": "bot decision: its wait in the pool's queue",
    "fanfold_bot_decision_seconds": "bot decision: asked of the pool to its answer",
    "fanfold_review_hold_seconds": "review step: its wait for live play (2 s: the limit)",
    "fanfold_review_idle_seconds": "review step: seconds in the idle class (0: none)",
    "fanfold_review_write_wait_seconds": "review write: its wait for its writer thread",
    "fanfold_review_write_seconds": "review write: its time in its writer thread",
    "fanfold_review_worker_write_wait_seconds": "review step stored by the worker: lock wait",
    "fanfold_review_worker_write_seconds": "review step stored by the worker: its time",
}

_LINE = re.compile(r"^(\w+?)_(bucket|sum|count)(?:\{(.*)\})? (\S+)$")
_LE = re.compile(r'le="([^"]+)"')
_LABEL = re.compile(r'\w+="[^"]*"')


@dataclasses.dataclass
class Histogram:
    """One histogram's totals (its labels summed): count, sum, and cumulative buckets."""

    count: float = 0.0
    total: float = 0.0
    buckets: dict[float, float] = dataclasses.field(default_factory=dict)

    def minus(self, other: Histogram) -> Histogram:
        """What was observed between ``other`` (earlier) and this."""
        return Histogram(
            self.count - other.count,
            self.total - other.total,
            {le: n - other.buckets.get(le, 0.0) for le, n in self.buckets.items()},
        )

    def plus(self, other: Histogram) -> Histogram:
        """Both together."""
        keys = set(self.buckets) | set(other.buckets)
        return Histogram(
            self.count + other.count,
            self.total + other.total,
            {le: self.buckets.get(le, 0.0) + other.buckets.get(le, 0.0) for le in keys},
        )

    def bound(self, share: float) -> float:
        """The smallest bucket bound under which at least ``share`` of the observations lie
        (seconds; inf past the last bound, nan without observations): a quantile's ceiling."""
        if not self.count:
            return float("nan")
        for le in sorted(self.buckets):
            if self.buckets[le] >= share * self.count:
                return le
        return float("inf")

    def above(self, limit: float) -> float:
        """The share of observations above ``limit`` (a bucket's bound)."""
        if not self.count:
            return float("nan")
        return 1.0 - self.buckets.get(limit, 0.0) / self.count


_WATCHED_NAME = re.compile(r'^(\w+)(?:\{(\w+)="([^"]*)"\})?$')


def parse(text: str, names: Iterable[str] = WATCHED) -> dict[str, Histogram]:
    """The histograms ``names`` in a Prometheus text exposition, each summed over its labels;
    a name with one label (``name{label="value"}``) is that label's series only."""
    wanted: dict[str, list[tuple[str, str | None, str | None]]] = {}
    found: dict[str, Histogram] = {}
    for key in names:
        watched = _WATCHED_NAME.match(key)
        if watched is None:
            raise ValueError(f"not a histogram's name, with at most one label: {key!r}")
        base, label, value = watched.groups()
        wanted.setdefault(base, []).append((key, label, value))
        found[key] = Histogram()
    for line in text.splitlines():
        matched = _LINE.match(line)
        if matched is None or matched.group(1) not in wanted:
            continue
        name, part, labels, value = matched.groups()
        for key, label, wanted_value in wanted[name]:
            if label is None or f'{label}="{wanted_value}"' in _LABEL.findall(labels or ""):
                _add(found[key], part, labels, value)
    return found


def _add(histogram: Histogram, part: str, labels: str | None, value: str) -> None:
    """One line of a histogram (its ``part``: bucket, sum or count) added to ``histogram``."""
    number = float(value)
    if part == "count":
        histogram.count += number
    elif part == "sum":
        histogram.total += number
    else:
        bound = _LE.search(labels or "")
        if bound is not None and bound.group(1) != "+Inf":
            le = float(bound.group(1))
            histogram.buckets[le] = histogram.buckets.get(le, 0.0) + number


async def scrape(client: httpx.AsyncClient, base: str) -> dict[str, Histogram]:
    """The watched histograms of the server at ``base`` now."""
    answer = await client.get(f"{base}/metrics", timeout=10)
    answer.raise_for_status()
    return parse(answer.text)


def window_change(
    opened: Mapping[str, Histogram], closed: Mapping[str, Histogram]
) -> dict[str, Histogram]:
    """What each watched histogram observed in one window."""
    return {name: closed[name].minus(opened[name]) for name in closed if name in opened}


def pooled(changes: Sequence[Mapping[str, Histogram]]) -> dict[str, Histogram]:
    """The windows' observations together."""
    total: dict[str, Histogram] = {}
    for change in changes:
        for name, histogram in change.items():
            total[name] = total.get(name, Histogram()).plus(histogram)
    return total


def table(kinds: Mapping[str, Sequence[Mapping[str, Histogram]]]) -> list[str]:
    """A line per watched histogram and kind of window: count, mean, the shares above 1 ms, 5
    ms, 10 ms and 1 s, and the bucket bound of its p99 (``p99 <=``)."""
    out = [
        "| server's histogram | windows | count | mean ms | > 1 ms | > 5 ms | > 10 ms | > 1 s "
        "| p99 <= ms |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, label in WATCHED.items():
        for kind, changes in kinds.items():
            found = pooled(changes).get(name, Histogram())
            mean = found.total / found.count * 1e3 if found.count else float("nan")
            out.append(
                f"| {label} | {kind} | {found.count:.0f} | {mean:.2f} | {found.above(0.001):.2%} "
                f"| {found.above(0.005):.2%} | {found.above(0.01):.2%} | {found.above(1.0):.2%} "
                f"| {found.bound(0.99) * 1e3:g} |"
            )
    return out


__all__ = ["WATCHED", "Histogram", "parse", "pooled", "scrape", "table", "window_change"]
