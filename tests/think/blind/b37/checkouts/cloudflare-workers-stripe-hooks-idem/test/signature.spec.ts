import { describe, it, expect } from "vitest";
import { parseHeader } from "../src/signature";

describe("parseHeader", () => {
  it("reads t and v1", () => {
    expect(parseHeader("t=1,v1=abc,v1=def")).toEqual({ t: 1, v1: ["abc", "def"] });
  });
  it("handles no v1", () => {
    expect(parseHeader("t=5")).toEqual({ t: 5, v1: [] });
  });
});
