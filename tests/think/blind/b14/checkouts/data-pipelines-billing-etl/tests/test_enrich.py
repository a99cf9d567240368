from datetime import date

import pandas as pd
import pytest

from etl.enrich import add_fx


@pytest.fixture
def fx():
    return pd.DataFrame(
        {"currency": ["USD", "GBP"], "rate_date": [date(2024, 6, 9)] * 2, "rate_to_eur": [0.92, 1.18]}
    )


def test_add_fx_converts_amounts(fx):
    df = pd.DataFrame(
        {"currency": ["USD", "GBP"], "invoice_date": [date(2024, 6, 9)] * 2, "amount": [100.0, 10.0]}
    )
    out = add_fx(df, fx)
    assert out["amount_eur"].round(2).tolist() == [92.0, 11.8]
