import pandas as pd

BOT_AGENTS = ("bot", "spider", "crawler", "headless")


def normalise_types(df: pd.DataFrame) -> pd.DataFrame:
    out = df.copy()
    out["ts"] = pd.to_datetime(out["ts"], utc=True)
    out["event_type"] = out["event_type"].str.lower().str.strip()
    return out


def drop_bots(df: pd.DataFrame) -> pd.DataFrame:
    ua = df["user_agent"].fillna("").str.lower()
    return df[~ua.str.contains("|".join(BOT_AGENTS))].reset_index(drop=True)
