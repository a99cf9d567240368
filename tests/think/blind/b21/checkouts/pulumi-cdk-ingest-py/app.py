#!/usr/bin/env python3
import os

import aws_cdk as cdk

from ingest.ingest_stack import IngestStack

app = cdk.App()
stage = app.node.try_get_context("stage") or "dev"
IngestStack(
    app,
    f"Ingest-{stage}",
    stage=stage,
    env=cdk.Environment(account=os.getenv("CDK_DEFAULT_ACCOUNT"), region=os.getenv("CDK_DEFAULT_REGION")),
)
app.synth()
