from django.test import TestCase

from inventory.models import StockItem
from locations.models import Bin


class StockItemTests(TestCase):
    def setUp(self):
        self.bin = Bin.objects.create(code="A-01-03")

    def test_defaults(self):
        item = StockItem.objects.create(sku="BOLT-M8", description="M8 bolt", location=self.bin)
        self.assertEqual(item.on_hand, 0)
