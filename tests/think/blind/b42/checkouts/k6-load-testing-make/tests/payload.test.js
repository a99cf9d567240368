import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cartPayload, cartTotal } from '../lib/payload.js';

test('cartPayload defaults to a single t-shirt', () => {
  assert.deepEqual(cartPayload(), { currency: 'EUR', items: [{ sku: 'TSHIRT-001', qty: 1 }] });
});

test('cartTotal sums price * qty', () => {
  assert.equal(cartTotal([{ sku: 'MUG-014', qty: 2 }, { sku: 'CAP-003', qty: 1 }]), 4197);
});
