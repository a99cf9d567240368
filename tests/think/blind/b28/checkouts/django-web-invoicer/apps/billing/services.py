from decimal import Decimal

from django.db.models import Sum

from .models import Invoice, LineItem


def get_invoice_totals(invoice: Invoice) -> dict[str, Decimal]:
    agg = LineItem.objects.filter(invoice=invoice).aggregate(net=Sum("amount"), tax=Sum("tax"))
    net = agg["net"] or Decimal("0")
    tax = agg["tax"] or Decimal("0")
    return {"net": net, "tax": tax, "gross": net + tax}
