// The panel window's preload (sandboxed): exposes the control API as `window.chromeMcp` and nothing else.
import { contextBridge, ipcRenderer } from 'electron';
import { createBridge } from './bridge.js';

contextBridge.exposeInMainWorld('chromeMcp', createBridge(ipcRenderer));
