"""``benchmarks/review.py --impact --interleave S --save FILE`` keeps a run's samples and
``--pool FILE ...`` prints the verdict over the pairs of kept runs of one tree: the pooled
change, each interval drawn within each run, and a refusal in a sentence for a file that is not
a kept run or for runs of different trees."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest
from benchmarks import review, review_impact, review_interleave, review_pool


def _run(on_tail: float, pairs: int = 4) -> review_interleave.Interleaved:
    """A run whose off, A and B windows' tails are 10 ms and whose on windows' are ``on_tail``."""
    windows: list[review_interleave.Window] = []
    acts: dict[tuple[int, str], list[float]] = {}
    for pair in range(pairs):
        kinds = ("on", "off") if pair % 2 == 0 else ("A", "B")
        for number, kind in enumerate(kinds):
            begin = pair * 10.0 + number * 5
            windows.append(review_interleave.Window(pair, kind, begin, begin + 5, 0.5, 0.1))
            tail = on_tail if kind == "on" else 0.010
            acts[(pair, kind)] = [0.005] * 99 + [tail]
    return review_interleave.Interleaved(windows, acts, acts, review_impact.Reviewing(), [])


def _keep(path: Path, run: review_interleave.Interleaved, tree: str) -> None:
    review_pool.save(path, run, {"started": "2026-12-02 06:00", "load": "0.3-0.5"})
    kept = json.loads(path.read_text())
    kept["tree"] = tree
    path.write_text(json.dumps(kept))


def test_a_kept_run_reads_back_as_its_samples(tmp_path: Path) -> None:
    run = _run(0.011)
    review_pool.save(tmp_path / "run.json", run, {"started": "x"})
    kept = review_pool.load(tmp_path / "run.json")
    assert kept["started"] == "x"
    assert kept["tree"]  # the commit measured (or "unknown" outside a checkout)
    found = review_pool.pooled([kept], "acts")
    assert found == {((0, pair), kind): values for (pair, kind), values in run.acts.items()}


def test_pooled_runs_give_the_change_of_their_samples_with_an_interval_within_each_run(
    tmp_path: Path,
) -> None:
    runs = [_run(0.011), _run(0.013)]
    found: review_pool.Found = {}
    for number, run in enumerate(runs):
        found.update({((number, p), k): v for (p, k), v in run.acts.items()})
    change = review_pool.stratified_change(found, ("on", "off"), random.Random(1), 200)
    assert change.count == (400, 400)
    # the pooled on windows' p99 (nearest rank over 400 samples) against the off windows' 10 ms
    ordered = sorted(v for (_, k), vs in found.items() if k == "on" for v in vs)
    assert change.change == pytest.approx((ordered[396] / 0.010 - 1) * 100)
    # each run keeps its two test pairs in every resample: its share of the tail never changes
    assert change.low == pytest.approx(change.change)
    assert change.high == pytest.approx(change.change)
    control = review_pool.stratified_change(found, ("A", "B"), random.Random(1), 200)
    assert control.change == pytest.approx(0.0)
    with pytest.raises(ValueError, match="no pair of windows holds samples of both"):
        review_pool.stratified_change(found, ("B", "C"), random.Random(1))


def test_the_pool_prints_each_run_and_the_pooled_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _keep(tmp_path / "a.json", _run(0.011), "abc")
    _keep(tmp_path / "b.json", _run(0.011), "abc")
    review.main(["--pool", str(tmp_path / "a.json"), str(tmp_path / "b.json")])
    out = capsys.readouterr().out
    assert "2 runs pooled, tree abc" in out
    assert "| 1 (a.json) | 2026-12-02 06:00 | 4 | 0.3-0.5 | 10.0, 10.0 |" in out
    assert "| act-to-ok: reviews on vs off | 400, 400 | 10.0 → 11.0 | +10% | +10% to +10% |" in out
    assert "| bot reply: A/A control, A vs B | 400, 400 | 10.0 → 10.0 | +0% |" in out


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("not json", "not a kept run (not JSON"),
        ('{"version": 0}', "not a kept run of version 1"),
        ('{"version": 1, "acts": [[0, "on", ["x"]]], "bots": []}', "acts are not samples"),
    ],
)
def test_a_file_that_is_not_a_kept_run_is_refused_in_a_sentence(
    tmp_path: Path, text: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "bad.json").write_text(text)
    with pytest.raises(SystemExit) as stopped:
        review.main(["--pool", str(tmp_path / "bad.json")])
    assert stopped.value.code == 2
    assert said in capsys.readouterr().err


def test_runs_of_different_trees_are_pooled_only_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _keep(tmp_path / "a.json", _run(0.011), "abc")
    _keep(tmp_path / "b.json", _run(0.012), "def")
    _keep(tmp_path / "c.json", _run(0.012), "abc+changes")
    for second in ("b.json", "c.json"):
        with pytest.raises(SystemExit):
            review.main(["--pool", str(tmp_path / "a.json"), str(tmp_path / second)])
        assert "made at one commit with no change beside it" in capsys.readouterr().err
    review.main(["--pool", str(tmp_path / "a.json"), str(tmp_path / "b.json"), "--pool-any"])
    assert "2 runs pooled, tree abc, def" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (["--impact", "--save", "x.json"], "--save goes with --interleave"),
        (["--pool-any"], "--pool-any goes with --pool"),
    ],
)
def test_bad_pool_options_are_refused_with_a_message(
    given: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        review.main(given)
    assert stopped.value.code == 2
    assert said in capsys.readouterr().err


def test_an_interleaved_run_with_save_keeps_its_samples(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    run = _run(0.012)

    async def interleaved(*_: object, **__: object) -> review_interleave.Interleaved:
        return run

    class Server:
        pid = 1

        def kill(self) -> None:
            pass

        def wait(self) -> None:
            pass

    monkeypatch.setattr(review_interleave, "interleaved_run", interleaved)
    monkeypatch.setattr(review_interleave, "start_server", lambda *_: Server())
    kept = tmp_path / "run.json"
    given = ["--impact", "--interleave", "5", "--seconds", "40", "--played", "--save", str(kept)]
    review.main(given)
    assert f"samples kept in {kept}" in capsys.readouterr().out
    loaded = review_pool.load(kept)
    assert loaded["played"] is True
    assert loaded["window"] == 5.0
    assert review_pool.pooled([loaded], "bots") == {
        ((0, pair), kind): values for (pair, kind), values in run.bots.items()
    }


def test_the_tree_measured_is_the_commit_with_changes_outside_the_docs_said(
    tmp_path: Path,
) -> None:
    def git(*given: str) -> None:
        subprocess.run(["git", *given], cwd=tmp_path, check=True, capture_output=True)

    git("init", "-q")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text("a\n")
    (tmp_path / "server.py").write_text("a = 1\n")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "first")
    clean = review_pool.tree(tmp_path)
    assert len(clean) == 12
    assert "+" not in clean
    (tmp_path / "docs" / "guide.md").write_text("b\n")
    (tmp_path / "notes.txt").write_text("untracked\n")
    assert review_pool.tree(tmp_path) == clean
    (tmp_path / "server.py").write_text("a = 2\n")
    assert review_pool.tree(tmp_path) == clean + "+changes"
    assert review_pool.tree(tmp_path / "nowhere") == "unknown"
