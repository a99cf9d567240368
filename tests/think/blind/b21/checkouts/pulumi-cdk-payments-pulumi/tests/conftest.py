import pulumi


class PaymentsMocks(pulumi.runtime.Mocks):
    def new_resource(self, args: pulumi.runtime.MockResourceArgs):
        outputs = dict(args.inputs)
        if args.typ == "aws:rds/instance:Instance":
            outputs["endpoint"] = f"{args.name}.cluster.local:5432"
        return [args.name + "_id", outputs]

    def call(self, args: pulumi.runtime.MockCallArgs):
        return {}


pulumi.runtime.set_mocks(PaymentsMocks(), preview=False)
