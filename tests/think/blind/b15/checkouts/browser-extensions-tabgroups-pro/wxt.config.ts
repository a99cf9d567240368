import { defineConfig } from 'wxt';

export default defineConfig({
  modules: ['@wxt-dev/module-react'],
  manifest: {
    name: 'TabGroups Pro',
    permissions: ['tabs', 'tabGroups', 'storage'],
  },
});
