import pandas as pd
from dagster import asset


@asset(group_name="customers", compute_kind="pandas")
def raw_customers() -> pd.DataFrame:
    return pd.read_csv("data/raw/customers.csv")


@asset(group_name="customers", compute_kind="pandas")
def customer_lifetime_value(raw_customers: pd.DataFrame, raw_orders: pd.DataFrame) -> pd.DataFrame:
    merged = raw_orders.merge(raw_customers, on="customer_id", how="left")
    return merged.groupby("customer_id", as_index=False)["amount"].sum().rename(columns={"amount": "ltv"})
