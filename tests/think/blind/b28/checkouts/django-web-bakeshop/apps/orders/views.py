from decimal import Decimal

from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render

from .forms import OrderForm
from .models import Order, Product


@login_required
def create_order(request, product_id):
    product = get_object_or_404(Product, pk=product_id, active=True)
    form = OrderForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        qty = form.cleaned_data["quantity"]
        order = Order.objects.create(
            customer=request.user,
            product=product,
            quantity=qty,
            unit_price=product.price,
            total=product.price * qty,
        )
        return redirect("orders:detail", pk=order.pk)
    return render(request, "orders/create.html", {"form": form, "product": product})
