from decimal import ROUND_HALF_UP, Decimal

MINOR_UNITS = {"EUR": 2, "USD": 2, "JPY": 0}


def round_amount(amount: Decimal, currency: str) -> Decimal:
    places = MINOR_UNITS.get(currency, 2)
    return amount.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
