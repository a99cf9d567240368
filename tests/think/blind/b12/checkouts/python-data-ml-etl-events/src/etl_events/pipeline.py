import pandas as pd

from .clean import drop_bots, normalise_types
from .enrich import add_session_ids


def run(df: pd.DataFrame) -> pd.DataFrame:
    df = normalise_types(df)
    df = drop_bots(df)
    df = add_session_ids(df, gap_minutes=30)
    return df
