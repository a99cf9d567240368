from decimal import Decimal

from billing.tax import vat_rate_for


def test_known_country_rate():
    assert vat_rate_for("de") == Decimal("0.19")


def test_unknown_country_defaults_to_zero():
    assert vat_rate_for("ZZ") == Decimal("0")
