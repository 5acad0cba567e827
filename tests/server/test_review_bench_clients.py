"""The review benchmarks' load generator measures the server, not itself: a reader made while
the players' actions are in flight costs its event loop microseconds (one TLS context shared
by every client, not one loaded from the system's certificates per reader: 15 to 80 ms, read
as the server's delay by every action then waiting for its ``ok``); and each window of
``--interleave`` carries what the server's own histograms observed in it."""

from __future__ import annotations

import asyncio
import ssl
import time
from typing import Any

import pytest
from benchmarks import review_interleave, window_metrics
from benchmarks.review_impact import Reader
from benchmarks.server import SHARED_TLS, loopback_transport

EXPOSITION = """\
# HELP fanfold_store_write_seconds One group commit of actions to the store.
# TYPE fanfold_store_write_seconds histogram
fanfold_store_write_seconds_bucket{le="0.005"} 8.0
fanfold_store_write_seconds_bucket{le="0.01"} 9.0
fanfold_store_write_seconds_bucket{le="1.0"} 10.0
fanfold_store_write_seconds_bucket{le="+Inf"} 10.0
fanfold_store_write_seconds_count 10.0
fanfold_store_write_seconds_sum 0.05
fanfold_http_request_seconds_bucket{le="0.005",route="/a"} 1.0
fanfold_http_request_seconds_bucket{le="0.01",route="/a"} 2.0
fanfold_http_request_seconds_bucket{le="0.005",route="/b"} 3.0
fanfold_http_request_seconds_bucket{le="0.01",route="/b"} 3.0
fanfold_http_request_seconds_count{route="/a"} 2.0
fanfold_http_request_seconds_count{route="/b"} 4.0
fanfold_http_request_seconds_sum{route="/a"} 0.01
fanfold_http_request_seconds_sum{route="/b"} 0.03
fanfold_act_stage_seconds_bucket{le="0.001",stage="lock"} 1.0
fanfold_act_stage_seconds_bucket{le="0.005",stage="lock"} 2.0
fanfold_act_stage_seconds_count{stage="lock"} 2.0
fanfold_act_stage_seconds_sum{stage="lock"} 0.004
fanfold_act_stage_seconds_bucket{le="0.001",stage="tell"} 5.0
fanfold_act_stage_seconds_count{stage="tell"} 5.0
fanfold_act_stage_seconds_sum{stage="tell"} 0.002
fanfold_actions_total 12.0
"""


def _counting_contexts(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the TLS contexts made from now on (httpx makes each with this function)."""
    made: list[int] = []
    original = ssl.create_default_context

    def counted(*args: Any, **kwargs: Any) -> ssl.SSLContext:
        made.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(ssl, "create_default_context", counted)
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.delenv(name, raising=False)
    return made


def test_a_reader_is_made_without_a_tls_context_of_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made = _counting_contexts(monkeypatch)
    started = time.perf_counter()
    readers = [Reader("http://127.0.0.1:9", number) for number in range(20)]
    took = time.perf_counter() - started
    try:
        assert made == []  # before: one context, the system's certificates loaded, a reader
        assert took < 0.5  # 20 readers; before, 0.3 to 1.6 s of the generator's event loop
        assert len({reader.address for reader in readers}) == 20  # each its own address
    finally:

        async def close() -> None:
            for reader in readers:
                await reader.client.aclose()

        asyncio.run(close())


def test_every_loopback_transport_shares_one_context(monkeypatch: pytest.MonkeyPatch) -> None:
    made = _counting_contexts(monkeypatch)
    transports = [loopback_transport(f"127.2.0.{number}") for number in range(1, 6)]
    assert made == []
    assert len(transports) == 5
    assert isinstance(SHARED_TLS, ssl.SSLContext)


def test_the_servers_histograms_are_summed_over_their_labels() -> None:
    found = window_metrics.parse(EXPOSITION)
    store = found["fanfold_store_write_seconds"]
    assert (store.count, store.total) == (10.0, 0.05)
    assert store.buckets == {0.005: 8.0, 0.01: 9.0, 1.0: 10.0}  # +Inf is the count
    requests = found["fanfold_http_request_seconds"]
    assert requests.count == 6.0
    assert requests.total == pytest.approx(0.04)
    assert requests.buckets == {0.005: 4.0, 0.01: 5.0}
    assert found["fanfold_event_loop_lag_seconds"].count == 0  # watched, not exposed
    assert "fanfold_actions" not in found


def test_a_window_keeps_what_was_observed_between_its_opening_and_its_close() -> None:
    opened = window_metrics.parse(EXPOSITION)
    later = EXPOSITION.replace('le="0.005"} 8.0', 'le="0.005"} 9.0')
    later = later.replace('le="0.01"} 9.0', 'le="0.01"} 11.0')
    later = later.replace("seconds_count 10.0", "seconds_count 14.0")
    later = later.replace("seconds_sum 0.05", "seconds_sum 0.09")
    change = window_metrics.window_change(opened, window_metrics.parse(later))
    store = change["fanfold_store_write_seconds"]
    assert store.count == 4.0
    assert store.total == pytest.approx(0.04)
    assert store.above(0.005) == pytest.approx(0.75)  # 1 of the 4 at most 5 ms
    assert store.above(0.01) == pytest.approx(0.5)
    assert change["fanfold_http_request_seconds"].count == 0


def test_the_table_pools_each_kind_of_windows() -> None:
    change = window_metrics.window_change(
        window_metrics.parse(""), window_metrics.parse(EXPOSITION)
    )
    lines = window_metrics.table({"on": [change, change], "off": []})
    assert lines[0].startswith("| server's histogram | windows |")
    on = "| group commit (store's thread) | on | 20 | 5.00 | 100.00% | 20.00% | 10.00% | 0.00% |"
    assert f"{on} 1000 |" in lines
    off = "| group commit (store's thread) | off | 0 | nan | nan% | nan% | nan% | nan% |"
    assert f"{off} nan |" in lines


def test_a_watched_name_with_a_label_is_that_labels_series_only() -> None:
    found = window_metrics.parse(EXPOSITION)
    lock = found['fanfold_act_stage_seconds{stage="lock"}']
    assert (lock.count, lock.total) == (2.0, 0.004)
    assert lock.buckets == {0.001: 1.0, 0.005: 2.0}
    assert lock.bound(0.5) == 0.001
    assert lock.bound(0.99) == 0.005
    tell = found['fanfold_act_stage_seconds{stage="tell"}']
    assert (tell.count, tell.buckets) == (5.0, {0.001: 5.0})
    assert found['fanfold_act_stage_seconds{stage="rules"}'].count == 0  # not exposed
    with pytest.raises(ValueError, match="at most one label"):
        window_metrics.parse(EXPOSITION, ['x{a="1",b="2"}'])


def test_the_generators_own_stall_is_measured() -> None:
    lags = review_interleave.Stamped()

    async def stall() -> None:
        stop = asyncio.Event()
        probe = asyncio.create_task(review_interleave.generator_lag(stop, lags))
        await asyncio.sleep(0.05)
        time.sleep(0.06)  # the loop held, as a reader's TLS context held it
        await asyncio.sleep(0.05)
        stop.set()
        await probe

    asyncio.run(stall())
    assert max(lags) >= 0.05
    assert len(lags.starts) == len(lags)
