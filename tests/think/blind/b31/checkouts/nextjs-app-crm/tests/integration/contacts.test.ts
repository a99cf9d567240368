import { describe, it, expect } from "vitest"
import { listContacts } from "@/lib/contacts"

describe("listContacts", () => {
  it("returns seeded contacts ordered by lastContactedAt desc", async () => {
    const rows = await listContacts({})
    expect(rows[0].email).toBe("ada@example.com")
  })
})
