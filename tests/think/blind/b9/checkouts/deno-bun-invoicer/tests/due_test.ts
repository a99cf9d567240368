import { assertEquals } from "@std/assert";
import { dueDate } from "../src/due.ts";

Deno.test("net30", () => {
  assertEquals(dueDate(new Date("2025-01-01"), "net30").toISOString().slice(0, 10), "2025-01-31");
});
