const { mockClient } = require('aws-sdk-client-mock');
const { DynamoDBDocumentClient, PutCommand } = require('@aws-sdk/lib-dynamodb');
const { handler } = require('../../src/handlers/createOrder');

const ddbMock = mockClient(DynamoDBDocumentClient);

beforeEach(() => ddbMock.reset());

test('creates an order and returns 201', async () => {
  ddbMock.on(PutCommand).resolves({});
  const res = await handler({ body: JSON.stringify({ items: [{ sku: 'A1', quantity: 2 }] }) });
  expect(res.statusCode).toBe(201);
  expect(ddbMock.commandCalls(PutCommand)).toHaveLength(1);
});
