"""Pause points (:mod:`fanfold.core.pauses`): a pause set by :func:`pausing` is called at each
:func:`pause_point` of its own thread only, and no longer after its block; a record's replay
reaches one every :data:`~fanfold.core.records.REPLAY_PAUSE_EVERY` actions."""

from __future__ import annotations

import threading

from fanfold.core.pauses import pause_point, pausing
from fanfold.core.records import REPLAY_PAUSE_EVERY
from fanfold.core.registry import get_game
from fanfold.play.setup import play_game


def test_a_pause_is_called_in_its_block_and_its_thread_only() -> None:
    calls: list[str] = []
    elsewhere: list[str] = []

    def other_thread() -> None:
        pause_point()  # another thread: not paused by this one's block
        elsewhere.append("ran")

    pause_point()  # none set: nothing happens
    with pausing(lambda: calls.append(threading.current_thread().name)):
        pause_point()
        thread = threading.Thread(target=other_thread, name="bot")
        thread.start()
        thread.join()
        pause_point()
        with pausing(None):  # an inner block may turn it off
            pause_point()
    pause_point()
    assert calls == [threading.current_thread().name] * 2
    assert elsewhere == ["ran"]


def test_a_replay_reaches_a_pause_point_every_few_actions_and_is_the_same() -> None:
    record = play_game(get_game("fano"), None, ["random", "random"], seed=1, agent_seed=1).finish()
    plain = record.states()
    calls: list[int] = []
    with pausing(lambda: calls.append(1)):
        paused = record.states()
    assert len(record.actions) >= 2 * REPLAY_PAUSE_EVERY
    assert len(calls) == len(record.actions) // REPLAY_PAUSE_EVERY
    assert paused == plain
