import { describe, expect, it, vi } from "vitest";
import { totalCents } from "../src/services/invoices";

describe("totalCents", () => {
  it("sums line items", () => {
    expect(totalCents([{ qty: 2, unitCents: 150 }, { qty: 1, unitCents: 99 }])).toBe(399);
  });
});
