"""Helpers for building object-store paths used by the orders DAGs."""
BUCKET = "s3://acme-datalake"


def table_prefix(table: str, layer: str = "raw") -> str:
    return f"{BUCKET}/{layer}/orders/{table}"
