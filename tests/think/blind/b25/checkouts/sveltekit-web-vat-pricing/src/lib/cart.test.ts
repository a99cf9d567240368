import { describe, expect, it } from 'vitest';
import { subtotal } from './cart';

describe('subtotal', () => {
	it('sums lines', () => {
		expect(subtotal([{ sku: 'a', unitCents: 1000, qty: 2 }, { sku: 'b', unitCents: 250, qty: 1 }])).toBe(2250);
	});

	it('is zero for an empty cart', () => {
		expect(subtotal([])).toBe(0);
	});
});
