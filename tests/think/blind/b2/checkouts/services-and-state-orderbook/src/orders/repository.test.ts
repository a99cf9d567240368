import { PrismaClient, OrderStatus } from "@prisma/client";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { OrderRepository } from "./repository";

const db = new PrismaClient();
const repo = new OrderRepository(db);

beforeEach(async () => {
  await db.order.deleteMany();
});

afterAll(async () => {
  await db.$disconnect();
});

describe("OrderRepository", () => {
  it("marks an order paid", async () => {
    const order = await db.order.create({ data: { customerId: "c1", totalCents: 1200 } });
    const paid = await repo.markPaid(order.id);
    expect(paid.status).toBe(OrderStatus.PAID);
  });

  it("returns null for an unknown id", async () => {
    expect(await repo.findById("nope")).toBeNull();
  });
});
