import papermill as pm
import pandas as pd


def test_notebook_scores_fixture(tmp_path):
    out = tmp_path / "scores.parquet"
    pm.execute_notebook(
        "include/notebooks/score_customers.ipynb",
        str(tmp_path / "out.ipynb"),
        parameters={"run_date": "2024-01-07", "input_path": "tests/fixtures/customers_small.parquet", "output_path": str(out)},
    )
    scores = pd.read_parquet(out)
    assert scores["churn_risk"].between(0, 1).all()
    assert len(scores) == 50
