import polars as pl

from harbor_etl.assets.berths import berth_occupancy


def test_berth_occupancy_sums_hours():
    calls = pl.DataFrame({"berth_id": ["B1", "B1", "B2"], "hours_moored": [4.0, 2.5, 7.0]})
    out = berth_occupancy(calls)
    assert out.to_dicts() == [{"berth_id": "B1", "hours": 6.5}, {"berth_id": "B2", "hours": 7.0}]
