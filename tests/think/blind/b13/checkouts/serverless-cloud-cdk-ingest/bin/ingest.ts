#!/usr/bin/env node
import 'source-map-support/register';
import * as cdk from 'aws-cdk-lib';
import { IngestStack } from '../lib/ingest-stack';

const app = new cdk.App();
new IngestStack(app, 'IngestStack', { env: { region: 'eu-west-1' } });
