// `chrome-mcp relay` when no core is running: it starts `chrome-mcp serve` and connects (two relays at once share the
// one core they start), it recovers a core killed outright, with nothing starting it gives up with one line and an
// untouched stdout, and it tells an impostor on the core's address neither the token nor the client's messages.
import { readFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { processAlive } from '../../electron/core/pairing/bridge-state.js';
import { readCoreFile, writeCoreFile } from '../../electron/core/host/core-file.js';
import { runRelay } from '../../electron/helper/relay.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { processesMentioning } from '../support/processes.js';
import { textOf } from '../support/tool-result.js';
import { cleanUpDataDirs, coreReady, freshDataDir, relayClient, spawnServe } from './support.js';

let fixtures: FixtureServer;
const clients: Client[] = [];

beforeAll(async () => {
  fixtures = await startFixtureServer();
});

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  // Relays start cores detached: they outlive their clients, so the test ends them.
  await cleanUpDataDirs();
});

afterAll(async () => {
  await fixtures.close();
});

async function connect(dataDir: string, name: string, extra: readonly string[] = []): Promise<Client> {
  const { client } = await relayClient(dataDir, name, extra);
  clients.push(client);
  return client;
}

/** `chrome-mcp serve` processes for this data dir (not the relays, not the browser). */
function serveProcesses(dataDir: string): number[] {
  return processesMentioning(dataDir).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('serve');
    } catch {
      return false;
    }
  });
}

describe('chrome-mcp relay', () => {
  it('starts a core when none is running, and drives a page through it', async () => {
    const dataDir = freshDataDir();
    expect(serveProcesses(dataDir)).toEqual([]);
    const client = await connect(dataDir, 'first-of-the-day');
    const opened = await client.callTool({ name: 'tab_new', arguments: { url: fixtures.url('mcp-hello.html') } });
    expect(textOf(opened)).toContain('Hello from the fixture');
    const core = readCoreFile(dataDir);
    expect(core).toBeDefined();
    expect(serveProcesses(dataDir)).toEqual([core!.pid]);
  });

  it('shares the one core it starts with a second relay started at the same moment', async () => {
    const dataDir = freshDataDir();
    const [one, two] = await Promise.all([connect(dataDir, 'one'), connect(dataDir, 'two')]);
    const [first, second] = await Promise.all([
      one.callTool({ name: 'status', arguments: {} }),
      two.callTool({ name: 'status', arguments: {} }),
    ]);
    expect(first.isError, textOf(first)).toBeFalsy();
    expect(second.isError, textOf(second)).toBeFalsy();
    // Both relays may have started a core; the one that lost found the other serving and left.
    await expect.poll(() => serveProcesses(dataDir), { timeout: 10_000 }).toEqual([readCoreFile(dataDir)!.pid]);
  });

  it("lists each session's own opt-in tools: the ones its relay's --caps names, and no others", async () => {
    const dataDir = freshDataDir();
    const plain = await connect(dataDir, 'default-set');
    const wide = await connect(dataDir, 'with-extra', ['--caps', 'extra']);
    const names = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);
    expect(await names(wide)).toContain('get_html');
    expect(await names(plain)).not.toContain('get_html');
    expect(textOf(await plain.callTool({ name: 'get_html', arguments: {} }))).toMatch(/^TOOL_OFF: /);
  });

  it('replaces a core that was killed outright, clearing the socket file it left', async () => {
    const dataDir = freshDataDir();
    const killed = spawnServe(dataDir);
    const before = await coreReady(dataDir);
    killed.child.kill('SIGKILL');
    await killed.exited;
    expect(processAlive(before.pid)).toBe(false);
    const client = await connect(dataDir, 'after-the-crash');
    const status = await client.callTool({ name: 'status', arguments: {} });
    expect(status.isError, textOf(status)).toBeFalsy();
    expect(readCoreFile(dataDir)?.pid).not.toBe(before.pid);
  });

  it('gives up with one line on stderr and nothing on stdout when no core comes up', async () => {
    const dataDir = freshDataDir();
    const lines: string[] = [];
    const output = new PassThrough();
    const written: Buffer[] = [];
    output.on('data', (chunk: Buffer) => written.push(chunk));
    let starts = 0;
    const code = await runRelay({
      dataDir,
      startCore: () => void starts++,
      input: new PassThrough(),
      output,
      log: (line) => void lines.push(line),
      waitMs: 500,
    });
    expect(code).toBe(1);
    expect(starts).toBe(1);
    expect(Buffer.concat(written).length).toBe(0);
    expect(lines.filter((line) => line.startsWith('no chrome-mcp core answered'))).toEqual([
      `no chrome-mcp core answered for ${dataDir} within 0.5 s (no running core has written core.json)`,
    ]);
  });

  it('refuses a server on the core address that cannot prove it holds the token, and sends it nothing it could use', async () => {
    const dataDir = freshDataDir();
    const address = join(dataDir, 'core.sock');
    const token = 'Real-Token-Qz8vX2mK4pL9nR7tY1cB5dF3gH6jA0sE8wU2i';
    writeCoreFile(dataDir, { v: 1, socket: address, token, pid: process.pid });
    // The impostor answers like a core would, with a proof made under a token it guessed, and keeps all it hears.
    const heard: string[] = [];
    const impostor = createServer((socket: Socket) => {
      socket.on('data', (chunk: Buffer) => {
        heard.push(chunk.toString());
        socket.write(`${JSON.stringify({ nonce: 'n'.repeat(43), proof: 'p'.repeat(43) })}\n`);
      });
    });
    await new Promise<void>((resolve) => impostor.listen(address, resolve));
    const lines: string[] = [];
    const input = new PassThrough();
    input.end(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} })}\n`);
    let starts = 0;
    const code = await runRelay({
      dataDir,
      startCore: () => void starts++,
      input,
      output: new PassThrough(),
      log: (line) => void lines.push(line),
      waitMs: 500,
    });
    await new Promise((resolve) => impostor.close(resolve));
    expect(code).toBe(1);
    // Someone answers there, so starting a core of our own would only meet it again.
    expect(starts).toBe(0);
    expect(heard.length).toBeGreaterThan(0);
    expect(heard.join('')).not.toContain(token);
    expect(heard.join('')).not.toContain('initialize');
    expect(heard.every((chunk) => /^\{"hello":"[\w-]{43}"\}\n$/.test(chunk))).toBe(true);
    expect(lines.at(-1)).toContain("does not hold core.json's token");
  });
});
