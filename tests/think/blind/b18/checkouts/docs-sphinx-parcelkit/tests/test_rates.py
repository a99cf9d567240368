from decimal import Decimal

import pytest

from parcelkit.rates import quote_rate


def test_standard_zone_1():
    assert quote_rate(2.0, zone=1) == Decimal("9.80")


def test_express_costs_more():
    assert quote_rate(2.0, zone=4, express=True) > quote_rate(2.0, zone=4)


@pytest.mark.parametrize("zone", [0, 9])
def test_unknown_zone(zone):
    with pytest.raises(KeyError):
        quote_rate(1.0, zone=zone)
