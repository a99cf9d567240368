"""Merge per-sample featureCounts tables into one gene x sample matrix."""
import sys
from pathlib import Path

import pandas as pd


def read_featurecounts(path):
    df = pd.read_csv(path, sep="\t", comment="#")
    sample = Path(path).name.split(".")[0]
    counts = df.set_index("Geneid").iloc[:, -1]
    counts.name = sample
    return counts


def merge(paths):
    series = [read_featurecounts(p) for p in paths]
    return pd.concat(series, axis=1).fillna(0).astype(int)


if __name__ == "__main__" and "snakemake" in globals():
    sys.stderr = open(snakemake.log[0], "w")
    merged = merge(snakemake.input)
    merged.to_csv(snakemake.output[0], sep="\t")
