import pytest

from catalog.models import Category, Product


@pytest.fixture
def category(db):
    return Category.objects.create(name="Shoes", slug="shoes")


def test_product_str(category):
    p = Product.objects.create(category=category, name="Runner", sku="RUN-1", price="79.00")
    assert str(p) == "RUN-1 Runner"


def test_category_protects_products(category):
    Product.objects.create(category=category, name="Runner", sku="RUN-1", price="79.00")
    with pytest.raises(Exception):
        category.delete()
