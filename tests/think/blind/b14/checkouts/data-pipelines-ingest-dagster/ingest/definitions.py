from dagster import Definitions, load_assets_from_modules

from . import assets
from .resources import S3Landing

defs = Definitions(
    assets=load_assets_from_modules([assets]),
    resources={"landing": S3Landing(bucket="acme-landing")},
)
