import pytest

from abtest.power import cohens_h, solve_n


def test_cohens_h_zero_when_equal():
    assert cohens_h(0.1, 0.1, alternative="two-sided") == pytest.approx(0.0)


def test_solve_n_monotone_in_effect():
    assert solve_n(0.1, alpha=0.05, power=0.8) > solve_n(0.2, alpha=0.05, power=0.8)
