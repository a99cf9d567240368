import polars as pl
from dagster import asset


@asset(key_prefix=["harbor"])
def berth_occupancy(vessel_calls: pl.DataFrame) -> pl.DataFrame:
    return (
        vessel_calls.group_by("berth_id")
        .agg(pl.col("hours_moored").sum().alias("hours"))
        .sort("berth_id")
    )
