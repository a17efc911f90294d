// The panel's entry: in the tray app the preload's IPC bridge carries the control API; served by the core, loopback
// HTTP with the token the page was opened with.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { ControlBridge } from '../shared/control/ipc.js';
import { App } from './app.js';
import { bridgeClient } from './connect/bridge-client.js';
import { loopbackClient } from './connect/loopback.js';

declare global {
  interface Window {
    /** Present only in the app's panel window (electron/preload). */
    chromeMcp?: ControlBridge;
  }
}

const client = window.chromeMcp ? bridgeClient(window.chromeMcp) : loopbackClient();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    {client ? (
      <App client={client} />
    ) : (
      <main className="no-token">
        <h1>Chrome MCP</h1>
        <p>
          This page needs the key of the running chrome-mcp. Open it with <code>chrome-mcp ui</code>.
        </p>
      </main>
    )}
  </StrictMode>,
);
