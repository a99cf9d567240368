from __future__ import annotations

import pandas as pd


def monthly_cohorts(signups: pd.DataFrame) -> pd.DataFrame:
    df = signups.copy()
    df["cohort"] = df["signed_up_at"].dt.to_period("M")
    return df.groupby("cohort").size().rename("users").to_frame()
