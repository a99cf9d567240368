import pulumi

from components.database import Database
from components.network import Network

config = pulumi.Config()
env = config.require("environment")

net = Network("payments", cidr="10.40.0.0/16")
db = Database(
    "payments",
    subnet_ids=net.private_subnet_ids,
    vpc_id=net.vpc_id,
    instance_class=config.get("dbInstanceClass") or "db.t4g.small",
    password=config.require_secret("dbPassword"),
    multi_az=env == "prod",
)

pulumi.export("db_endpoint", db.endpoint)
pulumi.export("vpc_id", net.vpc_id)
