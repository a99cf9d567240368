import { SELF } from "cloudflare:test";
import { describe, it, expect } from "vitest";
import { signedHeaders } from "./helpers";

describe("POST /stripe/webhook", () => {
  it("accepts a signed event", async () => {
    const body = JSON.stringify({ id: "evt_1", type: "invoice.paid" });
    const res = await SELF.fetch("https://hooks.test/stripe/webhook", { method: "POST", body, headers: await signedHeaders(body) });
    expect(res.status).toBe(200);
  });

  it("rejects a missing signature", async () => {
    const res = await SELF.fetch("https://hooks.test/stripe/webhook", { method: "POST", body: "{}" });
    expect(res.status).toBe(400);
  });
});
