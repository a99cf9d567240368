from tally.report import summarize


def test_summarize_groups_by_category():
    rows = [{"category": "food", "amount": "12.50"}, {"category": "food", "amount": "7.50"}]
    out = summarize(rows)
    assert out == {"food": {"count": 2, "sum": 20.0}}


def test_summarize_skips_malformed_rows():
    rows = [{"category": "food", "amount": "n/a"}]
    assert summarize(rows) == {}
