export class CartDrawer {
  constructor(el) {
    this.el = el;
    this.bubble = el.querySelector('.cart-count-bubble span');
  }

  async updateQuantity(key, quantity) {
    const res = await fetch('/cart/change.js', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ id: key, quantity }),
    });
    const cart = await res.json();
    this.bubble.textContent = String(cart.item_count);
    return cart;
  }
}
