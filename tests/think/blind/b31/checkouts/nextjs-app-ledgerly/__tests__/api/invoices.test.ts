/** @jest-environment node */
import { POST } from "@/app/api/invoices/route"

jest.mock("@/lib/db", () => ({ db: { invoice: { create: jest.fn(async ({ data }) => ({ id: "inv_1", ...data })) } } }))

describe("POST /api/invoices", () => {
  it("creates an invoice", async () => {
    const res = await POST(new Request("http://x/api/invoices", { method: "POST", body: JSON.stringify({ customerId: "c_1", amountCents: 1200 }) }))
    expect(res.status).toBe(201)
  })
})
