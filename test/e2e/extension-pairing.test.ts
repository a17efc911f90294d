// Pairing from the panel, end to end: the built `chrome-mcp` with --browser extension, its loopback control API, and
// the real extension in real Chromium with no native host. `pairing.code` gives a code the person types into the
// popup; `pairing.revoke` cuts the extension off until it is paired again; the code is never written anywhere. With
// the native host installed the revoke sticks too: the host refuses the extension, whose popup says why, until the
// person asks for a code; then the host pairs it again by itself.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_FILE } from '../../electron/core/control/audit-log.js';
import { readControlFile } from '../../electron/core/control/control-file.js';
import { readLiveBridgeState } from '../../electron/core/pairing/bridge-state.js';
import { createControlClient, loopbackOrigin, type ControlClient } from '../../shared/control/client.js';
import { until } from '../extension/support/until.js';
import { CLI, envWithoutKeychain } from '../pairing/support/cli.js';
import { startExtensionBrowser, type ExtensionBrowser } from '../support/extension-browser.js';
import { startLinkedCore } from '../support/linked-core.js';
import { SecretStore } from '../../electron/core/pairing/secret-store.js';
import { NATIVE_HOST_NAME } from '../../shared/protocol/extension-id.js';
import { removeDir } from '../support/remove-dir.js';

let dataDir: string;
let client: Client;
let control: ControlClient;
let browser: ExtensionBrowser;
let chrome: string;
let code: string;
const logged: string[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'chrome-mcp-pairing-e2e-'));
  client = new Client({ name: 'pairing-e2e', version: '1' });
  // No keychain: the secret goes to the 0600 file, which the test can watch.
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, '--headless', '--browser', 'extension', '--port', '0', '--data-dir', dataDir],
    env: envWithoutKeychain() as Record<string, string>,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => logged.push(chunk.toString()));
  await client.connect(transport);
  const file = readControlFile(dataDir);
  const bridge = readLiveBridgeState(dataDir);
  if (!file || !bridge) throw new Error('chrome-mcp wrote no control.json or bridge.json');
  control = createControlClient({ origin: loopbackOrigin(file.port), token: file.token });
  browser = await startExtensionBrowser();
  // The port, as an install would leave it; no secret and no native host: the code is the only way in.
  await browser.seed({ port: bridge.port });
  chrome = /Chrome\/([\d.]+)/.exec(await browser.evaluate<string>('navigator.userAgent'))![1]!;
});

afterAll(async () => {
  await client?.close();
  await browser?.close();
  removeDir(dataDir);
});

async function popupText(popup: { evaluate<T>(expression: string): Promise<T> }, id: string): Promise<string> {
  return popup.evaluate<string>(`document.getElementById(${JSON.stringify(id)}).textContent`);
}

describe('pairing through the control API', () => {
  it('issues a code the real extension accepts; status then shows it paired and connected, with its Chrome', async () => {
    expect(await control.call('pairing.status')).toMatchObject({
      paired: false,
      store: 'none',
      connected: false,
      browser: null,
      code: null,
      revokedAt: null,
    });
    ({ code } = await control.call('pairing.code'));
    expect((await control.call('pairing.status')).code).not.toBeNull();

    const popup = await browser.openPage('popup.html');
    await popup.evaluate(
      `document.getElementById('code').value = ${JSON.stringify(code)}; document.getElementById('pair-form').requestSubmit()`,
    );
    expect(
      await until(
        () => popupText(popup, 'result'),
        (text) => text !== 'Pairing…',
      ),
    ).toBe('Paired.');
    const status = await until(
      () => control.call('pairing.status'),
      (current) => current.connected,
    );
    expect(status).toEqual({
      paired: true,
      store: 'file',
      connected: true,
      browser: { chrome, connectedAt: expect.any(Number) as number },
      code: null,
      revokedAt: null,
      extensionPath: expect.stringMatching(/dist[\\/]extension$/) as string,
    });
    expect(Date.now() - status.browser!.connectedAt).toBeLessThan(30_000);
    await popup.close();
  });

  it('revokes: the link drops at once, status shows unpaired, and the extension cannot get back in with its old secret', async () => {
    expect(await control.call('pairing.revoke')).toMatchObject({
      paired: false,
      store: 'none',
      connected: false,
      browser: null,
      code: null,
      revokedAt: expect.any(Number),
    });
    expect(existsSync(join(dataDir, 'secret.json'))).toBe(false);
    const popup = await browser.openPage('popup.html');
    expect(
      await until(
        () => popupText(popup, 'state'),
        (text) => text === 'The app refused this browser',
      ),
    ).toBe('The app refused this browser');

    // The person's "Reconnect" dials with the secret the extension still keeps: the core refuses it.
    const refusals = () => logged.join('').split('refused an extension connection').length;
    const before = refusals();
    await popup.evaluate(`document.getElementById('reconnect').click()`);
    await until(
      async () => refusals(),
      (count) => count > before,
    );
    // The core holds no secret now, so it has nothing to prove with: refused before any challenge.
    expect(logged.join('')).toMatch(/refused an extension connection: no pairing secret exists/);
    // The extension has taken the refusal (its popup says so again), so it is not about to get in by another try.
    expect(
      await until(
        () => popupText(popup, 'state'),
        (text) => text === 'The app refused this browser',
      ),
    ).toBe('The app refused this browser');
    expect(await control.call('pairing.status')).toMatchObject({ paired: false, connected: false });
    await popup.close();
  });

  it('shows pairing changes in the activity stream without the code, and writes the code to no log or audit line', async () => {
    const { events } = await control.call('activity.list');
    const pairing = events.flatMap((event) => (event.type === 'pairing' ? [event] : []));
    expect(pairing.map(({ change, chrome: version }) => ({ change, chrome: version }))).toEqual([
      { change: 'code-issued', chrome: undefined },
      { change: 'connected', chrome },
      { change: 'disconnected', chrome },
      { change: 'revoked', chrome: undefined },
    ]);
    // An agent's call, so the audit log has a line; closing the client ends the core, which flushes it.
    await client.callTool({ name: 'status', arguments: {} });
    await client.close();
    const audit = readFileSync(join(dataDir, AUDIT_FILE), 'utf8');
    expect(audit).toContain('"tool":"status"');
    const written = [JSON.stringify(events), logged.join(''), audit].join('\n');
    expect(logged.join('')).toMatch(/issued a one-time code/);
    for (const form of [code, code.replace('-', ''), code.toLowerCase()]) expect(written).not.toContain(form);
  });
});

describe('revoking with the native host installed', () => {
  // A core, a browser with the extension and native-host processes, one after another: room for a busy machine.
  it(
    'sticks: the host refuses the extension and its popup says why, until a code is asked for; then it pairs itself again',
    { timeout: 90_000 },
    async () => {
      const linked = await startLinkedCore([]);
      try {
        const old = (await new SecretStore(linked.dataDir).read())?.secret;
        expect(old).toBeDefined();
        expect(await linked.control.call('pairing.revoke')).toMatchObject({
          paired: false,
          connected: false,
          revokedAt: expect.any(Number),
        });

        // Told its secret is bad, the worker asks the host again at once; the host's refusal is what the popup shows.
        const popup = await linked.browser.openPage('popup.html');
        expect(
          await until(
            () => popupText(popup, 'state'),
            (text) => text === 'Unpaired in the app',
          ),
        ).toBe('Unpaired in the app');
        expect(await popupText(popup, 'detail')).toMatch(
          /revoked in the Chrome MCP app.*press Pair on the app's Connection screen/,
        );
        expect(
          await linked.browser.evaluate(`chrome.runtime.sendNativeMessage('${NATIVE_HOST_NAME}', { type: 'pairing' })`),
        ).toEqual({ error: 'revoked' });
        // Nothing minted a secret for it meanwhile, and it is not linked.
        expect(await linked.control.call('pairing.status')).toMatchObject({ paired: false, connected: false });
        expect(existsSync(join(linked.dataDir, 'secret.json'))).toBe(false);
        await popup.close();

        // Pair in the panel: asking for a code lifts the revoke, and the host pairs the woken extension with a new secret.
        await linked.control.call('pairing.code');
        const again = await linked.browser.openPage('popup.html');
        const back = await until(
          () => linked.control.call('pairing.status'),
          (status) => status.connected,
          15_000,
        );
        expect(back).toMatchObject({ paired: true, store: 'file', connected: true, revokedAt: null });
        const fresh = (await new SecretStore(linked.dataDir).read())?.secret;
        expect(fresh).toBeDefined();
        expect(fresh).not.toBe(old);
        expect(
          await until(
            () => popupText(again, 'state'),
            (text) => text.startsWith('Connected'),
          ),
        ).toBe('Connected to the Chrome MCP app');
        await again.close();
      } finally {
        await linked.close();
      }
    },
  );
});
