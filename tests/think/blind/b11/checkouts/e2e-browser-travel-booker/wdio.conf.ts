export const config: WebdriverIO.Config = {
  runner: 'local',
  specs: ['./test/specs/**/*.e2e.ts'],
  maxInstances: 2,
  capabilities: [{ browserName: 'chrome', 'goog:chromeOptions': { args: ['--headless=new'] } }],
  logLevel: 'warn',
  baseUrl: process.env.E2E_BASE_URL ?? 'https://staging.internal.travel-booker.dev',
  waitforTimeout: 15000,
  framework: 'mocha',
  reporters: ['spec'],
  mochaOpts: { ui: 'bdd', timeout: 120000 },
};
