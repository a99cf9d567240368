import { test, expect } from "@playwright/test";

test("board loads", async ({ page }) => {
  await page.goto("/");
  await expect(page.locator("h1")).toHaveText("Dispatch");
});
