from datetime import date

from bookings.pricing import nightly_rate


def test_weekday_rate_is_base():
    assert nightly_rate(base=100, night=date(2026, 4, 7)) == 100
