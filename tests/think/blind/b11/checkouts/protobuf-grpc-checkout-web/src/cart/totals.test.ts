import Long from "long";
import { describe, expect, it } from "vitest";
import { lineTotalCents, subtotalCents } from "./totals";

const line = (cents: number, quantity: number) =>
  ({ sku: "X", unitPriceCents: Long.fromNumber(cents), quantity }) as any;

describe("totals", () => {
  it("multiplies unit price by quantity", () => {
    expect(lineTotalCents(line(250, 3))).toBe(750);
  });
  it("sums lines", () => {
    expect(subtotalCents([line(100, 1), line(50, 2)])).toEqual(200n);
  });
});
