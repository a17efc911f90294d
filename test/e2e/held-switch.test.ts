// A held act's decision reaches the backend that held it, end to end (--browser auto): a send held in the fallback is
// sent from the fallback's tab when the person presses Send after the extension has connected; one held in the
// person's Chrome is marked gone, saying why, as soon as that Chrome goes away, and nothing is sent; so is one held in the
// fallback browser when that browser goes away.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readControlFile } from '../../electron/core/control/control-file.js';
import type { StatusReport } from '../../electron/core/mcp/status.js';
import { createControlClient, loopbackOrigin, type ControlClient } from '../../shared/control/client.js';
import { until } from '../extension/support/until.js';
import { CLI, envWithoutKeychain, runCli } from '../pairing/support/cli.js';
import { startExtensionBrowser, type ExtensionBrowser } from '../support/extension-browser.js';
import { startGateSite, type GateSite } from '../support/gate-site.js';
import { testServerFlags } from '../support/test-policy.js';
import { textOf } from '../support/tool-result.js';
import { removeDir } from '../support/remove-dir.js';

let site: GateSite;
let client: Client;
let control: ControlClient;
let dataDir: string;
let browser: ExtensionBrowser | undefined;

async function status(): Promise<StatusReport> {
  return (await client.callTool({ name: 'status', arguments: {} })).structuredContent as unknown as StatusReport;
}

async function call(name: string, args: Record<string, unknown>): Promise<string> {
  return textOf(await client.callTool({ name, arguments: args }));
}

/** The writes the site received before a sentinel GET, loaded afterwards in a fresh tab of the serving backend. */
async function writesBeforeSentinel(): Promise<string[]> {
  const before = site.received.length;
  await call('tab_new', { url: site.url(`sentinel-${before}`) });
  await site.arrival(`/sentinel-${before}`, before);
  return site.received
    .slice(0, before)
    .filter((entry) => entry.method !== 'GET')
    .map((entry) => `${entry.method} ${entry.path}`);
}

/** The fallback browser's main process: the one on the server's own profile that is no helper (`--type=`) of it. */
function fallbackBrowserPid(): number | undefined {
  const profile = `--user-data-dir=${join(dataDir, 'fallback-profile')}`;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let args: string[];
    try {
      args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (args.includes(profile) && !args.some((arg) => arg.startsWith('--type='))) return Number(entry);
  }
  return undefined;
}

beforeAll(async () => {
  site = await startGateSite();
  dataDir = mkdtempSync(join(tmpdir(), 'chrome-mcp-held-switch-'));
  client = new Client({ name: 'e2e-held-switch', version: '1' });
  // 127.0.0.1 may be acted on, not trusted: its risky acts wait for the person.
  const args = [
    CLI,
    '--headless',
    '--browser',
    'auto',
    '--port',
    '0',
    '--data-dir',
    dataDir,
    ...testServerFlags('act', ['127.0.0.1']),
  ];
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args,
      env: envWithoutKeychain() as Record<string, string>,
      stderr: 'ignore',
    }),
  );
  const file = readControlFile(dataDir);
  if (!file) throw new Error('chrome-mcp wrote no control.json');
  control = createControlClient({ origin: loopbackOrigin(file.port), token: file.token });
});

afterAll(async () => {
  await client?.close();
  await browser?.close();
  await site?.close();
  removeDir(dataDir);
});

describe('a held act across a backend switch', () => {
  it("held in the fallback, is sent from the fallback's tab once the extension serves", async () => {
    await call('tab_new', { url: site.url('gate-mail.html') });
    expect(await call('click', { selector: '#send' })).toMatch(/^HELD: .*\(held as f\S+\)/);
    expect((await status()).lastCall?.backend).toBe('fallback');

    browser = await startExtensionBrowser();
    const install = await runCli(
      ['install-native-host', '--browser-data-dir', browser.profileDir, '--data-dir', dataDir],
      { env: envWithoutKeychain() },
    );
    expect(install.code, install.stderr).toBe(0);
    const popup = await browser.openPage('popup.html');
    expect((await until(status, (report) => report.extension.connected, 15_000)).backend).toBe('extension');
    await popup.close();

    const [act] = (await control.call('held.list')).held;
    expect(act).toMatchObject({ method: 'POST', tool: 'click' });
    expect((await control.call('held.decide', { id: act!.id, release: true })).outcome).toBe('released');
    expect(JSON.parse((await site.arrival('/api/messages')).body)).toMatchObject({ to: 'alice@example.com' });
    expect(site.received.filter((entry) => entry.path === '/api/messages')).toHaveLength(1);
    // Starting and pairing a second browser is slow on a loaded machine; the bound is only for a hang.
  }, 120_000);

  it("held in the person's Chrome, is marked gone with why once that Chrome goes away, and never sent", async () => {
    site.received.length = 0;
    await call('tab_new', { url: site.url('gate-mail.html?in=chrome') });
    expect(await call('click', { selector: '#send' })).toMatch(/^HELD: .*\(held as x\S+\)/);
    const [act] = (await control.call('held.list')).held;
    const { next } = await control.call('activity.list', { limit: 1 });
    await browser!.close();
    browser = undefined;
    await until(
      () => control.call('held.list'),
      (list) => list.held.length === 0,
      15_000,
    );
    const { events } = await control.call('activity.list', { since: next });
    const gone = events.find((event) => event.type === 'held' && event.change === 'gone');
    expect(gone).toMatchObject({
      act: { id: act!.id },
      why: expect.stringContaining("the link to the person's Chrome that held it ended"),
    });
    expect(
      (await control.call('held.decide', { id: act!.id, release: true }).catch((error: unknown) => error)) as object,
    ).toMatchObject({ code: 'NOT_FOUND' });
    expect(await writesBeforeSentinel()).toEqual([]);
  });

  it('held in the fallback, is marked gone with why once that browser goes away, and never sent', async () => {
    site.received.length = 0;
    await call('tab_new', { url: site.url('gate-mail.html?in=fallback') });
    expect(await call('click', { selector: '#send' })).toMatch(/^HELD: .*\(held as f\S+\)/);
    const [act] = (await control.call('held.list')).held;
    const { next } = await control.call('activity.list', { limit: 1 });
    // The browser this server launched, killed as a crash or the person quitting it would end it.
    process.kill(fallbackBrowserPid()!, 'SIGKILL');
    const left = await until(
      () => control.call('held.list'),
      (list) => list.held.length === 0,
      15_000,
    );
    expect(left.held).toEqual([]);
    const { events } = await control.call('activity.list', { since: next });
    expect(events.find((event) => event.type === 'held' && event.change === 'gone')).toMatchObject({
      act: { id: act!.id },
      why: expect.stringContaining('the fallback browser that held it closed'),
    });
    // The next call starts a new browser, which holds nothing of the old one's.
    expect(await writesBeforeSentinel()).toEqual([]);
  });
});
