from django.db import models


class StockItem(models.Model):
    sku = models.CharField(max_length=40, unique=True)
    description = models.CharField(max_length=255)
    on_hand = models.IntegerField(default=0)
    location = models.ForeignKey("locations.Bin", on_delete=models.PROTECT)

    class Meta:
        db_table = "INV_STOCK_ITEM"
