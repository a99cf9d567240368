import { describe, it, expect } from "vitest"
import { p95 } from "./metrics"

describe("p95", () => {
  it("returns the 95th percentile", () => {
    expect(p95([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20])).toBe(19)
  })
})
