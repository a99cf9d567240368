from datetime import datetime, time, timezone

from scheduler.window import Window


def test_simple_window():
    w = Window(time(1, 0), time(3, 0))
    assert w.contains(datetime(2026, 1, 5, 2, 0, tzinfo=timezone.utc))


def test_overnight_window():
    w = Window(time(23, 0), time(2, 0))
    assert w.contains(datetime(2026, 1, 5, 0, 30, tzinfo=timezone.utc))
    assert not w.contains(datetime(2026, 1, 5, 12, 0, tzinfo=timezone.utc))
