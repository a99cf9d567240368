"""The acme pack's golden cases, run by the sbcore pytest plugin against the installed pack."""

from __future__ import annotations

import pytest


@pytest.mark.sbcore_goldens("acme")
def test_golden(golden_case, snapshot):
    golden_case.check(snapshot)
