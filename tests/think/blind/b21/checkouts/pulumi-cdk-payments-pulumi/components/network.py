import pulumi
import pulumi_aws as aws


class Network(pulumi.ComponentResource):
    def __init__(self, name: str, *, cidr: str, opts: pulumi.ResourceOptions | None = None):
        super().__init__("payments:index:Network", name, None, opts)
        child = pulumi.ResourceOptions(parent=self)
        self.vpc = aws.ec2.Vpc(f"{name}-vpc", cidr_block=cidr, enable_dns_hostnames=True, opts=child)
        azs = ["a", "b", "c"]
        self.private_subnets = [
            aws.ec2.Subnet(f"{name}-private-{az}", vpc_id=self.vpc.id,
                           cidr_block=f"10.40.{i * 16}.0/20", availability_zone=f"eu-west-1{az}", opts=child)
            for i, az in enumerate(azs)
        ]
        self.vpc_id = self.vpc.id
        self.private_subnet_ids = [s.id for s in self.private_subnets]
        self.register_outputs({"vpc_id": self.vpc_id})
