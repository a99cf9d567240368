"""Ledger totals for the payments service."""

from decimal import Decimal

from .models import Entry, Refund


def totals(entries: list[Entry]) -> Decimal:
    """Sum of the ledger's entries."""
    return sum((entry.amount for entry in entries), Decimal(0))


def statement_csv(entries: list[Entry]) -> str:
    """The monthly statement as CSV rows."""
    return "\n".join(f"{entry.day},{entry.amount}" for entry in entries)


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


def refundable(entry: Entry | Refund, age_days: int, window_days: int = REFUND_WINDOW_DAYS) -> bool:
    return age_days <= window_days
