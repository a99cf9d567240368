import { describe, it, expect, vi, beforeEach } from 'vitest';
import { CartDrawer } from '../../src/js/cart-drawer.js';

describe('CartDrawer', () => {
  beforeEach(() => {
    document.body.innerHTML = '<cart-drawer><div class="cart-count-bubble"><span>0</span></div></cart-drawer>';
    global.fetch = vi.fn(() => Promise.resolve({ ok: true, json: () => Promise.resolve({ item_count: 2, items: [] }) }));
  });

  it('updates the count bubble after a quantity change', async () => {
    const drawer = new CartDrawer(document.querySelector('cart-drawer'));
    await drawer.updateQuantity('40123:abc', 2);
    expect(document.querySelector('.cart-count-bubble span').textContent).toBe('2');
  });

  it('posts to /cart/change.js', async () => {
    const drawer = new CartDrawer(document.querySelector('cart-drawer'));
    await drawer.updateQuantity('40123:abc', 3);
    expect(fetch).toHaveBeenCalledWith('/cart/change.js', expect.objectContaining({ method: 'POST' }));
  });
});
