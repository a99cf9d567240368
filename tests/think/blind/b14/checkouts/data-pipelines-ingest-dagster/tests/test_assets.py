import pandas as pd
from dagster import build_asset_context

from ingest.assets import raw_events


class FakeLanding:
    def read_parquet(self, prefix, partition):
        return pd.DataFrame({"event_id": [1, 2], "ts": ["2024-06-09T00:00:00Z"] * 2})


def test_raw_events_reads_partition():
    ctx = build_asset_context(partition_key="2024-06-09")
    df = raw_events(ctx, FakeLanding())
    assert len(df) == 2
