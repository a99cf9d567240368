from django.shortcuts import get_object_or_404, render

from .models import Invoice
from .services import get_invoice_totals


def invoice_detail(request, pk):
    invoice = get_object_or_404(Invoice, pk=pk)
    totals = get_invoice_totals(invoice)
    return render(request, "billing/detail.html", {"invoice": invoice, "gross": totals["gross"], "totals": totals})
