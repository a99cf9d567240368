import { describe, it, expect, vi } from 'vitest';
import { updateLine } from '../src/ts/cart';

describe('updateLine', () => {
  it('returns the cart items', async () => {
    global.fetch = vi.fn(async () => ({ json: async () => ({ items: [{ key: 'a', quantity: 1, final_line_price: 1200 }] }) })) as any;
    const items = await updateLine('a', 1);
    expect(items).toHaveLength(1);
  });
});
