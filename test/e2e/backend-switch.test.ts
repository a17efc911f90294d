// Per-call backend selection end to end (--browser auto): the fallback serves until the extension pairs, the
// extension takes over, a handle from the other backend reads STALE_TAB (never a wrong tab), and when the person's
// Chrome goes away the fallback serves again.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatusReport } from '../../electron/core/mcp/status.js';
import { until } from '../extension/support/until.js';
import { CLI, envWithoutKeychain, runCli } from '../pairing/support/cli.js';
import { startExtensionBrowser, type ExtensionBrowser } from '../support/extension-browser.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { textOf } from '../support/tool-result.js';
import { TEST_POLICY_FLAGS } from '../support/test-policy.js';
import { removeDir } from '../support/remove-dir.js';

let fixtures: FixtureServer;
let client: Client;
let dataDir: string;
let browser: ExtensionBrowser | undefined;

async function status(): Promise<StatusReport> {
  return (await client.callTool({ name: 'status', arguments: {} })).structuredContent as unknown as StatusReport;
}

async function call(name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  return { text: textOf(result), isError: result.isError === true };
}

beforeAll(async () => {
  fixtures = await startFixtureServer();
  dataDir = mkdtempSync(join(tmpdir(), 'chrome-mcp-switch-'));
  client = new Client({ name: 'e2e-switch', version: '1' });
  const args = [CLI, '--headless', '--browser', 'auto', '--port', '0', '--data-dir', dataDir, ...TEST_POLICY_FLAGS];
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args,
      env: envWithoutKeychain() as Record<string, string>,
      stderr: 'ignore',
    }),
  );
});

afterAll(async () => {
  await client?.close();
  await browser?.close();
  await fixtures?.close();
  removeDir(dataDir);
});

describe('backend selection, per call', () => {
  it('serves from the fallback, hands over to the extension, and takes back when it leaves', async () => {
    const opened = await call('tab_new', { url: fixtures.url('mcp-hello.html') });
    expect(opened.isError, opened.text).toBe(false);
    const fallbackHandle = /opened (f[0-9a-z]{3}\.\d+)/.exec(opened.text)?.[1];
    expect(fallbackHandle).toBeDefined();
    expect((await status()).lastCall).toEqual({ backend: 'fallback', why: 'extension not connected' });

    browser = await startExtensionBrowser();
    const install = await runCli(
      ['install-native-host', '--browser-data-dir', browser.profileDir, '--data-dir', dataDir],
      { env: envWithoutKeychain() },
    );
    expect(install.code, install.stderr).toBe(0);
    await browser.openPage('popup.html');
    expect((await until(status, (report) => report.extension.connected, 15_000)).backend).toBe('extension');

    // The fallback's handle means nothing to the person's Chrome: refused as stale, not mapped to some other tab.
    const stale = await call('eval', { expression: 'document.title', tab: fallbackHandle });
    expect(stale.isError).toBe(true);
    expect(stale.text).toMatch(/^STALE_TAB: /);
    const mine = await call('tab_new', { url: fixtures.url('mcp-hello.html') });
    const extensionHandle = /opened (x[0-9a-z]{3}\.\d+)/.exec(mine.text)?.[1];
    expect(extensionHandle, mine.text).toBeDefined();
    expect((await status()).lastCall?.backend).toBe('extension');

    await browser.close();
    browser = undefined;
    expect((await until(status, (report) => !report.extension.connected, 15_000)).backend).toBe('fallback');
    const back = await call('eval', { expression: 'document.title', tab: extensionHandle });
    expect(back.text).toMatch(/^STALE_TAB: /);
    const served = await call('eval', { expression: 'document.title', tab: fallbackHandle });
    expect(served.isError, served.text).toBe(false);
    expect(served.text).toContain('Hello from the fixture');
    expect((await status()).lastCall).toEqual({ backend: 'fallback', why: 'extension not connected' });
  });
});
