from decimal import Decimal

# ISO 3166-1 alpha-2 -> standard VAT rate
RATES: dict[str, Decimal] = {
    "DE": Decimal("0.19"),
    "FR": Decimal("0.20"),
    "NL": Decimal("0.21"),
    "AT": Decimal("0.20"),
}
