"""Enrich invoices with FX rates."""
from __future__ import annotations

import logging
from datetime import date

import pandas as pd

log = logging.getLogger(__name__)


def load_rates(fx: pd.DataFrame) -> dict[tuple[str, date], float]:
    return {(r.currency, r.rate_date): r.rate_to_eur for r in fx.itertuples()}


def add_fx(df: pd.DataFrame, fx: pd.DataFrame) -> pd.DataFrame:
    rates = load_rates(fx)
    out = []
    for row in df.itertuples():
        rate = rates[(row.currency, row.invoice_date)]
        out.append(row.amount * rate)
    df = df.copy()
    df["amount_eur"] = out
    return df
