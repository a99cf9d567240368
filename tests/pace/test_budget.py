"""Token budgets per task and per rolling hour, in simulated time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sbcore.config import load_config
from sbcore.pace import Budget, BudgetSettings, RollingWindow, SimulatedClock


def make(per_task: int = 1000, per_hour: int = 100, **kwargs: int) -> tuple[Budget, SimulatedClock]:
    clock = SimulatedClock()
    return Budget(BudgetSettings(tokens_per_task=per_task, tokens_per_hour=per_hour), clock, **kwargs), clock


# -- the rolling window -------------------------------------------------------------------------


def test_rolling_window_drops_an_amount_exactly_one_span_after_it_was_added() -> None:
    window = RollingWindow(60)
    window.add(10, 5)
    window.add(20, 7)
    assert window.total(69.9) == 12
    assert window.total(70) == 7
    assert window.total(80) == 0


def test_rolling_window_ignores_zero_amounts_and_rejects_a_bad_span() -> None:
    window = RollingWindow(60)
    window.add(0, 0)
    assert window.next_expiry(0) is None
    with pytest.raises(ValueError, match="positive span"):
        RollingWindow(0)


def test_below_at_walks_the_expiries_until_the_total_fits() -> None:
    window = RollingWindow(100)
    window.add(0, 30)
    window.add(10, 30)
    window.add(20, 30)
    assert window.below_at(100, 50) == 50  # 90 < 100 already
    assert window.below_at(90, 50) == 100  # 90 is not below 90; 60 is, once the first 30 leaves at 100
    assert window.below_at(31, 50) == 110
    assert window.below_at(1, 50) == 120
    assert window.below_at(0, 50) is None


# -- charging and headroom ----------------------------------------------------------------------


def test_charges_count_against_both_ceilings() -> None:
    budget, clock = make(per_task=1000, per_hour=100)
    budget.charge(40)
    clock.advance(10)
    budget.charge(25)
    assert budget.task_used == 65
    assert budget.hour_used() == 65
    headroom = budget.headroom()
    assert (headroom.task, headroom.hour) == (935, 35)
    assert headroom.hour_fraction == pytest.approx(0.35)
    assert budget.allows()


def test_negative_charges_and_settings_are_refused() -> None:
    budget, _ = make()
    with pytest.raises(ValueError, match="negative"):
        budget.charge(-1)
    with pytest.raises(ValueError, match=r"budget\.tokens_per_hour"):
        BudgetSettings(tokens_per_hour=-5)
    with pytest.raises(ValueError, match="task_used"):
        make(task_used=-1)


def test_hourly_exhaustion_reports_when_it_frees_up() -> None:
    budget, clock = make(per_task=10_000, per_hour=100)
    budget.charge(60)  # t=0
    clock.set(600)
    budget.charge(50)  # t=600: 110 in the hour
    assert not budget.allows()
    exhaustion = budget.exhausted()
    assert exhaustion is not None
    assert exhaustion.scope == "hour"
    assert (exhaustion.used, exhaustion.limit) == (110, 100)
    assert exhaustion.recovers_at == 3600  # the 60 at t=0 leaves; 50 < 100
    assert "110 of 100 tokens in the last hour" in str(exhaustion)


def test_hourly_budget_recovers_once_the_window_slides() -> None:
    budget, clock = make(per_task=10_000, per_hour=100)
    budget.charge(100)
    assert not budget.allows()
    clock.set(3599.5)
    assert not budget.allows()
    clock.set(3600)
    assert budget.allows()
    assert budget.hour_used() == 0
    assert budget.task_used == 100  # the task total never slides


def test_task_exhaustion_never_recovers_and_is_reported_first() -> None:
    budget, clock = make(per_task=150, per_hour=100)
    budget.charge(100)
    clock.set(4000)
    budget.charge(60)
    exhaustion = budget.exhausted()
    assert exhaustion is not None
    assert exhaustion.scope == "task"
    assert exhaustion.recovers_at is None
    assert str(exhaustion) == "task budget spent: 160 of 150 tokens"
    clock.set(100_000)
    assert not budget.allows()
    assert budget.headroom().task == 0


def test_a_resumed_task_starts_from_what_it_already_spent() -> None:
    budget, _ = make(per_task=1000, task_used=990)
    assert budget.headroom().task == 10
    budget.charge(10)
    assert not budget.allows()


def test_zero_ceilings_keep_the_observer_silent() -> None:
    taskless = Budget(BudgetSettings(tokens_per_task=0), SimulatedClock())
    assert not taskless.allows()
    hourless = Budget(BudgetSettings(tokens_per_hour=0), SimulatedClock())
    exhaustion = hourless.exhausted()
    assert exhaustion is not None
    assert (exhaustion.scope, exhaustion.recovers_at) == ("hour", None)
    assert hourless.headroom().hour_fraction == 0.0


def test_reconfigure_keeps_what_was_spent() -> None:
    budget, _ = make(per_task=1000, per_hour=100)
    budget.charge(80)
    budget.reconfigure(BudgetSettings(tokens_per_task=1000, tokens_per_hour=50))
    assert not budget.allows()
    budget.reconfigure(BudgetSettings(tokens_per_task=1000, tokens_per_hour=500))
    assert budget.headroom().hour == 420


def test_next_change_is_when_the_oldest_charge_leaves_the_hour() -> None:
    budget, clock = make()
    assert budget.next_change() is None
    clock.set(5)
    budget.charge(1)
    clock.set(50)
    budget.charge(1)
    assert budget.next_change() == 3605
    clock.set(3605)
    assert budget.next_change() == 3650


def test_settings_come_from_the_budget_group(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SBCORE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("SBCORE_DATA_DIR", str(tmp_path / "data"))
    assert BudgetSettings.from_config(load_config(None)) == BudgetSettings()
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.yaml").write_text(json.dumps({"budget": {"tokens_per_hour": 1234}}))
    assert BudgetSettings.from_config(load_config(None)) == BudgetSettings(tokens_per_hour=1234)
