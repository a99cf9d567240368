from operators.s3_to_postgres import S3ToPostgresOperator


def test_copy_sql():
    op = S3ToPostgresOperator(task_id="t", s3_key="k", table="staging.orders")
    assert op.build_copy_sql() == "COPY staging.orders FROM STDIN WITH (FORMAT csv, HEADER)"
