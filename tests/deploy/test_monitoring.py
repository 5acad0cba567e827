"""What watches a site (``fanfold deploy prometheus``, ``alert-rules``, ``grafana``): the
configuration and the rules pass ``promtool check config`` and ``promtool check rules`` for one
to three processes, the rules' own tests pass (``promtool test rules``), every expression of
the rules and the dashboard parses and names only series a process exposes, and the shipped
files (``deploy/prometheus``, ``deploy/grafana``) are the renders of the commands the guide
gives."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from fanfold.cli.deploy_monitoring import dashboard, render_rules
from fanfold.server.metrics import Metrics
from tests.deploy.support import DEPLOY, fanfold, run, tool

#: The shipped renders and the commands that make them (docs/deploy.md, "Watching it").
SHIPPED = {
    "prometheus/prometheus.yml": (
        "deploy",
        "prometheus",
        *("--processes", "3", "--base-port", "8001", "--health-base-port", "9001"),
        *("--alertmanager", "127.0.0.1:9093"),
    ),
    "prometheus/fanfold-alerts.yml": ("deploy", "alert-rules"),
    "grafana/fanfold-dashboard.json": ("deploy", "grafana"),
}


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_shipped_files_are_the_renders(name: str) -> None:
    rendered = fanfold(*SHIPPED[name])
    assert rendered.exit_code == 0, rendered.output
    assert (DEPLOY / name).read_text() == rendered.output, (
        f"deploy/{name} is out of date: python -m fanfold {' '.join(SHIPPED[name])} > deploy/{name}"
    )


@pytest.mark.parametrize("processes", [1, 2, 3])
def test_promtool_checks_the_configuration_and_rules(tmp_path: Path, processes: int) -> None:
    promtool = tool("promtool", "prometheus")
    config = tmp_path / "prometheus.yml"
    made = fanfold(
        *("deploy", "prometheus", "--processes", str(processes), "--base-port", "8001"),
        *("--alertmanager", "127.0.0.1:9093", "--out", str(config)),
    )
    assert made.exit_code == 0, made.output
    targets = re.findall(
        r'- targets: \["([^"]+)"\]\n\s+labels:\n\s+server: (\S+)', config.read_text()
    )
    assert targets == [(f"127.0.0.1:{9001 + n}", f"s{n + 1}") for n in range(processes)]
    checked = run(promtool, "check", "config", str(config))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "1 rule files found" in checked.stdout
    rules = run(promtool, "check", "rules", str(tmp_path / "fanfold-alerts.yml"))
    assert rules.returncode == 0, rules.stdout + rules.stderr


def test_the_rules_own_tests_pass() -> None:
    promtool = tool("promtool", "prometheus")
    tested = run(promtool, "test", "rules", "fanfold-alerts-test.yml", cwd=DEPLOY / "prometheus")
    assert tested.returncode == 0, tested.stdout + tested.stderr


def test_the_rules_follow_the_job(tmp_path: Path) -> None:
    promtool = tool("promtool", "prometheus")
    rules = tmp_path / "rules.yml"
    rules.write_text(render_rules("games"))
    assert 'job="fanfold"' not in rules.read_text()
    assert 'job="games"' in rules.read_text()
    assert run(promtool, "check", "rules", str(rules)).returncode == 0


#: Series every process exposes, by the names a query uses.
def _exposed() -> set[str]:
    text = Metrics().exposition().decode()
    names = set(re.findall(r"^# TYPE (\S+) ", text, flags=re.MULTILINE))
    names |= {match.split("{")[0] for match in re.findall(r"^([a-z_]+)", text, re.MULTILINE)}
    return names | {"up"}


def _series(expression: str) -> set[str]:
    """The series names an expression reads."""
    found = set(re.findall(r"\b((?:fanfold|process)_[a-z_]+|up)\b", expression))
    return {name for name in found if not name.startswith("fanfold_deploy")}


def rule_expressions(text: str) -> list[str]:
    """The ``expr`` of each rule of a rules file as fanfold writes it: on its line, or folded
    (``>-``) on the lines below, more indented."""
    found: list[str] = []
    lines = text.splitlines()
    for number, line in enumerate(lines):
        key = re.match(r"^(\s*)expr: (.*)$", line)
        if key is None:
            continue
        if key[2] != ">-":
            found.append(key[2])
            continue
        folded: list[str] = []
        for below in lines[number + 1 :]:
            if len(below) - len(below.lstrip()) <= len(key[1]):
                break
            folded.append(below.strip())
        found.append(" ".join(folded))
    return found


def _expressions() -> list[str]:
    expressions = rule_expressions(render_rules())
    assert len(expressions) == 12
    board = dashboard()
    expressions += [
        target["expr"] for panel in board["panels"] for target in panel.get("targets", [])
    ]
    return expressions


def test_rules_and_dashboard_read_only_what_a_process_exposes() -> None:
    exposed = _exposed()
    expressions = _expressions()
    assert len(expressions) > 25
    for expression in expressions:
        unknown = _series(expression) - exposed
        assert not unknown, (unknown, expression)


def test_every_dashboard_expression_parses(tmp_path: Path) -> None:
    """Grafana's variables filled in, each of the dashboard's queries is a recording rule that
    ``promtool check rules`` parses."""
    promtool = tool("promtool", "prometheus")
    board = dashboard()
    records: list[dict[str, str]] = []
    for panel in board["panels"]:
        for target in panel.get("targets", []):
            expression = (
                target["expr"]
                .replace("$__rate_interval", "5m")
                .replace("$job", "fanfold")
                .replace("$server", ".*")
            )
            records.append({"record": f"fanfold:panel{len(records)}", "expr": expression})
    rules = tmp_path / "panels.yml"  # JSON is YAML
    rules.write_text(json.dumps({"groups": [{"name": "panels", "rules": records}]}))
    checked = run(promtool, "check", "rules", str(rules))
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_dashboard() -> None:
    board = json.loads((DEPLOY / "grafana" / "fanfold-dashboard.json").read_text())
    ids = [panel["id"] for panel in board["panels"]]
    assert len(ids) == len(set(ids))
    titles = " ".join(panel["title"] for panel in board["panels"])
    for wanted in (
        "Action to ok",
        "Event loop",
        "Bots",
        "WebSockets by kind",
        "hand-overs",
        "CPU",
        "Memory",
        "Requests by route",
    ):
        assert wanted.lower() in titles.lower(), wanted
    for panel in board["panels"]:
        grid = panel["gridPos"]
        assert grid["x"] + grid["w"] <= 24, panel["title"]
    variables = {variable["name"] for variable in board["templating"]["list"]}
    assert variables == {"datasource", "job", "server"}


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (("--processes", "0"), "--processes must be 1 to 64"),
        (("--processes", "2", "--job", "1bad"), "--job '1bad'"),
        (("--processes", "2", "--scrape-interval", "often"), "--scrape-interval 'often'"),
        (("--processes", "2", "--alertmanager", "nowhere"), "--alertmanager 'nowhere'"),
        (("--processes", "2", "--base-port", "8001", "--health-base-port", "8002"), "overlap"),
    ],
)
def test_refused_with_a_sentence(arguments: tuple[str, ...], said: str) -> None:
    refused = fanfold("deploy", "prometheus", *arguments)
    assert refused.exit_code == 2
    assert said in refused.output
