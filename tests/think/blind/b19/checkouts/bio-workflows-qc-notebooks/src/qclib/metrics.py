import pandas as pd


def duplication_rate(picard_metrics: pd.DataFrame) -> pd.Series:
    return picard_metrics.set_index("LIBRARY")["PERCENT_DUPLICATION"]


def insert_size_summary(hist: pd.DataFrame) -> dict:
    total = hist["All_Reads.fr_count"].sum()
    mean = (hist["insert_size"] * hist["All_Reads.fr_count"]).sum() / total
    return {"mean": float(mean), "n": int(total)}
