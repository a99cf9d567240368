from decimal import Decimal


def parse_amount(text: str) -> Decimal:
    return Decimal(text.strip().replace(",", "."))
