import * as cdk from 'aws-cdk-lib';
import { Construct } from 'constructs';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { OrderProcessor } from './constructs/order-processor';

export interface OrdersStackProps extends cdk.StackProps {
  readonly alarmEmail?: string;
}

export class OrdersStack extends cdk.Stack {
  constructor(scope: Construct, id: string, props?: OrdersStackProps) {
    super(scope, id, props);

    const table = new dynamodb.Table(this, 'OrdersTable', {
      partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
    });

    const queue = new sqs.Queue(this, 'OrdersQueue', {
      visibilityTimeout: cdk.Duration.seconds(90),
    });

    new OrderProcessor(this, 'Processor', { table, queue });
  }
}
