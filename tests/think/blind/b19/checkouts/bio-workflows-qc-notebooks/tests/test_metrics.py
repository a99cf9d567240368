import pandas as pd

from qclib import insert_size_summary


def test_insert_size_summary_mean():
    hist = pd.DataFrame({"insert_size": [100, 200], "All_Reads.fr_count": [1, 3]})
    s = insert_size_summary(hist)
    assert s["mean"] == 175.0
    assert s["n"] == 4
