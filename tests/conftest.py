"""Suite-wide isolation: no test reads or writes the real user's state.

Every test starts with the observer's data and configuration directories, and
Claude Code's config dir, pointed into its own temporary directory. Tests that
exercise the resolution order itself delete or override these variables.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import settings

# No timed assertions (these machines are shared and noisy): a property test's first example may also pay
# for compiling the patterns it reaches, so Hypothesis' per-example deadline is off for the whole suite.
settings.register_profile("sbcore", deadline=None)
settings.load_profile("sbcore")


@pytest.fixture(autouse=True)
def _private_state_dirs(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    home = tmp_path_factory.mktemp("state")
    monkeypatch.setenv("SBCORE_DATA_DIR", str(home / "data"))
    monkeypatch.setenv("SBCORE_CONFIG_DIR", str(home / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "xdg-data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "xdg-config"))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home / "claude"))
    monkeypatch.delenv("CLAUDE_PLUGIN_DATA", raising=False)
    yield


@pytest.fixture
def as_the_user(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test stands in for the user at their own terminal: trust may be granted directly.

    ``grant`` asks the same check ``second-brain trust`` makes (sbcore.config.user_act); the tests of that
    check run it for real (tests/trust/test_trust_command.py)."""
    monkeypatch.setattr("sbcore.config.user_act.refusal", lambda *args, **kwargs: None)
