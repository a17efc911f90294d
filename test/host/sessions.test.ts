// One `chrome-mcp serve`, several MCP clients through their own `chrome-mcp relay`: each its own session under its own
// name and with its own current tab, listed by name for the person while connected, one ending leaves the others
// serving, a second core on the data dir refuses, and SIGTERM closes the browser.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { processesMentioning } from '../support/processes.js';
import { textOf } from '../support/tool-result.js';
import {
  cleanUpDataDirs,
  controlOf,
  coreReady,
  freshDataDir,
  initialize,
  relayClient,
  spawnRelay,
  spawnServe,
  type Served,
} from './support.js';

let fixtures: FixtureServer;
let dataDir: string;
let serve: Served;
const clients: Client[] = [];

beforeAll(async () => {
  fixtures = await startFixtureServer();
  dataDir = freshDataDir();
  serve = spawnServe(dataDir);
  await coreReady(dataDir);
});

afterAll(async () => {
  for (const client of clients) await client.close();
  // The cores first: their browsers hold keep-alive connections the fixture server would wait for.
  await cleanUpDataDirs();
  await fixtures.close();
});

async function connect(name: string): Promise<Client> {
  const { client } = await relayClient(dataDir, name);
  clients.push(client);
  return client;
}

describe('several MCP clients on one core', () => {
  it('keeps core.sock and core.json private (0600)', () => {
    expect(statSync(join(dataDir, 'core.sock')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, 'core.json')).mode & 0o777).toBe(0o600);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
  });

  it('serves two clients at once, each its own session, each seen under its own name', async () => {
    const [alpha, beta] = await Promise.all([connect('alpha-client'), connect('beta-client')]);
    const [alphaStatus, betaStatus] = await Promise.all([
      alpha.callTool({ name: 'status', arguments: {} }),
      beta.callTool({ name: 'status', arguments: {} }),
    ]);
    expect(alphaStatus.isError, textOf(alphaStatus)).toBeFalsy();
    expect(betaStatus.isError, textOf(betaStatus)).toBeFalsy();
    const [alphaTab, betaTab] = await Promise.all([
      alpha.callTool({ name: 'tab_new', arguments: { url: fixtures.url('mcp-hello.html') } }),
      beta.callTool({ name: 'tab_new', arguments: { url: fixtures.url('nav-basic.html') } }),
    ]);
    expect(alphaTab.isError, textOf(alphaTab)).toBeFalsy();
    expect(betaTab.isError, textOf(betaTab)).toBeFalsy();

    const { events } = await controlOf(dataDir).call('activity.list');
    const calls = events.flatMap((event) =>
      event.type === 'call' ? [`${event.client} ${event.tool}${event.url ? ` ${event.url}` : ''}`] : [],
    );
    expect(calls).toEqual(
      expect.arrayContaining([
        'alpha-client status',
        'beta-client status',
        `alpha-client tab_new ${fixtures.url('mcp-hello.html')}`,
        `beta-client tab_new ${fixtures.url('nav-basic.html')}`,
      ]),
    );
    // Numbered once for the core: the panel keys its list by them.
    const ids = events.flatMap((event) => (event.type === 'call' ? [event.id] : []));
    expect(new Set(ids).size).toBe(ids.length);
    const { entries } = await controlOf(dataDir).call('audit.read', { tool: 'tab_new' });
    expect(entries.map((entry) => entry.client).sort()).toEqual(['alpha-client', 'beta-client']);
  });

  it('gives each client its own current tab: two navigating at once without a tab each read their own page', async () => {
    const [left, right] = await Promise.all([connect('left-client'), connect('right-client')]);
    const navigated = await Promise.all([
      left.callTool({ name: 'navigate', arguments: { url: fixtures.url('nav-basic.html') } }),
      right.callTool({ name: 'navigate', arguments: { url: fixtures.url('nav-second.html') } }),
    ]);
    for (const result of navigated) expect(result.isError, textOf(result)).toBeFalsy();
    const titles = await Promise.all(
      [left, right].map((client) => client.callTool({ name: 'eval', arguments: { expression: 'document.title' } })),
    );
    expect(titles.map(textOf)).toEqual(['"Nav basic"', '"Nav second"']);
    // `status` names each client's own tab, not the one some client used last.
    const statuses = await Promise.all(
      [left, right].map((client) => client.callTool({ name: 'status', arguments: {} })),
    );
    expect(textOf(statuses[0]!)).toMatch(/\ntab: \S+ \S+nav-basic\.html "Nav basic"/);
    expect(textOf(statuses[1]!)).toMatch(/\ntab: \S+ \S+nav-second\.html "Nav second"/);
  });

  it("ends only its own session on a relay's stdin EOF: the relay exits 0, the other client keeps working", async () => {
    const staying = await connect('staying-client');
    const leaving = spawnRelay(dataDir);
    const answer = await initialize(leaving.rpc, 'leaving-client');
    expect(answer['result']).toMatchObject({ serverInfo: { name: 'chrome-mcp' } });
    const listed = await leaving.rpc.request('tools/list');
    expect(JSON.stringify(listed)).toContain('"snapshot"');

    leaving.stdin.end();
    expect(await leaving.exited).toBe(0);
    // The relay wrote nothing but the core's own JSON-RPC lines.
    expect(leaving.rpc.lines.length).toBe(2);
    for (const line of leaving.rpc.lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });

    const status = await staying.callTool({ name: 'status', arguments: {} });
    expect(status.isError, textOf(status)).toBeFalsy();
    const opened = await staying.callTool({ name: 'tab_new', arguments: { url: fixtures.url('mcp-hello.html') } });
    expect(textOf(opened)).toContain('Hello from the fixture');
  });

  it('lists the connected clients by name in the control status, and drops one once its relay exits', async () => {
    const control = controlOf(dataDir);
    const names = async () => (await control.call('status')).clients.map((client) => client.name);
    await connect('listed-client');
    const leaving = await relayClient(dataDir, 'gone-client');
    await expect.poll(names, { timeout: 5_000 }).toEqual(expect.arrayContaining(['listed-client', 'gone-client']));

    await leaving.client.close();
    await expect.poll(names, { timeout: 5_000 }).not.toContain('gone-client');
    expect(await names()).toContain('listed-client');
    const { events } = await control.call('activity.list');
    const changes = events.flatMap((event) =>
      event.type === 'client' && event.client.name === 'gone-client' ? [event.change] : [],
    );
    expect(changes).toEqual(['connected', 'disconnected']);
  });

  it('refuses a second core on the same data dir, and the first keeps serving', async () => {
    const second = spawnServe(dataDir);
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toMatch(/another chrome-mcp core \(pid \d+\) is already serving/);
    // Refused before its core started: it never took a port (nor a browser) from the one serving.
    expect(second.stderr()).not.toContain('control: listening');
    const client = await connect('after-refusal');
    const status = await client.callTool({ name: 'status', arguments: {} });
    expect(status.isError, textOf(status)).toBeFalsy();
  });

  it('closes its browser and its socket on SIGTERM; a relay still connected exits 1 with one clear line', async () => {
    const profile = join(dataDir, 'fallback-profile');
    expect(processesMentioning(profile).length).toBeGreaterThan(0);
    const abandoned = spawnRelay(dataDir);
    await initialize(abandoned.rpc, 'abandoned-client');

    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
    // The group was killed on the way out; a helper process may take a moment to be scheduled and die.
    await expect.poll(() => processesMentioning(profile), { timeout: 2_000, interval: 20 }).toEqual([]);
    expect(existsSync(join(dataDir, 'core.sock'))).toBe(false);
    expect(existsSync(join(dataDir, 'core.json'))).toBe(false);
    expect(await abandoned.exited).toBe(1);
    expect(abandoned.stderr()).toContain('the chrome-mcp core ended this session');
  });
});
