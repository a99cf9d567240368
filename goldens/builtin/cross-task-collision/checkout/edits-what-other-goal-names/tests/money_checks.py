from decimal import Decimal

from payments.money import parse_amount


def test_plain():
    assert parse_amount("1.50") == Decimal("1.50")


def test_comma_decimals():
    assert parse_amount("1,50") == Decimal("1.50")
