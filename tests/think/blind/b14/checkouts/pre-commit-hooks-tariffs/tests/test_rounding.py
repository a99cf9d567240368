from decimal import Decimal

from tariffs.rounding import round_amount


def test_eur_rounds_half_up():
    assert round_amount(Decimal("1.005"), "EUR") == Decimal("1.01")


def test_jpy_has_no_minor_units():
    assert round_amount(Decimal("149.5"), "JPY") == Decimal("150")
