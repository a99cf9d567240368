from typing import Sequence

import pulumi
import pulumi_aws as aws


class Database(pulumi.ComponentResource):
    def __init__(self, name: str, *, subnet_ids: pulumi.Input[Sequence[str]], vpc_id: pulumi.Input[str],
                 instance_class: str, password: pulumi.Input[str], multi_az: bool = False,
                 opts: pulumi.ResourceOptions | None = None):
        super().__init__("payments:index:Database", name, None, opts)
        child = pulumi.ResourceOptions(parent=self)

        subnet_group = aws.rds.SubnetGroup(f"{name}-db-subnets", subnet_ids=subnet_ids, opts=child)
        self.security_group = aws.ec2.SecurityGroup(f"{name}-db-sg", vpc_id=vpc_id, opts=child)

        self.instance = aws.rds.Instance(
            f"{name}-db",
            engine="postgres",
            engine_version="16.3",
            instance_class=instance_class,
            allocated_storage=50,
            db_subnet_group_name=subnet_group.name,
            vpc_security_group_ids=[self.security_group.id],
            username="payments",
            password=password,
            multi_az=multi_az,
            storage_encrypted=True,
            backup_retention_period=14 if multi_az else 1,
            skip_final_snapshot=not multi_az,
            opts=child,
        )
        self.endpoint = self.instance.endpoint
        self.register_outputs({"endpoint": self.endpoint})
