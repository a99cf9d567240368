import { test } from "node:test";
import assert from "node:assert/strict";
import { readableDate, excerpt } from "../src/_11ty/filters.js";

test("readableDate formats UTC dates", () => {
  assert.equal(readableDate(new Date("2025-01-05T00:00:00Z")), "5 January 2025");
});

test("excerpt strips tags and truncates", () => {
  assert.equal(excerpt("<p>one two three</p>", 2), "one two…");
});
