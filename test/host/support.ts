// Shared by the core-socket tests: the built CLI's `serve` and `relay` as real processes, MCP clients through relays,
// raw JSON-RPC lines over a socket or a pipe, and cleanup of every core a test started (relays start some themselves).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { readControlFile } from '../../electron/core/control/control-file.js';
import { type CoreFile, readCoreFile } from '../../electron/core/host/core-file.js';
import { createControlClient, loopbackOrigin, type ControlClient } from '../../shared/control/client.js';
import { processesMentioning } from '../support/processes.js';
import { TEST_POLICY_FLAGS } from '../support/test-policy.js';
import { removeDir } from '../support/remove-dir.js';

export const CLI = fileURLToPath(new URL('../../dist/electron/helper/cli.js', import.meta.url));

// The SDK passes only a minimal environment to the child; a CI machine's browser choice must reach it (and the core a
// relay starts inherits the relay's).
const chosenBrowser = process.env['CHROME_MCP_CHROMIUM'];
export const childEnv: Record<string, string> = chosenBrowser ? { CHROME_MCP_CHROMIUM: chosenBrowser } : {};

const dataDirs: string[] = [];

/** Short on purpose: the socket path inside it must fit a unix socket address. */
export function freshDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cm-host-'));
  dataDirs.push(dir);
  return dir;
}

/** The core's flags for every test: the fallback browser, headless, no fixed bridge port, the fixture hosts trusted. */
export function coreFlags(dataDir: string): string[] {
  return ['--headless', '--browser', 'fallback', '--port', '0', '--data-dir', dataDir, ...TEST_POLICY_FLAGS];
}

export interface Served {
  child: ChildProcess;
  stderr: () => string;
  exited: Promise<number | null>;
}

export function spawnServe(dataDir: string): Served {
  const child = spawn(process.execPath, [CLI, 'serve', ...coreFlags(dataDir)], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...childEnv },
  });
  const chunks: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stderr: () => chunks.join(''), exited };
}

/** The core's file once it is listening (a relay-started core takes a moment). */
export async function coreReady(dataDir: string, timeoutMs = 20_000): Promise<CoreFile> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const file = readCoreFile(dataDir);
    if (file) return file;
    if (performance.now() > deadline) throw new Error(`no core wrote ${dataDir}/core.json`);
    await sleep(50);
  }
}

export function controlOf(dataDir: string): ControlClient {
  const file = readControlFile(dataDir);
  if (!file) throw new Error('the core wrote no control.json');
  return createControlClient({ origin: loopbackOrigin(file.port), token: file.token });
}

/** An MCP client named `name` through its own `chrome-mcp relay`, the way Claude Desktop would run it. */
/** `extra`: more of the relay's own flags (its `--caps`). */
export async function relayClient(
  dataDir: string,
  name: string,
  extra: readonly string[] = [],
): Promise<{ client: Client; transport: StdioClientTransport; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'relay', ...coreFlags(dataDir), ...extra],
    env: childEnv,
    stderr: 'pipe',
  });
  const chunks: string[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  const client = new Client({ name, version: '1' });
  await client.connect(transport);
  return { client, transport, stderr: () => chunks.join('') };
}

export interface RawRelay {
  rpc: RawRpc;
  stdin: Writable;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** A `chrome-mcp relay` spoken to by hand, for tests that watch its stdout bytes, its stderr and its exit code. */
export function spawnRelay(dataDir: string): RawRelay {
  const child = spawn(process.execPath, [CLI, 'relay', ...coreFlags(dataDir)], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...childEnv },
  });
  const chunks: string[] = [];
  child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { rpc: rawRpc(child.stdout, child.stdin), stdin: child.stdin, stderr: () => chunks.join(''), exited };
}

export interface RawRpc {
  request(method: string, params?: object): Promise<Record<string, unknown>>;
  notify(method: string, params?: object): void;
  /** Every line received, as received. */
  lines: string[];
}

/** Newline-delimited JSON-RPC by hand, so a test sees exactly the bytes on the wire. */
export function rawRpc(input: Readable, output: Writable): RawRpc {
  let pending = '';
  let nextId = 0;
  const lines: string[] = [];
  const waiting = new Map<number, (message: Record<string, unknown>) => void>();
  input.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
      const line = pending.slice(0, end);
      pending = pending.slice(end + 1);
      lines.push(line);
      const message = JSON.parse(line) as Record<string, unknown>;
      if (typeof message['id'] === 'number') waiting.get(message['id'])?.(message);
    }
  });
  return {
    lines,
    request: (method, params = {}) =>
      new Promise((resolve) => {
        const id = ++nextId;
        waiting.set(id, resolve);
        output.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      }),
    notify: (method, params = {}) => void output.write(`${JSON.stringify({ jsonrpc: '2.0', method, params })}\n`),
  };
}

/** An MCP session opened by hand: initialize as `name`, then the initialized notification. */
export async function initialize(rpc: RawRpc, name: string): Promise<Record<string, unknown>> {
  const answer = await rpc.request('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name, version: '1' },
  });
  rpc.notify('notifications/initialized');
  return answer;
}

/** Ends every process still mentioning one of our data dirs (cores and their browsers), then removes the dirs. */
export async function cleanUpDataDirs(): Promise<void> {
  for (const dir of dataDirs.splice(0)) {
    for (const pid of processesMentioning(dir)) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    }
    const deadline = performance.now() + 10_000;
    while (processesMentioning(dir).length > 0 && performance.now() < deadline) await sleep(50);
    removeDir(dir);
  }
}
