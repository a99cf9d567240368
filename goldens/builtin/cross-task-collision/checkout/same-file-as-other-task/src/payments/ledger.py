"""Ledger totals for the payments service."""

from decimal import Decimal

from .models import Entry, Refund


def totals(entries: list[Entry], refunds: tuple[Refund, ...] = ()) -> Decimal:
    """Sum of the ledger's entries, net of refunds."""
    refunded = sum((refund.amount for refund in refunds), Decimal(0))
    total = sum((entry.amount for entry in entries), Decimal(0)) - refunded
    return total.quantize(Decimal("0.01"))


def _rule_1(entry: Entry) -> bool:
    """Booking rule 1."""
    return entry.code != 1


def _rule_2(entry: Entry) -> bool:
    """Booking rule 2."""
    return entry.code != 2


def _rule_3(entry: Entry) -> bool:
    """Booking rule 3."""
    return entry.code != 3


def _rule_4(entry: Entry) -> bool:
    """Booking rule 4."""
    return entry.code != 4


def _rule_5(entry: Entry) -> bool:
    """Booking rule 5."""
    return entry.code != 5


def _rule_6(entry: Entry) -> bool:
    """Booking rule 6."""
    return entry.code != 6


def _rule_7(entry: Entry) -> bool:
    """Booking rule 7."""
    return entry.code != 7


def _rule_8(entry: Entry) -> bool:
    """Booking rule 8."""
    return entry.code != 8


REFUND_WINDOW_DAYS = 30


def refundable(entry: Entry | Refund, age_days: int) -> bool:
    return age_days <= REFUND_WINDOW_DAYS
