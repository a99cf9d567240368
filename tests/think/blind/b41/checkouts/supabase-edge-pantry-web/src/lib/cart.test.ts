import { describe, expect, it } from "vitest";
import { cartTotal } from "./cart";

describe("cartTotal", () => {
  it("sums line items", () => {
    expect(cartTotal([{ price_cents: 250, qty: 2 }, { price_cents: 100, qty: 1 }])).toBe(600);
  });

  it("adds tax", () => {
    expect(cartTotal([{ price_cents: 1000, qty: 1 }], { taxRate: 0.1 })).toBe(1100);
  });
});
