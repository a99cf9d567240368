import pandas as pd

from etl_events import run


def test_run_assigns_sessions():
    df = pd.DataFrame({
        "ts": ["2025-01-01T10:00:00Z", "2025-01-01T10:05:00Z", "2025-01-01T12:00:00Z"],
        "user_id": [1, 1, 1],
        "event_type": ["view", "click", "view"],
        "user_agent": ["Mozilla/5.0"] * 3,
    })
    out = run(df)
    assert out["session_id"].nunique() == 2
