import { contextBridge, ipcRenderer } from 'electron';

const api = {
  listLedgers: () => ipcRenderer.invoke('ledgers:list'),
  createLedger: (name: string) => ipcRenderer.invoke('ledgers:create', name),
};

contextBridge.exposeInMainWorld('api', api);
export type Api = typeof api;
