"""``fanfold deploy prometheus``, ``alert-rules`` and ``grafana``: what watches a site of N
``fanfold serve`` processes (:mod:`fanfold.server.metrics`), rendered like HAProxy's
configuration (:mod:`fanfold.cli.deploy`).

* ``prometheus``: Prometheus's configuration scraping each process's ``/metrics`` on its health
  port (answered by a thread of the process, never queued behind its tables), each target
  labelled with its server name, and the alert rules beside it.
* ``alert-rules``: the rules alone (``fanfold/deploy_templates/fanfold-alerts.yml``): no process
  up, a process down or restarting, the act-to-ok p99 over 250 ms for 5 minutes, the event
  loop late or blocked, bots waiting for a worker, slow store writes, 5xx answers, error
  lines, CPU and file descriptors.
* ``grafana``: a Grafana dashboard (JSON, to import) of the same metrics, by process.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer

from fanfold.cli.common import Said, error_console, refused, worded
from fanfold.cli.deploy import app, fill, template
from fanfold.cli.deploy_group import (
    DURATION,
    BasePortOption,
    HealthBasePortOption,
    ProcessesOption,
    ProcessGroup,
    ServerAddressOption,
    ServerNameOption,
    address,
    check_host,
)

#: The alert rules' file name beside Prometheus's configuration.
RULES_NAME = "fanfold-alerts.yml"
#: Prometheus's job of the processes (the rules and the dashboard select it).
JOB = "fanfold"
_JOB = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,63}")


@dataclass(frozen=True)
class PrometheusSite:
    """What ``fanfold deploy prometheus`` renders: its options, by the same names.

    Attributes:
        group: the processes.
        job: Prometheus's job for them (the rules select it).
        scrape_interval: how often each process is scraped (and the rules evaluated).
        alertmanagers: the Alertmanagers told of the alerts (``HOST:PORT``); none: the alerts
            show in Prometheus only.
        out: the configuration's file, when written to one (shown in the rendered command).
    """

    group: ProcessGroup
    job: str = JOB
    scrape_interval: str = "15s"
    alertmanagers: tuple[str, ...] = field(default=())
    out: str | None = None

    def check(self) -> None:
        """Raise :class:`ValueError` with a sentence for anything Prometheus would refuse."""
        self.group.check()
        if not _JOB.fullmatch(self.job):
            raise ValueError(
                Said(
                    "--job %(job)s: letters, digits, '_' and '-', a letter first",
                    job=repr(self.job),
                )
            )
        if not DURATION.fullmatch(self.scrape_interval):
            raise ValueError(
                Said(
                    "--scrape-interval %(scrape_interval)s: a duration such as 15s or 1m",
                    scrape_interval=repr(self.scrape_interval),
                )
            )
        for manager in self.alertmanagers:
            host, _, port = manager.rpartition(":")
            if not host or not port.isdigit() or not 1 <= int(port) <= 65535:
                raise ValueError(
                    Said("--alertmanager %(manager)s: give HOST:PORT", manager=repr(manager))
                )
            check_host("--alertmanager", host.strip("[]"))

    def command(self) -> str:
        """The ``fanfold deploy prometheus`` command that renders this configuration again."""
        words = ["fanfold", "deploy", "prometheus", *self.group.option_words()]
        if self.job != JOB:
            words += ["--job", self.job]
        if self.scrape_interval != "15s":
            words += ["--scrape-interval", self.scrape_interval]
        for manager in self.alertmanagers:
            words += ["--alertmanager", manager]
        if self.out is not None:
            words += ["--out", self.out]
        return shlex.join(words)


def render_prometheus(site: PrometheusSite) -> str:
    """Prometheus's configuration for ``site`` (checked first: :meth:`PrometheusSite.check`)."""
    site.check()
    group = site.group
    targets: list[str] = []
    for name, port in zip(group.names, group.health_ports, strict=True):
        targets += [
            f'      - targets: ["{address(group.server_address, port)}"]',
            "        labels:",
            f"          server: {name}",
        ]
    alerting: list[str] = []
    if site.alertmanagers:
        listed = ", ".join(f'"{manager}"' for manager in site.alertmanagers)
        alerting = [
            "",
            "alerting:",
            "  alertmanagers:",
            "    - static_configs:",
            f"        - targets: [{listed}]",
        ]
    values: dict[str, str | list[str]] = {
        "processes_text": group.processes_text,
        "command": site.command(),
        "rules": RULES_NAME,
        "processes": str(group.processes),
        "base_port": str(group.base_port),
        "health_base_port": str(group.health),
        "server_address": group.server_address,
        "names_text": group.names_text,
        "scrape_interval": site.scrape_interval,
        "alerting_lines": alerting,
        "job": site.job,
        "target_lines": targets,
    }
    return fill(template("prometheus.yml"), values)


def render_rules(job: str = JOB) -> str:
    """The alert rules for the processes of Prometheus's job ``job``."""
    if not _JOB.fullmatch(job):
        raise ValueError(
            Said("--job %(job)s: letters, digits, '_' and '-', a letter first", job=repr(job))
        )
    command = ["fanfold", "deploy", "alert-rules"] + (["--job", job] if job != JOB else [])
    return fill(template(RULES_NAME), {"job": job, "command": shlex.join(command)})


# ------------------------------------------------------------------ the dashboard


def _panel(
    title: str,
    targets: list[tuple[str, str]],
    *,
    unit: str = "short",
    kind: str = "timeseries",
    width: int = 12,
    description: str = "",
) -> dict[str, Any]:
    """One panel of ``targets`` (each a PromQL expression and its legend)."""
    panel: dict[str, Any] = {
        "type": kind,
        "title": title,
        "description": description,
        "datasource": {"type": "prometheus", "uid": "${datasource}"},
        "gridPos": {"w": width, "h": 4 if kind == "stat" else 8},
        "fieldConfig": {"defaults": {"unit": unit}, "overrides": []},
        "targets": [
            {
                "refId": chr(ord("A") + number),
                "datasource": {"type": "prometheus", "uid": "${datasource}"},
                "expr": expr,
                "legendFormat": legend,
            }
            for number, (expr, legend) in enumerate(targets)
        ],
    }
    if kind == "timeseries":
        panel["options"] = {"legend": {"displayMode": "list", "placement": "bottom"}}
    return panel


def _quantile(q: str, metric: str, by: str = "server") -> str:
    return (
        f"histogram_quantile({q}, sum by ({by}, le) "
        f'(rate({metric}_bucket{{job="$job", server=~"$server"}}[$__rate_interval])))'
    )


def _rows() -> list[tuple[str, list[dict[str, Any]]]]:
    sel = 'job="$job", server=~"$server"'
    return [
        (
            "The site",
            [
                _panel(
                    "Processes up",
                    [(f"sum(up{{{sel}}})", "up")],
                    kind="stat",
                    width=4,
                    description="Processes answering their scrape (FanfoldNoProcessUp at 0).",
                ),
                _panel(
                    "Tables in memory",
                    [(f"sum(fanfold_tables_live{{{sel}}})", "tables")],
                    kind="stat",
                    width=4,
                ),
                _panel(
                    "WebSockets open",
                    [(f"sum(fanfold_websockets_open{{{sel}}})", "sockets")],
                    kind="stat",
                    width=4,
                ),
                _panel(
                    "Actions a second",
                    [(f"sum(rate(fanfold_actions_total{{{sel}}}[$__rate_interval]))", "actions")],
                    kind="stat",
                    unit="ops",
                    width=4,
                ),
                _panel(
                    "HTTP 5xx share",
                    [
                        (
                            f'sum(rate(fanfold_http_requests_total{{{sel}, status=~"5.."}}'
                            "[$__rate_interval])) / "
                            f"sum(rate(fanfold_http_requests_total{{{sel}}}[$__rate_interval]))",
                            "5xx",
                        )
                    ],
                    kind="stat",
                    unit="percentunit",
                    width=4,
                ),
                _panel(
                    "Bot decisions waiting",
                    [(f"sum(fanfold_bot_queue{{{sel}}})", "waiting")],
                    kind="stat",
                    width=4,
                ),
            ],
        ),
        (
            "Players",
            [
                _panel(
                    "Action to ok (p50, p99)",
                    [
                        (_quantile("0.5", "fanfold_act_seconds"), "{{server}} p50"),
                        (_quantile("0.99", "fanfold_act_seconds"), "{{server}} p99"),
                    ],
                    unit="s",
                    description="From a person's action to its ok (FanfoldActLatencyHigh: p99 "
                    "over 250 ms for 5 minutes).",
                ),
                _panel(
                    "Requests by route and status",
                    [
                        (
                            "sum by (route, status) (rate(fanfold_http_requests_total"
                            f"{{{sel}}}[$__rate_interval]))",
                            "{{route}} {{status}}",
                        )
                    ],
                    unit="reqps",
                ),
                _panel(
                    "Errors",
                    [
                        (
                            "sum by (server) (rate(fanfold_http_requests_total"
                            f'{{{sel}, status=~"5.."}}[$__rate_interval]))',
                            "{{server}} 5xx",
                        ),
                        (
                            "sum by (server, logger) (rate(fanfold_log_errors_total"
                            f"{{{sel}}}[$__rate_interval]))",
                            "{{server}} {{logger}}",
                        ),
                    ],
                    unit="ops",
                    description="5xx answers, and log lines at ERROR by logger.",
                ),
                _panel(
                    "WebSockets by kind",
                    [
                        (
                            f"sum by (server, kind) (fanfold_websockets_open{{{sel}}})",
                            "{{server}} {{kind}}",
                        )
                    ],
                ),
            ],
        ),
        (
            "Inside each process",
            [
                _panel(
                    "Event loop lag (p99) and stall",
                    [
                        (_quantile("0.99", "fanfold_event_loop_lag_seconds"), "{{server}} lag p99"),
                        (
                            f"max by (server) (fanfold_event_loop_stall_seconds{{{sel}}})",
                            "{{server}} stall",
                        ),
                    ],
                    unit="s",
                    description="How late the loop runs a timer (every table waits behind it), "
                    "and how long since it last ran (above a second: blocked).",
                ),
                _panel(
                    "Bots: queue, busy workers, wait (p99)",
                    [
                        (f"sum by (server) (fanfold_bot_queue{{{sel}}})", "{{server}} waiting"),
                        (
                            f"sum by (server) (fanfold_bot_workers_busy{{{sel}}})",
                            "{{server}} busy",
                        ),
                        (
                            _quantile("0.99", "fanfold_bot_queue_wait_seconds"),
                            "{{server}} wait p99 (s)",
                        ),
                    ],
                ),
                _panel(
                    "Store write (p50, p99)",
                    [
                        (_quantile("0.5", "fanfold_store_write_seconds"), "{{server}} p50"),
                        (_quantile("0.99", "fanfold_store_write_seconds"), "{{server}} p99"),
                    ],
                    unit="s",
                    description="One group commit of actions to the store.",
                ),
                _panel(
                    "Table hand-overs",
                    [
                        (
                            "sum by (server, direction) (rate(fanfold_table_handovers_total"
                            f"{{{sel}}}[$__rate_interval]))",
                            "{{server}} {{direction}}",
                        )
                    ],
                    unit="ops",
                    description="Tables taken from another process, and let go to one.",
                ),
                _panel(
                    "Tables live and owned",
                    [
                        (f"sum by (server) (fanfold_tables_live{{{sel}}})", "{{server}} live"),
                        (f"sum by (server) (fanfold_tables_owned{{{sel}}})", "{{server}} owned"),
                    ],
                ),
                _panel(
                    "Rate-limit counters held",
                    [(f"sum by (server) (fanfold_rate_counters{{{sel}}})", "{{server}}")],
                ),
                _panel(
                    "CPU (of one core)",
                    [
                        (
                            "sum by (server) (rate(process_cpu_seconds_total"
                            f"{{{sel}}}[$__rate_interval]))",
                            "{{server}}",
                        )
                    ],
                    unit="percentunit",
                ),
                _panel(
                    "Memory (resident)",
                    [(f"sum by (server) (process_resident_memory_bytes{{{sel}}})", "{{server}}")],
                    unit="bytes",
                ),
            ],
        ),
    ]


def dashboard(job: str = JOB) -> dict[str, Any]:
    """The Grafana dashboard of a site's processes (Prometheus's job ``job``)."""
    panels: list[dict[str, Any]] = []
    y = 0
    number = 1
    for title, row in _rows():
        panels.append(
            {
                "type": "row",
                "title": title,
                "id": number,
                "collapsed": False,
                "gridPos": {"h": 1, "w": 24, "x": 0, "y": y},
                "panels": [],
            }
        )
        number += 1
        y += 1
        x = 0
        height = 0
        for panel in row:
            grid = panel["gridPos"]
            if x + grid["w"] > 24:
                x, y, height = 0, y + height, 0
            grid.update({"x": x, "y": y})
            panel["id"] = number
            number += 1
            x += grid["w"]
            height = max(height, grid["h"])
            panels.append(panel)
        y += height
    return {
        "title": "fanfold",
        "uid": "fanfold-site",
        "description": "A fanfold site's play servers (fanfold deploy grafana).",
        "tags": ["fanfold"],
        "timezone": "browser",
        "schemaVersion": 39,
        "version": 1,
        "editable": True,
        "refresh": "30s",
        "time": {"from": "now-3h", "to": "now"},
        "templating": {
            "list": [
                {
                    "name": "datasource",
                    "label": "Prometheus",
                    "type": "datasource",
                    "query": "prometheus",
                },
                {
                    "name": "job",
                    "label": "Job",
                    "type": "custom",
                    "query": job,
                    "current": {"text": job, "value": job},
                    "options": [{"text": job, "value": job, "selected": True}],
                },
                {
                    "name": "server",
                    "label": "Process",
                    "type": "query",
                    "datasource": {"type": "prometheus", "uid": "${datasource}"},
                    "query": {"query": 'label_values(up{job="$job"}, server)', "refId": "server"},
                    "definition": 'label_values(up{job="$job"}, server)',
                    "refresh": 2,
                    "multi": True,
                    "includeAll": True,
                    "allValue": ".*",
                    "current": {"text": "All", "value": "$__all"},
                },
            ]
        },
        "panels": panels,
    }


def render_dashboard(job: str = JOB) -> str:
    """:func:`dashboard` as the JSON Grafana imports."""
    if not _JOB.fullmatch(job):
        raise ValueError(
            Said("--job %(job)s: letters, digits, '_' and '-', a letter first", job=repr(job))
        )
    return json.dumps(dashboard(job), indent=2) + "\n"


# ------------------------------------------------------------------ the commands

JobOption = Annotated[
    str, typer.Option(help="Prometheus's job of the processes (the rules and dashboard use it).")
]


def _write(out: Path, text: str) -> None:
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as error:
        refused(Said("cannot write %(path)s: %(why)s", path=error.filename, why=error.strerror), 1)


def _render_for_job(render: Callable[[str], str], job: str, out: Path | None) -> None:
    """A command's file drawn for ``job``: to standard output, or to ``out``; a job name the
    file cannot hold fails with its reason."""
    try:
        text = render(job)
    except ValueError as error:
        refused(error)
    if out is None:
        typer.echo(text, nl=False)
    else:
        _write(out, text)


@app.command()
def prometheus(
    processes: ProcessesOption,
    base_port: BasePortOption = 8000,
    health_base_port: HealthBasePortOption = None,
    server_address: ServerAddressOption = "127.0.0.1",
    server_name: ServerNameOption = "s",
    job: JobOption = JOB,
    scrape_interval: Annotated[
        str, typer.Option(help="How often each process is scraped and the rules evaluated.")
    ] = "15s",
    alertmanager: Annotated[
        list[str] | None,
        typer.Option(
            "--alertmanager",
            metavar="HOST:PORT",
            help="An Alertmanager told of the alerts (repeat it). Default: none, the alerts "
            "show in Prometheus only.",
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            help=f"Write the configuration to this file and the alert rules beside it "
            f"({RULES_NAME}). Default: print the configuration."
        ),
    ] = None,
) -> None:
    """Prometheus's configuration for N fanfold serve processes: each one's /metrics on its
    health port, labelled with its server name, and the alert rules."""
    group = ProcessGroup(processes, base_port, health_base_port, server_address, server_name)
    site = PrometheusSite(
        group,
        job=job,
        scrape_interval=scrape_interval,
        alertmanagers=tuple(alertmanager or ()),
        out=None if out is None else str(out),
    )
    try:
        text = render_prometheus(site)
        rules = render_rules(job)
    except ValueError as error:
        refused(error)
    if out is None:
        typer.echo(text, nl=False)
        return
    beside = out.resolve().parent / RULES_NAME
    _write(out, text)
    _write(beside, rules)
    wrote = Said("wrote %(out)s and its alert rules %(rules)s", out=out, rules=beside)
    error_console.print(worded(wrote), markup=False)


@app.command("alert-rules")
def alert_rules(
    job: JobOption = JOB,
    out: Annotated[Path | None, typer.Option(help="Write them to this file.")] = None,
) -> None:
    """Prometheus's alert rules for a fanfold site (promtool check rules FILE)."""
    _render_for_job(render_rules, job, out)


@app.command()
def grafana(
    job: JobOption = JOB,
    out: Annotated[Path | None, typer.Option(help="Write it to this file.")] = None,
) -> None:
    """A Grafana dashboard of a fanfold site's processes (JSON, to import)."""
    _render_for_job(render_dashboard, job, out)


__all__ = [
    "JOB",
    "RULES_NAME",
    "PrometheusSite",
    "dashboard",
    "render_dashboard",
    "render_prometheus",
    "render_rules",
]
