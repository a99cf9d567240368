import { ApolloServer } from '@apollo/server';
import { readFileSync } from 'node:fs';
import { resolvers } from '../resolvers';

const typeDefs = readFileSync(`${__dirname}/../schema.graphql`, 'utf8');

describe('Product.price', () => {
  it('returns the list price in cents', async () => {
    const server = new ApolloServer({ typeDefs, resolvers });
    const res = await server.executeOperation(
      { query: '{ product(id: "p1") { price { cents currency } } }' },
      { contextValue: { catalog: { get: async () => ({ id: 'p1', listPriceCents: 1999, currency: 'EUR' }) } } },
    );
    expect(res.body.kind === 'single' && res.body.singleResult.data).toEqual({
      product: { price: { cents: 1999, currency: 'EUR' } },
    });
  });
});
