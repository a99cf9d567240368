'use strict';
const { DynamoDBClient } = require('@aws-sdk/client-dynamodb');
const { DynamoDBDocumentClient, PutCommand } = require('@aws-sdk/lib-dynamodb');
const { randomUUID } = require('node:crypto');

const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));

module.exports.handler = async (event) => {
  const body = JSON.parse(event.body || '{}');
  const order = { id: randomUUID(), items: body.items || [], createdAt: new Date().toISOString() };
  await ddb.send(new PutCommand({ TableName: process.env.ORDERS_TABLE, Item: order }));
  return { statusCode: 201, body: JSON.stringify(order) };
};
