import { resolvers } from '../resolvers';

const ctx = () => ({
  carts: new Map([['c1', { id: 'c1', lines: [{ sku: 'A', qty: 2, unitCents: 1500 }], couponCode: null }]]),
});

describe('Cart.subtotal', () => {
  it('sums line totals', async () => {
    const cart = ctx().carts.get('c1')!;
    const subtotal = await (resolvers.Cart as any).subtotal(cart, {}, ctx());
    expect(subtotal).toEqual({ cents: 3000, currency: 'EUR' });
  });
});

describe('Mutation.addLine', () => {
  it('appends a line to the cart', async () => {
    const c = ctx();
    const res = await (resolvers.Mutation as any).addLine({}, { cartId: 'c1', sku: 'B', qty: 1 }, c);
    expect(res.cart.lines).toHaveLength(2);
  });
});
