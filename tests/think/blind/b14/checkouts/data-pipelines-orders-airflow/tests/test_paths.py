from orders.paths import table_prefix


def test_table_prefix_default_layer():
    assert table_prefix("orders_raw") == "s3://acme-datalake/raw/orders/orders_raw"


def test_table_prefix_curated():
    assert table_prefix("fct_orders", layer="curated") == "s3://acme-datalake/curated/orders/fct_orders"
