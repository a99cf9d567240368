import * as cdk from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { IngestStack } from '../lib/ingest-stack';

test('ingest lambda is wired to the raw bucket', () => {
  const app = new cdk.App();
  const stack = new IngestStack(app, 'TestStack');
  const template = Template.fromStack(stack);
  template.resourceCountIs('AWS::Lambda::Function', 2);
  template.hasResourceProperties('AWS::Lambda::Function', { Handler: 'app.handler', Timeout: 60 });
});
