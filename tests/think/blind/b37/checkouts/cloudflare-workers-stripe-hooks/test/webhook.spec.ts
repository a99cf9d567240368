import { SELF } from "cloudflare:test";
import { describe, it, expect } from "vitest";

describe("POST /stripe/webhook", () => {
  it("accepts a well-formed event", async () => {
    const res = await SELF.fetch("https://hooks.test/stripe/webhook", {
      method: "POST",
      body: JSON.stringify({ id: "evt_1", type: "invoice.paid" }),
    });
    expect(res.status).toBe(200);
  });
});
