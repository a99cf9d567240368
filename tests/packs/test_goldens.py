"""The built-in pack's golden cases, and the golden case loader and runner they go through.

``test_builtin_golden`` is the whole of what a pack needs (see
docs/pack-authoring.md): the sbcore pytest plugin parametrizes ``golden_case``
with every file under goldens/builtin/ and snapshots each normalised decision.
"""

from __future__ import annotations

import pytest


@pytest.mark.sbcore_goldens("builtin")
def test_builtin_golden(golden_case, snapshot):
    golden_case.check(snapshot)
