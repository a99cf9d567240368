import aws_cdk as cdk
import aws_cdk.assertions as assertions
import pytest

from ingest.ingest_stack import IngestStack


@pytest.fixture(params=["dev", "prod"])
def template(request):
    app = cdk.App()
    stack = IngestStack(app, f"Ingest-{request.param}", stage=request.param)
    return request.param, assertions.Template.from_stack(stack)


def test_landing_bucket_blocks_public_access(template):
    _, t = template
    t.has_resource_properties(
        "AWS::S3::Bucket",
        {"PublicAccessBlockConfiguration": {"BlockPublicAcls": True, "RestrictPublicBuckets": True}},
    )


def test_prod_bucket_is_retained(template):
    stage, t = template
    expected = "Retain" if stage == "prod" else "Delete"
    t.has_resource("AWS::S3::Bucket", {"DeletionPolicy": expected})


def test_queue_visibility_timeout(template):
    _, t = template
    t.has_resource_properties("AWS::SQS::Queue", {"VisibilityTimeout": 300})
