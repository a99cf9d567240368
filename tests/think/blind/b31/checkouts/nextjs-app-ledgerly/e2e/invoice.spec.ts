import { test, expect } from "@playwright/test"

test("lists invoices", async ({ page }) => {
  await page.goto("/invoices")
  await expect(page.getByRole("heading", { name: "Invoices" })).toBeVisible()
})
