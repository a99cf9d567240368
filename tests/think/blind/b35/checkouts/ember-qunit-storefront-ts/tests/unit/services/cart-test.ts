import { module, test } from 'qunit';
import { setupTest } from 'storefront-ts/tests/helpers';
import type CartService from 'storefront-ts/services/cart';

module('Unit | Service | cart', function (hooks) {
  setupTest(hooks);

  test('add increments quantity for an existing sku', function (assert) {
    const cart = this.owner.lookup('service:cart') as CartService;
    cart.add('A1', 500);
    cart.add('A1', 500);
    assert.strictEqual(cart.itemCount, 2);
  });
});
