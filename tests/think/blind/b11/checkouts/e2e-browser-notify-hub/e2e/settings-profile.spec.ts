import { expect, test } from '@playwright/test';
import { mockApi } from './fixtures/mock-api';

test.describe('settings / profile', () => {
  test.beforeEach(async ({ page }) => {
    await mockApi(page);
    await page.goto('/settings/profile');
  });

  test('saves display name', async ({ page }) => {
    await page.getByLabel('Display name').fill('Grace H.');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('status')).toHaveText('Saved');
  });

  test('rejects an empty display name', async ({ page }) => {
    await page.getByLabel('Display name').fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('alert')).toHaveText('Display name is required');
  });
});
