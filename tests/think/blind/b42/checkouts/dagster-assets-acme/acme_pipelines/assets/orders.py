import pandas as pd
from dagster import asset, AssetExecutionContext


@asset(group_name="orders", compute_kind="pandas")
def raw_orders() -> pd.DataFrame:
    return pd.read_csv("data/raw/orders.csv")


@asset(group_name="orders", compute_kind="pandas")
def daily_orders(context: AssetExecutionContext, raw_orders: pd.DataFrame) -> pd.DataFrame:
    df = raw_orders.copy()
    df["order_date"] = pd.to_datetime(df["created_at"]).dt.date
    out = (
        df.groupby("order_date")
        .agg(orders=("order_id", "nunique"), revenue=("amount", "sum"))
        .reset_index()
    )
    context.add_output_metadata({"rows": len(out)})
    return out
