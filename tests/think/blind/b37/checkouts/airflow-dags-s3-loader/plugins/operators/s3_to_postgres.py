from airflow.models import BaseOperator
from airflow.providers.amazon.aws.hooks.s3 import S3Hook
from airflow.providers.postgres.hooks.postgres import PostgresHook


class S3ToPostgresOperator(BaseOperator):
    template_fields = ("s3_key",)

    def __init__(self, *, s3_key, table, s3_bucket="dwh-landing", postgres_conn_id="warehouse", **kwargs):
        super().__init__(**kwargs)
        self.s3_key = s3_key
        self.table = table
        self.s3_bucket = s3_bucket
        self.postgres_conn_id = postgres_conn_id

    def build_copy_sql(self):
        return f"COPY {self.table} FROM STDIN WITH (FORMAT csv, HEADER)"

    def execute(self, context):
        body = S3Hook().read_key(self.s3_key, self.s3_bucket)
        PostgresHook(self.postgres_conn_id).copy_expert(self.build_copy_sql(), body)
