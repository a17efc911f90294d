// The built `chrome-mcp` over real stdio from a cold start: once the client has listed the tools the fallback browser
// starts ahead of the first call, that first call still judges its site before anything loads, a browser started ahead
// and never used goes with the server, and the audit log holds every call in order, 0600, after a clean exit.
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_FILE } from '../../electron/core/control/audit-log.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { processesMentioning } from '../support/processes.js';
import { TEST_POLICY_FLAGS } from '../support/test-policy.js';
import { textOf } from '../support/tool-result.js';
import { startWatchedSite, type WatchedSite } from '../support/watched-site.js';
import { removeDir } from '../support/remove-dir.js';

const CLI = fileURLToPath(new URL('../../dist/electron/helper/cli.js', import.meta.url));
// Wide: a browser start takes about 1.5 s on a busy two-core box, and several test files share it.
const BROWSER_MS = 30_000;
const chosenBrowser = process.env['CHROME_MCP_CHROMIUM'];
const childEnv: Record<string, string> = chosenBrowser ? { CHROME_MCP_CHROMIUM: chosenBrowser } : {};

let fixtures: FixtureServer;
let watched: WatchedSite;
const dataDirs: string[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  fixtures = await startFixtureServer();
  watched = await startWatchedSite('127.0.0.2');
});

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

afterAll(async () => {
  await fixtures?.close();
  await watched?.close();
  for (const dir of dataDirs) removeDir(dir);
});

/** A fresh server on its own data dir, its tools listed. */
async function listed(): Promise<{ client: Client; dataDir: string; profile: string; close(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'chrome-mcp-cold-'));
  dataDirs.push(dataDir);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, '--headless', '--port', '0', '--data-dir', dataDir, ...TEST_POLICY_FLAGS],
    env: childEnv,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'cold-start', version: '1' });
  await client.connect(transport);
  clients.push(client);
  const pid = transport.pid!;
  await client.listTools();
  // Closes stdin as a client leaving does, then waits for the server's process to be gone.
  const close = async () => {
    clients.splice(clients.indexOf(client), 1);
    await client.close();
    await expect.poll(() => alive(pid), { timeout: 15_000, interval: 50 }).toBe(false);
  };
  return { client, dataDir, profile: join(dataDir, 'fallback-profile'), close };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves once the browser on `profile` runs: the server started it without any call asking. */
async function browserUp(profile: string): Promise<void> {
  await expect
    .poll(() => processesMentioning(profile).length, { timeout: BROWSER_MS, interval: 50 })
    .toBeGreaterThan(0);
}

describe('cold start over stdio', () => {
  it('starts the browser once the tools are listed, and closes it with the server though no call used it', async () => {
    const { profile, close } = await listed();
    await browserUp(profile);
    await close();
    // The whole group: the browser and its helper processes.
    await expect.poll(() => processesMentioning(profile), { timeout: 10_000, interval: 50 }).toEqual([]);
  });

  it('refuses a first navigate to a site the policy blocks, sending it nothing, on the browser started ahead', async () => {
    const { client, profile } = await listed();
    await browserUp(profile);
    const refused = await client.callTool({ name: 'navigate', arguments: { url: `${watched.origin}/` } });
    expect(refused.isError).toBe(true);
    // Not allowed yet: refused, or the person asked; either way nothing loads.
    expect(textOf(refused)).toMatch(/^(POLICY_DENIED|DOMAIN_CONFIRMATION_REQUIRED): /);
    const allowed = await client.callTool({ name: 'navigate', arguments: { url: fixtures.url('guard-login.html') } });
    expect(allowed.isError, textOf(allowed)).toBeFalsy();
    await watched.settled();
    expect(watched.requests).toEqual([]);
  });

  it('leaves every call in the audit log, in order and 0600, after a clean exit', async () => {
    const { client, dataDir, close } = await listed();
    const calls = ['status', 'navigate', 'tabs', 'snapshot', 'status', 'tabs'];
    for (const name of calls) {
      const args = name === 'navigate' ? { url: fixtures.url('nav-basic.html') } : {};
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, textOf(result)).toBeFalsy();
    }
    await close();
    const file = join(dataDir, AUDIT_FILE);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { tool: string }).tool)).toEqual(calls);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});
