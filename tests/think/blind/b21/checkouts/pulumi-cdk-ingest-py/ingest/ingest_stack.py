from aws_cdk import Duration, RemovalPolicy, Stack
from aws_cdk import aws_s3 as s3
from aws_cdk import aws_sqs as sqs
from aws_cdk import aws_s3_notifications as s3n
from constructs import Construct


class IngestStack(Stack):
    def __init__(self, scope: Construct, construct_id: str, *, stage: str, **kwargs) -> None:
        super().__init__(scope, construct_id, **kwargs)

        self.landing = s3.Bucket(
            self,
            "LandingBucket",
            encryption=s3.BucketEncryption.S3_MANAGED,
            block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
            enforce_ssl=True,
            removal_policy=RemovalPolicy.RETAIN if stage == "prod" else RemovalPolicy.DESTROY,
            auto_delete_objects=stage != "prod",
        )

        self.queue = sqs.Queue(self, "IngestQueue", visibility_timeout=Duration.minutes(5))
        self.landing.add_event_notification(s3.EventType.OBJECT_CREATED, s3n.SqsDestination(self.queue))
