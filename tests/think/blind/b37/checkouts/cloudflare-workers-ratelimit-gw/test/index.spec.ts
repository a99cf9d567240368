import { SELF } from "cloudflare:test";
import { describe, it, expect } from "vitest";

describe("gateway", () => {
  it("serves assets at /", async () => {
    const res = await SELF.fetch("https://gw.test/");
    expect(res.status).toBe(200);
  });

  it("proxies /api/health", async () => {
    const res = await SELF.fetch("https://gw.test/api/health");
    expect(res.status).toBe(200);
  });
});
