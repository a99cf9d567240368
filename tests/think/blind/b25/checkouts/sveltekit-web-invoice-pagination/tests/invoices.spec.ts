import { expect, test } from '@playwright/test';

test('invoice list renders', async ({ page }) => {
	await page.goto('/invoices');
	await expect(page.getByRole('table')).toBeVisible();
});
