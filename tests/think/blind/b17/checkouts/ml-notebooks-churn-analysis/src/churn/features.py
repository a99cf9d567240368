import pandas as pd


def order_counts(orders: pd.DataFrame) -> pd.Series:
    return orders.groupby("customer_id").size()


def days_since_last_order(orders: pd.DataFrame, asof: pd.Timestamp) -> pd.Series:
    last = orders.groupby("customer_id")["order_date"].max()
    return (asof - last).dt.days
