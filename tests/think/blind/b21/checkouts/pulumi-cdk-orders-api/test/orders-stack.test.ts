import * as cdk from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { OrdersStack } from '../lib/orders-stack';

describe('OrdersStack', () => {
  const app = new cdk.App();
  const stack = new OrdersStack(app, 'TestOrdersStack');
  const template = Template.fromStack(stack);

  test('creates the orders table with PAY_PER_REQUEST', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
    });
  });

  test('wires the order processor lambda to the queue', () => {
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', 1);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      BatchSize: 10,
    });
  });

  test('matches snapshot', () => {
    expect(template.toJSON()).toMatchSnapshot();
  });
});
