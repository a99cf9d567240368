"""Fixtures for the worker tests: a private world per test, its processes killed afterwards."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from worker_helpers import World


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    made = World(tmp_path)
    try:
        yield made
    finally:
        made.cleanup()
