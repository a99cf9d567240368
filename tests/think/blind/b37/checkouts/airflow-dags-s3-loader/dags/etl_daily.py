from datetime import datetime

from airflow import DAG
from operators.s3_to_postgres import S3ToPostgresOperator

with DAG("etl_daily", start_date=datetime(2024, 1, 1), schedule="@daily", catchup=False, tags=["etl"]) as dag:
    load_orders = S3ToPostgresOperator(
        task_id="load_orders",
        s3_key="orders/{{ ds }}/orders.csv",
        table="staging.orders",
    )
