"""The stages of an action in the server, timed in ``fanfold_act_stage_seconds``: a person's
action's wait for its table's lock, the rules, its store and the telling of its watchers; any
action's wait for its group commit and that commit; a socket message's parsing."""

from __future__ import annotations

from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

from fanfold.server.metrics import ACT_STAGES
from tests.server.support import act, hello, look, open_table, receive_until, serve


def _stages(text: str) -> dict[str, tuple[float, float]]:
    """Each stage's count and sum of seconds."""
    found: dict[str, list[float]] = {}
    for family in text_string_to_metric_families(text):
        if family.name != "fanfold_act_stage_seconds":
            continue
        for sample in family.samples:
            stage = sample.labels["stage"]
            pair = found.setdefault(stage, [0.0, 0.0])
            if sample.name.endswith("_count"):
                pair[0] = sample.value
            elif sample.name.endswith("_sum"):
                pair[1] = sample.value
    return {stage: (count, total) for stage, (count, total) in found.items()}


def test_every_stage_is_exposed_before_any_action(tmp_path: Path) -> None:
    with serve(tmp_path) as client:
        stages = _stages(client.get("/metrics").text)
    assert set(stages) == set(ACT_STAGES)
    assert all(count == 0 for count, _ in stages.values())


def test_a_persons_actions_are_timed_stage_by_stage(tmp_path: Path) -> None:
    with serve(tmp_path) as client:
        created = open_table(client, game="morris", seats=["you", "you"], seed=3)
        table, token = created["table"], created["token"]
        for version in range(3):
            action = look(client, table, token)["legal"][0]
            assert act(client, table, token, action, version=version).status_code == 200
        stages = _stages(client.get("/metrics").text)
        whole = next(
            sample.value
            for family in text_string_to_metric_families(client.get("/metrics").text)
            for sample in family.samples
            if sample.name == "fanfold_act_seconds_sum"
        )
    for stage in ("lock", "rules", "store", "queue", "commit", "tell"):
        count, total = stages[stage]
        assert count == 3, stage
        assert total > 0, stage
    assert stages["parse"][0] == 0  # HTTP actions: no socket message parsed
    # The stages of a person's action lie inside its whole time in the server.
    parts = sum(stages[stage][1] for stage in ("lock", "rules", "store", "tell"))
    assert parts <= whole + 1e-6
    # A row's wait and its commit are its store's time, less the hand-back to its table.
    assert stages["queue"][1] + stages["commit"][1] <= stages["store"][1] + 1e-6


def test_a_socket_action_times_its_parsing_and_a_bots_row_its_commit(tmp_path: Path) -> None:
    with serve(tmp_path) as client:
        seats = ["you", "random", "random", "random"]
        created = open_table(client, game="fantan", seats=seats, seed=5)
        with client.websocket_connect(f"/ws/tables/{created['table']}") as socket:
            before = hello(socket, created["token"])
            socket.send_json(
                {"type": "act", "version": before["version"], "action": before["legal"][0]}
            )
            receive_until(
                socket,
                lambda m: m["type"] == "state" and m["version"] > before["version"] + 1,
            )
        stages = _stages(client.get("/metrics").text)
    assert stages["parse"][0] == 1
    assert stages["lock"][0] == 1  # one person's action
    assert stages["commit"][0] >= 2  # the bot's row is committed too
    assert stages["queue"][0] == stages["commit"][0]
