import { describe, expect, it } from 'vitest';
import { applyDiscount, subtotal } from '../cart';

describe('subtotal', () => {
  it('sums price * qty', () => {
    expect(subtotal([{ sku: 'a', priceCents: 1250, qty: 2 }, { sku: 'b', priceCents: 500, qty: 1 }])).toBe(3000);
  });
});

describe('applyDiscount', () => {
  it('returns the subtotal without a code', () => {
    expect(applyDiscount(3000)).toBe(3000);
  });
  it('applies fixed codes case-insensitively', () => {
    expect(applyDiscount(3000, 'off10')).toBe(2000);
  });
  it('never goes below zero', () => {
    expect(applyDiscount(800, 'OFF10')).toBe(0);
  });
  it('ignores unknown codes', () => {
    expect(applyDiscount(3000, 'BOGUS')).toBe(3000);
  });
});
