import { expect, test } from '@playwright/test';

test('cart page shows subtotal', async ({ page }) => {
	await page.goto('/cart');
	await expect(page.getByTestId('subtotal')).toBeVisible();
});
