// Pairing by code through the popup, against the real bridge: the person types the code from `chrome-mcp pair`,
// the worker dials with it, keeps the secret the core answers with, and the popup shows the link; a wrong code
// later leaves the existing pairing working.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BridgeServer } from '../../electron/core/bridge/bridge-server.js';
import type { ExtensionLink } from '../../electron/core/bridge/extension-link.js';
import { startExtensionBrowser, type ExtensionBrowser } from '../support/extension-browser.js';
import { TEST_POLICY } from '../support/test-policy.js';
import { FakeAuth } from '../bridge/support/fake-auth.js';
import { until } from './support/until.js';

let auth: FakeAuth;
let bridge: BridgeServer;
let browser: ExtensionBrowser;

beforeAll(async () => {
  auth = new FakeAuth();
  bridge = await BridgeServer.start({ port: 0, auth, log: () => undefined, policy: () => TEST_POLICY });
  browser = await startExtensionBrowser();
  // The port, as an install would leave it; no secret yet, and no native host here.
  await browser.seed({ port: bridge.port });
});

afterAll(async () => {
  await browser?.close();
  await bridge?.close();
});

describe('pairing with a code in the popup', () => {
  it('shows "not paired", pairs with the code, keeps the new secret, and shows the link', async () => {
    const popup = await browser.openPage('popup.html');
    const headline = () => popup.evaluate<string>('document.getElementById("state").textContent');
    expect(await until(headline, (text) => text === 'Not paired with the app')).toBe('Not paired with the app');

    auth.code = 'K7Q2-9XRT';
    const linked = new Promise<ExtensionLink>((resolve) => bridge.once('connected', resolve));
    await popup.evaluate(
      `document.getElementById('code').value = ' K7Q2-9XRT '; document.getElementById('pair-form').requestSubmit()`,
    );
    expect(
      await until(
        () => popup.evaluate<string>('document.getElementById("result").textContent'),
        (text) => text !== 'Pairing…',
      ),
    ).toBe('Paired.');
    await linked;

    const stored = await browser.evaluate<{ bridge: { port: number; secret: string } }>(
      'chrome.storage.local.get("bridge")',
    );
    expect(stored.bridge).toEqual({ port: bridge.port, secret: auth.current });
    expect(await until(headline, (text) => text.startsWith('Connected'))).toBe('Connected to the Chrome MCP app');
    expect(await popup.evaluate<string>('document.getElementById("port").textContent')).toBe(`Port ${bridge.port}`);
    expect(await bridge.link()?.ping(2_000)).toBe(true);
    await popup.close();
  });

  it('says so when the code is wrong, and goes back to the secret it has', async () => {
    const popup = await browser.openPage('popup.html');
    const relinked = new Promise<ExtensionLink>((resolve) => bridge.once('connected', resolve));
    await popup.evaluate(
      `document.getElementById('code').value = 'WRONG-CODE'; document.getElementById('pair-form').requestSubmit()`,
    );
    const result = await until(
      () => popup.evaluate<string>('document.getElementById("result").textContent'),
      (text) => text !== 'Pairing…',
    );
    expect(result).toMatch(/refused the code/);
    await relinked;
    expect(await bridge.link()?.ping(2_000)).toBe(true);
    await popup.close();
  });
});
