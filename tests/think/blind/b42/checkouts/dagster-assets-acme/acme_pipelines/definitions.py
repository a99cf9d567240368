from dagster import Definitions, load_assets_from_modules, define_asset_job, ScheduleDefinition
from dagster_duckdb_pandas import DuckDBPandasIOManager

from .assets import orders, customers

all_assets = load_assets_from_modules([orders, customers])

nightly = define_asset_job("nightly", selection="*")

defs = Definitions(
    assets=all_assets,
    jobs=[nightly],
    schedules=[ScheduleDefinition(job=nightly, cron_schedule="0 3 * * *")],
    resources={"io_manager": DuckDBPandasIOManager(database="data/acme.duckdb")},
)
