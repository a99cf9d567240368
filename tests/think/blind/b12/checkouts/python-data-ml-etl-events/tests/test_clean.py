import pandas as pd

from etl_events.clean import drop_bots, normalise_types


def test_drop_bots_removes_crawlers():
    df = pd.DataFrame({"user_agent": ["Mozilla/5.0", "Googlebot/2.1", None]})
    assert len(drop_bots(df)) == 2


def test_normalise_types_lowercases_event_type():
    df = pd.DataFrame({"ts": ["2025-01-01T00:00:00Z"], "event_type": [" Click "]})
    assert normalise_types(df)["event_type"].tolist() == ["click"]
