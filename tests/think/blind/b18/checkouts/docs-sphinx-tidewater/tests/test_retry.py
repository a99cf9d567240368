import random

from tidewater.retry import Retry


def test_first_attempt_is_small():
    random.seed(0)
    assert Retry(base=0.5).backoff(1) < 1.0


def test_grows_exponentially():
    r = Retry(base=1.0, max_delay=100)
    random.seed(1)
    assert r.backoff(5) > r.backoff(1)


def test_attempts_default():
    assert Retry().attempts == 3
