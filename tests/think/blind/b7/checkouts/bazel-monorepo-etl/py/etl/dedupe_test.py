import sys

import pandas as pd
import pytest

from py.etl import dedupe


def test_keeps_latest_by_updated_at():
    df = pd.DataFrame(
        {
            "customer_id": [1, 1, 2],
            "updated_at": pd.to_datetime(["2026-01-01", "2026-01-03", "2026-01-02"]),
            "email": ["a@old", "a@new", "b@x"],
        }
    )
    out = dedupe.latest_per_key(df, key="customer_id", order_by="updated_at")
    assert list(out["email"]) == ["a@new", "b@x"]


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))
