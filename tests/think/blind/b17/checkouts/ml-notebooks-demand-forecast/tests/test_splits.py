import pandas as pd

from forecast.splits import time_split


def test_time_split_no_leak():
    df = pd.DataFrame({"date": pd.date_range("2024-01-01", periods=10), "y": range(10)})
    train, test = time_split(df, cutoff="2024-01-08")
    assert train["date"].max() < test["date"].min()
