import pytest
from airflow.models import DagBag


@pytest.fixture(scope="session")
def dag_bag():
    return DagBag(dag_folder="dags", include_examples=False)


def test_no_import_errors(dag_bag):
    assert not dag_bag.import_errors


def test_dags_have_tags(dag_bag):
    for dag_id, dag in dag_bag.dags.items():
        assert dag.tags, f"{dag_id} has no tags"
