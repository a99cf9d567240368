import pandas as pd

from energy.features import add_calendar_features


def test_calendar_features_columns():
    df = pd.DataFrame({"ts": pd.date_range("2024-12-24", periods=3, freq="D")})
    out = add_calendar_features(df)
    assert {"dow", "month"} <= set(out.columns)
