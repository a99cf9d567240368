"""The parts of `second-brain stats` that need no session: prices, the worker's version skew, counting."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sbcore.conductor import prices
from sbcore.conductor.stats import advisories, worker


def test_prices_match_the_longest_prefix_and_refuse_to_guess() -> None:
    assert prices.price("claude-opus-4-5-20251101") == (5.0, 25.0)
    assert prices.price("claude-opus-4-1") == (15.0, 75.0)
    assert prices.price("llama3:8b") is None
    assert prices.cost("llama3:8b", {"input_tokens": 10}) is None
    tokens = {"input_tokens": 1_000_000, "cache_read_tokens": 1_000_000, "cache_write_tokens": 1_000_000}
    assert prices.cost("claude-haiku-4-5", tokens) == 1.0 + 0.1 + 1.25


def test_version_skew_between_plugin_worker_and_package_is_named() -> None:
    status = {"state": "watching", "alive": True, "version": "0.3.0", "plugin_version": "0.2.0"}
    assert worker(status, installed="0.4.0")["skew"] == [
        "the worker runs 0.3.0, the installed package is 0.4.0: restart the session",
        "the plugin is 0.2.0, the installed package is 0.4.0: reinstall the plugin",
    ]
    assert worker({**status, "version": "0.4.0", "plugin_version": "0.4.0"}, installed="0.4.0")["skew"] == []
    assert worker(None, installed="0.4.0")["state"] == "absent"


def test_advisories_count_queued_delivered_and_every_removal_by_reason() -> None:
    records = [
        {"stage": "gate", "detector": "d", "action": "deliver_agent", "reason": "passed"},
        {"stage": "gate", "detector": "d", "action": "drop", "reason": "not_advise"},
        {"stage": "gate", "detector": "d", "action": "drop", "reason": "cooldown"},
        {"stage": "gate", "detector": "s", "action": "soak", "reason": "passed"},
        {"stage": "claim", "detector": "d", "action": "deliver_agent", "reason": "claimed"},
        {"stage": "sweep", "detector": "d", "action": "drop", "reason": "expired_queue"},
        {"stage": "outcome", "detector": "d", "action": None, "reason": None},
    ]
    counted = advisories(records)
    assert (counted["queued"], counted["delivered"], counted["soaked"], counted["silent"]) == (1, 1, 1, 1)
    assert counted["dropped_by_reason"] == {"cooldown": 1, "expired_queue": 1}
    assert counted["by_detector"]["d"]["dropped"] == {"cooldown": 1, "expired_queue": 1}


def test_rates_per_hour_are_refused_below_two_passes() -> None:
    from sbcore.conductor.stats import per_hour

    assert per_hour([{"at": 0.0}], delivered=1, cost=0.5) is None
    rows = [{"at": 1000.0}, {"at": 2800.0}, {"at": 8200.0}]  # two hours from the first pass to the last
    assert per_hour(rows, delivered=3, cost=0.5) == {
        "hours": 2.0,
        "delivered": 1.5,
        "observer_cost_usd": 0.25,
    }
    assert per_hour(rows, delivered=0, cost=None) == {
        "hours": 2.0,
        "delivered": 0.0,
        "observer_cost_usd": None,
    }


def test_rates_are_never_extrapolated_from_under_a_minute_of_passes() -> None:
    """Issue 26: three passes seconds apart once read as 3196.82 delivered per hour."""
    from sbcore.conductor.stats import per_hour

    assert per_hour([{"at": 0.0}, {"at": 3.0}, {"at": 59.0}], delivered=3, cost=0.1) is None
    assert per_hour([{"at": 0.0}, {"at": 60.0}], delivered=1, cost=None) == {
        "hours": 0.017,
        "delivered": 60.0,
        "observer_cost_usd": None,
    }


@pytest.mark.parametrize("command", ["stats", "why"])
def test_on_a_fresh_install_stats_and_why_say_nothing_was_observed_yet(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from sbcore.cli import main

    monkeypatch.delenv("CLAUDE_CODE_SESSION_ID", raising=False)
    data = tmp_path / "data"
    assert main([command, "--data", str(data)]) == 0
    out = capsys.readouterr().out
    assert "nothing observed yet" in out and str(data) in out
    assert main([command, "--data", str(data), "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["observed"] is False and document["data_dir"] == str(data)
