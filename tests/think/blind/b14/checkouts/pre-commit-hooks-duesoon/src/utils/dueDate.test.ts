import { describe, expect, it } from "vitest";
import { dueDate } from "./dueDate";

describe("dueDate", () => {
  it("adds net days", () => {
    expect(dueDate(new Date("2026-03-02"), 30)).toEqual(new Date("2026-04-01"));
  });
});
