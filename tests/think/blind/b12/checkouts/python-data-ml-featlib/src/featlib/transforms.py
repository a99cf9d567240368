"""Column-wise feature transforms."""
from __future__ import annotations

import numpy as np
import pandas as pd


def scale_features(df: pd.DataFrame, columns: list[str] | None = None) -> pd.DataFrame:
    """Standardize ``columns`` (default: all numeric) to zero mean, unit variance."""
    cols = columns or df.select_dtypes(include=np.number).columns.tolist()
    out = df.copy()
    mu = out[cols].mean()
    sd = out[cols].std(ddof=0).replace(0, 1.0)
    out[cols] = (out[cols] - mu) / sd
    return out
