import pandas as pd

from churn.features import days_since_last_order, order_counts


def _orders():
    return pd.DataFrame({
        "customer_id": [1, 1, 2],
        "order_date": pd.to_datetime(["2024-01-01", "2024-01-20", "2024-01-05"]),
        "amount": [10.0, 25.0, 40.0],
    })


def test_order_counts():
    out = order_counts(_orders())
    assert out.loc[1] == 2
    assert out.loc[2] == 1


def test_days_since_last_order():
    out = days_since_last_order(_orders(), asof=pd.Timestamp("2024-01-31"))
    assert out.loc[1] == 11
    assert out.loc[2] == 26
