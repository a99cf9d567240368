import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "ansible", "filter_plugins"))

from nginx_filters import worker_count  # noqa: E402


def test_one_worker_per_cpu():
    assert worker_count(4) == 4


def test_per_cpu_multiplier():
    assert worker_count(2, per_cpu=2) == 4


def test_string_fact():
    assert worker_count("3") == 3
