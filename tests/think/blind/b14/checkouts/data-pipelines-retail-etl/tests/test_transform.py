import pandas as pd

from retail.transform import build_fact_sales


def test_build_fact_sales_joins_store_region():
    sales = pd.DataFrame({"store_id": [1, 2], "amount": [10.0, 5.0]})
    stores = pd.DataFrame({"store_id": [1, 2], "region": ["north", "south"]})
    out = build_fact_sales(sales, stores)
    assert out["region"].tolist() == ["north", "south"]
