from ledgerline.export import export_ledger


def test_csv_roundtrip(tmp_path, sample_ledger):
    out = tmp_path / "out.csv"
    export_ledger(sample_ledger, out, fmt="csv")
    assert out.read_text().splitlines()[0] == "date,account,amount,memo"
