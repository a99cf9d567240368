import pandas as pd
from dagster import AssetExecutionContext, asset

from .resources import S3Landing


@asset(group_name="ingest")
def raw_events(context: AssetExecutionContext, landing: S3Landing) -> pd.DataFrame:
    df = landing.read_parquet(prefix="events/", partition=context.partition_key)
    context.log.info("read %d raw events", len(df))
    return df
