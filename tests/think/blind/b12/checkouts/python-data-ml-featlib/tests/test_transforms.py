import numpy as np
import pandas as pd
import pytest

from featlib import scale_features


@pytest.fixture
def df():
    return pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0], "b": [10, 10, 10, 10], "name": list("wxyz")})


def test_scale_features_zero_mean_unit_var(df):
    out = scale_features(df, ["a"])
    assert np.isclose(out["a"].mean(), 0.0)
    assert np.isclose(out["a"].std(ddof=0), 1.0)


def test_constant_column_does_not_divide_by_zero(df):
    out = scale_features(df, ["b"])
    assert (out["b"] == 0).all()


def test_non_numeric_untouched(df):
    out = scale_features(df)
    assert out["name"].tolist() == list("wxyz")
