import { describe, it, expect } from "vitest"
import { priceFor } from "./pricing"

describe("priceFor", () => {
  it("returns monthly list price", () => {
    expect(priceFor("team")).toBe(2900)
  })
})
