import pytest

from gridstats.summary import trimmed_mean


def test_no_trim_is_mean():
    assert trimmed_mean([1, 2, 3], 0.0) == 2.0


def test_bad_proportion():
    with pytest.raises(ValueError):
        trimmed_mean([1, 2, 3], 0.5)
