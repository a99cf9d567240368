from datetime import datetime

from airflow import DAG
from airflow.providers.papermill.operators.papermill import PapermillOperator

with DAG("churn_scoring", start_date=datetime(2024, 1, 1), schedule="@weekly", catchup=False, tags=["ml"]) as dag:
    score = PapermillOperator(
        task_id="score_customers",
        input_nb="include/notebooks/score_customers.ipynb",
        output_nb="/tmp/out/score_customers_{{ ds }}.ipynb",
        parameters={"run_date": "{{ ds }}", "input_path": "data/customers_{{ ds_nodash }}.parquet"},
    )
