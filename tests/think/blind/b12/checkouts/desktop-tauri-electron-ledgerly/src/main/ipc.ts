import { ipcMain } from 'electron';
import { getDb } from './db';

export function registerIpc(): void {
  ipcMain.handle('ledgers:list', () => getDb().prepare('SELECT * FROM ledgers ORDER BY name').all());
  ipcMain.handle('ledgers:create', (_e, name: string) =>
    getDb().prepare('INSERT INTO ledgers (name) VALUES (?)').run(name),
  );
}
