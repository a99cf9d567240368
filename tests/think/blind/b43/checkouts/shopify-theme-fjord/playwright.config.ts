import { defineConfig, devices } from '@playwright/test';

export default defineConfig({
  testDir: './tests/e2e',
  timeout: 30_000,
  use: { baseURL: process.env.PREVIEW_URL ?? 'http://127.0.0.1:9292' },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
});
