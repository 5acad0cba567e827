"""A review step leaves the machine's last free core to live play
(:mod:`fanfold.server.bots.spare_core`): while live play goes on, it pauses at its pause points
while the machine's other running tasks fill every core but its own, within the step's
allowance; never on one core, where the count cannot be read, or where an operator turned it
off; and only in the worker process, while live play goes on."""

from __future__ import annotations

import asyncio
import ctypes
import subprocess
import sys
import time
from concurrent.futures import Future
from pathlib import Path

import pytest

from fanfold.core.pauses import pause_point, pausing
from fanfold.server.bots import LiveWork, ReviewWorker, spare_core
from fanfold.server.bots.spare_core import SPARE_ENVIRONMENT, SpareCore, running_now, spare_wanted
from fanfold.server.bots.step_pauses import StepPauses, paused_step


def _loadavg(tmp_path: Path, running: int) -> str:
    path = tmp_path / "loadavg"
    path.write_text(f"0.52 0.61 0.70 {running}/312 4242\n")
    return str(path)


def three_pause_points() -> int:
    """A step of four units of work with a pause point between each two."""
    for _ in range(3):
        pause_point()
    return 3


def test_the_step_pauses_once_the_others_fill_every_core_but_its_own(tmp_path: Path) -> None:
    # the count includes the step's own task: on two cores, one other is enough to pause
    assert SpareCore(_loadavg(tmp_path, 2), count=2)() is True
    assert SpareCore(_loadavg(tmp_path, 1), count=2)() is False
    # on four cores, three others
    assert SpareCore(_loadavg(tmp_path, 3), count=4)() is False
    assert SpareCore(_loadavg(tmp_path, 4), count=4)() is True
    assert SpareCore(_loadavg(tmp_path, 9), count=4)() is True


def test_a_count_that_cannot_be_read_never_holds_a_step(tmp_path: Path) -> None:
    broken = tmp_path / "loadavg"
    broken.write_text("0.52 0.61\n")
    assert SpareCore(str(broken), count=2)() is False
    with pytest.raises(OSError, match="no running tasks"):
        running_now(str(broken))
    assert running_now() >= 1  # the kernel's own count: this test's task at least


def test_the_count_is_read_afresh_at_every_pause_point(tmp_path: Path) -> None:
    path = _loadavg(tmp_path, 2)
    spare = SpareCore(path, count=2)
    assert spare() is True
    Path(path).write_text("0.52 0.61 0.70 1/312 4242\n")
    assert spare() is False
    spare.close()
    spare.close()  # closing twice is harmless


def test_no_spare_core_pause_where_turned_off_or_on_one_core(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(spare_core, "cores", lambda: 2)
    monkeypatch.delenv(SPARE_ENVIRONMENT, raising=False)
    assert spare_wanted() is (Path(spare_core.LOADAVG).exists())
    monkeypatch.setenv(SPARE_ENVIRONMENT, "0")
    assert spare_wanted() is False
    monkeypatch.setenv(SPARE_ENVIRONMENT, "1")
    monkeypatch.setattr(spare_core, "cores", lambda: 1)
    assert spare_wanted() is False


def test_a_pause_waits_while_the_cores_are_taken_then_goes_on() -> None:
    answers = iter([True, True, True, False])
    live = ctypes.c_int(0)  # no live work in the server: only the cores hold the step
    pauses = StepPauses(live, 10.0, spare=lambda: next(answers, False))
    with pausing(pauses):
        assert three_pause_points() == 3
    assert pauses.pauses == 1  # the first pause point waited; the others found a core free
    assert 0.0 < pauses.seconds < 1.0
    assert not pauses.to_limit


def test_cores_that_stay_taken_hold_a_step_at_most_its_allowance() -> None:
    live = ctypes.c_int(0)
    pauses = StepPauses(live, 0.2, spare=lambda: True)
    started = time.monotonic()
    with pausing(pauses):
        assert three_pause_points() == 3
    assert 0.2 <= time.monotonic() - started < 2.0
    assert pauses.to_limit
    assert pauses.seconds == pytest.approx(0.2, abs=0.05)


def test_a_step_beside_programs_filling_every_other_core_pauses_for_them() -> None:
    """The kernel's real count: as many spinning programs as the cores (all but the step's
    filled, whatever else runs); with the rule off, the same step does not wait."""
    spinning = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"])
        for _ in range(spare_core.cores())
    ]
    try:
        time.sleep(0.3)  # the programs are running
        live = ctypes.c_int(0)
        _, waited, points, to_limit = paused_step(three_pause_points, (), 0.3, live, None, True)
        assert (points, to_limit) == (1, True)
        assert waited == pytest.approx(0.3, abs=0.1)
        _, waited, points, to_limit = paused_step(three_pause_points, (), 0.3, live, None, False)
        assert (waited, points, to_limit) == (0.0, 0, False)
    finally:
        for program in spinning:
            program.kill()
            program.wait()


def test_only_a_worker_process_with_live_work_to_yield_to_leaves_a_core(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(SPARE_ENVIRONMENT, raising=False)
    wanted = spare_wanted()
    assert ReviewWorker(processes=True, live=LiveWork()).spare is wanted
    assert ReviewWorker(processes=True, live=None).spare is False
    assert ReviewWorker(processes=False, live=LiveWork()).spare is False  # tests' threads
    monkeypatch.setenv(SPARE_ENVIRONMENT, "0")
    assert ReviewWorker(processes=True, live=LiveWork()).spare is False


def test_a_step_leaves_a_core_only_while_live_play_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    live = LiveWork()
    worker = ReviewWorker(processes=True, live=live, hold=1.0)
    worker.spare = True
    asked: list[object] = []

    def submit(fn: object, *args: object) -> Future[tuple[str, float, int, bool]]:
        asked.append(args[-1])  # paused_step's spare
        future: Future[tuple[str, float, int, bool]] = Future()
        future.set_result(("done", 0.0, 0, False))
        return future

    monkeypatch.setattr(worker, "_submit", submit)

    async def main() -> None:
        answered: list[object] = [await worker.run(three_pause_points)]  # no live play yet
        live.begin()
        live.end()  # live play now: within the last ten seconds
        answered.append(await worker.run(three_pause_points))
        assert answered == ["done", "done"]  # the submitted future's answers

    asyncio.run(main())
    assert asked == [False, True]
