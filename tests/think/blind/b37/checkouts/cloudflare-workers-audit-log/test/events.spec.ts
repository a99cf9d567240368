import { SELF, env, applyD1Migrations } from "cloudflare:test";
import { beforeAll, describe, it, expect } from "vitest";

beforeAll(async () => {
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
});

describe("events", () => {
  it("accepts an event", async () => {
    const res = await SELF.fetch("https://audit.test/events", { method: "POST", body: JSON.stringify({ actor: "u1", action: "login" }) });
    expect(res.status).toBe(202);
  });
});
