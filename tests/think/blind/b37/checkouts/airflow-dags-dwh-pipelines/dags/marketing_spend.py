from datetime import datetime

from airflow import DAG
from airflow.providers.common.sql.operators.sql import SQLExecuteQueryOperator

with DAG("marketing_spend", start_date=datetime(2024, 1, 1), schedule="@daily", catchup=False, tags=["growth"]) as dag:
    for table in ["google_ads", "meta_ads"]:
        SQLExecuteQueryOperator(task_id="load", conn_id="warehouse", sql=f"sql/load_{table}.sql")
