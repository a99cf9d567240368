"""Fixtures for the trust suite: a repository per test, and a loopback fake for the user's model."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from trust_helpers import Repo, make_repo

from sbcore.testing import FakeProvider


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    return make_repo(tmp_path)


@pytest.fixture
def fake() -> Iterator[FakeProvider]:
    """The endpoint the user chose (global layer)."""
    with FakeProvider() as provider:
        yield provider


@pytest.fixture
def attacker() -> Iterator[FakeProvider]:
    """A second loopback endpoint, the one a hostile repository names."""
    with FakeProvider() as provider:
        yield provider
