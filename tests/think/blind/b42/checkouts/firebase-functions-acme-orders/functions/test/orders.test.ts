import { expect } from "chai";
import request from "supertest";
import functionsTest from "firebase-functions-test";

const fft = functionsTest({ projectId: "demo-acme" });
import { api } from "../src/index";

describe("api /orders", () => {
  after(() => fft.cleanup());

  it("creates an order", async () => {
    const res = await request(api).post("/orders").send({ cartId: "c1", items: [{ sku: "A1", qty: 2 }] });
    expect(res.status).to.equal(201);
    expect(res.body.id).to.be.a("string");
  });

  it("rejects an empty cart", async () => {
    const res = await request(api).post("/orders").send({ cartId: "c1", items: [] });
    expect(res.status).to.equal(400);
  });
});
