import { test, expect } from '@playwright/test';

test('shows an error when the variant is sold out', async ({ page }) => {
  await page.goto('/products/trail-shell-jacket?variant=4471203');
  await page.getByRole('button', { name: /add to cart/i }).click();
  await expect(page.locator('.product-form__error-message')).toBeVisible();
});
