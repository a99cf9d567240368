import { describe, expect, test } from "bun:test";
import { slugify } from "../src/slugify";

describe("slugify", () => {
  test("basic", () => expect(slugify("Hello World")).toBe("hello-world"));
  test("accents", () => expect(slugify("Crème brûlée")).toBe("creme-brulee"));
  test("custom separator", () => expect(slugify("a b", { separator: "_" })).toBe("a_b"));
  test("keeps case", () => expect(slugify("Foo Bar", { lower: false })).toBe("Foo-Bar"));
});
