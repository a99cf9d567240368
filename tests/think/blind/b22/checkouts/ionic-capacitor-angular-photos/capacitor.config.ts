import type { CapacitorConfig } from '@capacitor/cli';

const config: CapacitorConfig = {
  appId: 'app.snapjournal',
  appName: 'SnapJournal',
  webDir: 'www'
};

export default config;
