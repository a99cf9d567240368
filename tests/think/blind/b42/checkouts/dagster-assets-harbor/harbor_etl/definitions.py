from dagster import Definitions, load_assets_from_package_module

from . import assets
from .sensors import vessel_feed_sensor

defs = Definitions(
    assets=load_assets_from_package_module(assets),
    sensors=[vessel_feed_sensor],
)
