from decimal import Decimal

import pytest

from apps.billing.services import get_invoice_totals


@pytest.mark.django_db
def test_totals_empty_invoice(invoice_factory):
    totals = get_invoice_totals(invoice_factory())
    assert totals["gross"] == Decimal("0")
