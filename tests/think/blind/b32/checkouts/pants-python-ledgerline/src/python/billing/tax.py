from decimal import Decimal

from billing.rates import RATES

DEFAULT_RATE = Decimal("0")


def vat_rate_for(country: str) -> Decimal:
    return RATES.get(country.upper(), DEFAULT_RATE)
