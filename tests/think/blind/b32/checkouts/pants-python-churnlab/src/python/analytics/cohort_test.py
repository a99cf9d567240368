import pandas as pd

from analytics.cohort import monthly_cohorts


def test_monthly_cohorts_counts_users_per_month():
    df = pd.DataFrame({"signed_up_at": pd.to_datetime(["2026-01-03", "2026-01-20", "2026-02-01"])})
    out = monthly_cohorts(df)
    assert out["users"].tolist() == [2, 1]
