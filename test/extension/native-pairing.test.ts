// Pairing with no click: `chrome-mcp install-native-host` points the browser at the native host, the worker asks it,
// keeps the secret and the port it names, and dials the real bridge, which checks the secret against the real store.
import { afterAll, describe, expect, it } from 'vitest';
import { BridgeServer } from '../../electron/core/bridge/bridge-server.js';
import type { ExtensionLink } from '../../electron/core/bridge/extension-link.js';
import { createBridgeAuth } from '../../electron/core/pairing/bridge-auth.js';
import { BridgeStateFile } from '../../electron/core/pairing/bridge-state.js';
import { SecretStore } from '../../electron/core/pairing/secret-store.js';
import { startExtensionBrowser } from '../support/extension-browser.js';
import { TEST_POLICY } from '../support/test-policy.js';
import { runCli, tempDirs } from '../pairing/support/cli.js';
import { until } from './support/until.js';

const dirs = tempDirs('ext-native');
afterAll(() => dirs.cleanup());

describe('automatic pairing through the native host', () => {
  it('gets the secret and port from the host, stores them, and links to the bridge', async () => {
    const dataDir = dirs.dataDir();
    // An ephemeral port: the extension can only learn it from the host, which reads the running core's state file.
    const bridge = await BridgeServer.start({
      port: 0,
      auth: createBridgeAuth({ dataDir }),
      log: () => undefined,
      policy: () => TEST_POLICY,
    });
    const state = new BridgeStateFile(dataDir);
    state.started(bridge.port);
    const browser = await startExtensionBrowser();
    try {
      const install = await runCli([
        'install-native-host',
        '--browser-data-dir',
        browser.profileDir,
        '--data-dir',
        dataDir,
      ]);
      expect(install.code, install.stderr).toBe(0);

      // The worker asked at start, before the host was installed. Opening the popup wakes it to ask again now, as
      // its alarm would within 30 s.
      const linked = new Promise<ExtensionLink>((resolve) => bridge.once('connected', resolve));
      const popup = await browser.openPage('popup.html');
      await linked;

      const secret = (await new SecretStore(dataDir).read())?.secret;
      expect(secret).toBeDefined();
      const stored = await browser.evaluate<{ bridge: unknown }>('chrome.storage.local.get("bridge")');
      expect(stored.bridge).toEqual({ port: bridge.port, secret });
      const headline = () => popup.evaluate<string>('document.getElementById("state").textContent');
      expect(await until(headline, (text) => text.startsWith('Connected'))).toBe('Connected to the Chrome MCP app');
    } finally {
      await browser.close();
      state.stopped();
      await bridge.close();
    }
  });
});
