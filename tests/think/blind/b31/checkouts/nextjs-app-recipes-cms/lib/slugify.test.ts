import { slugify } from "./slugify"

describe("slugify", () => {
  it("lowercases and hyphenates", () => {
    expect(slugify("Lemon Drizzle Cake")).toBe("lemon-drizzle-cake")
  })
  it("strips punctuation", () => {
    expect(slugify("Mac & Cheese!")).toBe("mac-cheese")
  })
})
