"""The review feed's shared messages (:meth:`fanfold.server.review_feed.ReviewFeed.shared`):
made once for every watcher asking with the same key, made again for another key, forgotten at
the table's next store, when its review ends and when its last watcher leaves."""

from __future__ import annotations

from fanfold.server.review_feed import Made, ReviewFeed


class Maker:
    """Makes a numbered message for each call."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> Made:
        self.calls += 1
        return {"n": self.calls}, f"text {self.calls}"


def test_a_message_is_made_once_per_key_until_the_next_store() -> None:
    feed, make = ReviewFeed(), Maker()
    with feed.watch("t") as first, feed.watch("t") as second:
        feed.stored("t", [{"number": 1}])
        assert first.get_nowait() == second.get_nowait() == [{"number": 1}]
        assert feed.shared("t", (0, 1), make) == ({"n": 1}, "text 1")
        assert feed.shared("t", (0, 1), make) == ({"n": 1}, "text 1")
        assert feed.shared("t", (1, 1), make) == ({"n": 2}, "text 2")  # another key
        assert feed.shared("u", (0, 1), make) == ({"n": 3}, "text 3")  # a table not watched
        assert "u" not in feed._made
        feed.stored("t", [{"number": 2}])
        assert feed.shared("t", (0, 1), make) == ({"n": 4}, "text 4")  # made again
        feed.ended("t")
        assert first.get_nowait() == [{"number": 2}]
        assert first.get_nowait() is None
        assert feed.shared("t", (0, 1), make)[1] == "text 5"
    assert make.calls == 5
    assert "t" not in feed._made  # its last watcher left: nothing kept


def test_a_store_nobody_watches_keeps_nothing() -> None:
    feed = ReviewFeed()
    feed.stored("t", [{"number": 1}])
    assert feed.watching("t") == 0
    assert not feed._made
