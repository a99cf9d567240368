import { expect, test } from '@playwright/test';

test.describe('cart', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/products/trail-runner');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.goto('/cart');
  });

  test('shows the subtotal', async ({ page }) => {
    await expect(page.getByTestId('cart-total')).toHaveText('$89.00');
  });

  test('applies a fixed discount code', async ({ page }) => {
    await page.getByLabel('Discount code').fill('OFF10');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByTestId('cart-total')).toHaveText('$79.00');
  });
});
