import sys

import pandas as pd
import yaml


def build(raw_dir: str, out_dir: str, train_weeks: int) -> None:
    sales = pd.read_parquet(f"{raw_dir}/sales.parquet")
    cutoff = sales["week"].max() - pd.Timedelta(weeks=train_weeks)
    sales = sales[sales["week"] > cutoff]
    for lag in (1, 2, 4, 52):
        sales[f"lag_{lag}"] = sales.groupby("sku")["units"].shift(lag)
    sales.to_parquet(f"{out_dir}/features.parquet")


if __name__ == "__main__":
    params = yaml.safe_load(open("params.yaml"))
    build(sys.argv[1], sys.argv[2], params["data"]["train_weeks"])
