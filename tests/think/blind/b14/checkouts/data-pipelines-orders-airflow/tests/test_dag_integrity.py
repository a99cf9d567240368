import pytest
from airflow.models import DagBag


@pytest.fixture(scope="session")
def dagbag():
    return DagBag(dag_folder="dags", include_examples=False)


def test_no_import_errors(dagbag):
    assert dagbag.import_errors == {}


@pytest.mark.parametrize("dag_id", ["orders_daily", "orders_backfill"])
def test_dag_loaded(dagbag, dag_id):
    assert dagbag.get_dag(dag_id) is not None


def test_orders_daily_tasks(dagbag):
    dag = dagbag.get_dag("orders_daily")
    assert [t.task_id for t in dag.topological_sort()] == [
        "extract_orders", "transform_orders", "load_to_warehouse"]
