from ledger.models import Entry, parse_amount


def test_parse_plain():
    assert parse_amount("12.50") == 12.5


def test_entry_defaults():
    assert Entry("x", 1).category == "uncategorised"
