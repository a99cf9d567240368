import pandas as pd

from demand.features import build


def test_build_adds_lags(tmp_path):
    raw = tmp_path / "raw"
    raw.mkdir()
    weeks = pd.date_range("2023-01-02", periods=60, freq="W-MON")
    pd.DataFrame({"week": weeks, "sku": "A", "units": range(60)}).to_parquet(raw / "sales.parquet")
    out = tmp_path / "out"
    out.mkdir()
    build(str(raw), str(out), train_weeks=52)
    df = pd.read_parquet(out / "features.parquet")
    assert {"lag_1", "lag_2", "lag_4", "lag_52"} <= set(df.columns)
    assert len(df) == 52
