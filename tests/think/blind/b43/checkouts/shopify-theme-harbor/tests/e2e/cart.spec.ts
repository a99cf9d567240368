import { test, expect } from '@playwright/test';

test('adds a product to the cart', async ({ page }) => {
  await page.goto('/products/waxed-canvas-tote');
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.locator('cart-drawer')).toHaveClass(/active/);
});
