from decimal import Decimal

from django.contrib.auth import get_user_model
from django.test import TestCase
from django.urls import reverse

from apps.orders.models import Order, Product


class CreateOrderViewTests(TestCase):
    def setUp(self):
        self.user = get_user_model().objects.create_user("ann", password="pw")
        self.product = Product.objects.create(name="Sourdough", price=Decimal("6.50"), active=True)
        self.client.force_login(self.user)

    def test_creates_order_with_total(self):
        resp = self.client.post(reverse("orders:create", args=[self.product.pk]), {"quantity": 4})
        order = Order.objects.get()
        self.assertEqual(order.total, Decimal("26.00"))
        self.assertRedirects(resp, reverse("orders:detail", args=[order.pk]))

    def test_inactive_product_404(self):
        self.product.active = False
        self.product.save()
        resp = self.client.get(reverse("orders:create", args=[self.product.pk]))
        self.assertEqual(resp.status_code, 404)
