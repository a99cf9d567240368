import { describe, it, expect, vi, beforeEach } from "vitest"

vi.mock("@/lib/db", () => ({ db: { coupon: { findUnique: vi.fn() } } }))
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }))

import { applyCoupon } from "./actions"
import { db } from "@/lib/db"

describe("applyCoupon", () => {
  beforeEach(() => vi.clearAllMocks())

  it("returns the percentage discount for a known code", async () => {
    vi.mocked(db.coupon.findUnique).mockResolvedValue({ code: "SPRING10", percentOff: 10, expiresAt: null } as any)
    await expect(applyCoupon("SPRING10", 5000)).resolves.toEqual({ ok: true, amountOff: 500 })
  })

  it("rejects unknown codes", async () => {
    vi.mocked(db.coupon.findUnique).mockResolvedValue(null)
    await expect(applyCoupon("NOPE", 5000)).resolves.toEqual({ ok: false, reason: "unknown" })
  })
})
