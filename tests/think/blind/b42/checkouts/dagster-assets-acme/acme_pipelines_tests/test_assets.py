import pandas as pd
from dagster import build_asset_context

from acme_pipelines.assets.orders import daily_orders
from acme_pipelines.assets.customers import customer_lifetime_value


def _orders():
    return pd.DataFrame(
        {
            "order_id": [1, 2, 3],
            "customer_id": [10, 10, 11],
            "created_at": ["2025-06-01 10:00", "2025-06-01 12:30", "2025-06-02 09:00"],
            "amount": [20.0, 5.0, 12.5],
            "status": ["paid", "paid", "paid"],
        }
    )


def test_daily_orders():
    out = daily_orders(build_asset_context(), _orders())
    assert list(out["orders"]) == [2, 1]
    assert list(out["revenue"]) == [25.0, 12.5]


def test_customer_lifetime_value():
    customers = pd.DataFrame({"customer_id": [10, 11], "name": ["a", "b"]})
    out = customer_lifetime_value(customers, _orders())
    assert dict(zip(out["customer_id"], out["ltv"])) == {10: 25.0, 11: 12.5}
