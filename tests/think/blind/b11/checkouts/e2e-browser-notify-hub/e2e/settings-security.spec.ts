import { expect, test } from '@playwright/test';
import { mockApi } from './fixtures/mock-api';

test.describe('settings / security', () => {
  test.beforeEach(async ({ page }) => {
    await mockApi(page);
    await page.goto('/settings/security');
  });

  test('requires current password to change password', async ({ page }) => {
    await page.getByLabel('New password').fill('n3w-Secret!');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByRole('alert')).toContainText('Current password');
  });
});
