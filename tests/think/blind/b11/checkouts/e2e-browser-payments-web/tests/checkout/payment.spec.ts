import { expect, test } from '@playwright/test';

test.describe('payment', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/checkout?cart=fixture-basic');
  });

  test('pays with a valid card', async ({ page }) => {
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM/YY)').fill('12/29');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: /Pay/ }).click();
    await expect(page).toHaveURL(/\/checkout\/done/);
  });

  test('shows expired-card error', async ({ page }) => {
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM/YY)').fill('01/20');
    await page.getByRole('button', { name: /Pay/ }).click();
    await expect(page.getByText('Card has expired')).toBeVisible();
  });
});
