import * as path from 'path';
import { Construct } from 'constructs';
import * as cdk from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';

export interface OrderProcessorProps {
  readonly table: dynamodb.ITable;
  readonly queue: sqs.IQueue;
}

export class OrderProcessor extends Construct {
  public readonly fn: lambda.Function;

  constructor(scope: Construct, id: string, props: OrderProcessorProps) {
    super(scope, id);
    this.fn = new lambda.Function(this, 'Fn', {
      runtime: lambda.Runtime.NODEJS_20_X,
      handler: 'index.handler',
      code: lambda.Code.fromAsset(path.join(__dirname, '../../lambda/order-processor')),
      timeout: cdk.Duration.seconds(60),
      environment: { TABLE_NAME: props.table.tableName },
    });
    props.table.grantWriteData(this.fn);
    this.fn.addEventSource(new SqsEventSource(props.queue, { batchSize: 10 }));
  }
}
