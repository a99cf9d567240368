from pyhdrhist import Histogram


def test_record_and_percentile():
    h = Histogram(1, 3_600_000, 3)
    for v in range(1, 101):
        h.record(v)
    assert h.value_at_percentile(50) == 50
