// `npm run bench`: p50/p95 per operation over MCP stdio against raw CDP on the same page, the bridge's own round trip
// and the redaction of a snapshot, plus start-up, tools/list size, snapshot sizes and the whole-task token bill.
// Figures, not assertions: timed tests flake, benchmarks inform.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BridgeServer } from '../electron/core/bridge/bridge-server.js';
import { launchBrowser } from '../electron/core/fallback/launch.js';
import { CdpTabHost } from '../electron/core/fallback/cdp-tab-host.js';
import { PolicyGate } from '../shared/engine/policy-gate.js';
import { DEFAULT_POLICY } from '../shared/policy/policy.js';
import { redactText } from '../shared/redact/text.js';
import { FakeAuth } from '../test/bridge/support/fake-auth.js';
import { snapshot25k } from '../test/redact/samples.js';
import { startFixtureServer, type FixtureServer } from '../test/support/fixture-server.js';
import { textOf, type CallResult } from '../test/support/tool-result.js';
import { refIn, runWholeTask, type TaskBill } from '../test/support/whole-task.js';
import { envWithoutKeychain, runCli } from '../test/pairing/support/cli.js';
import { startExtensionBrowser } from '../test/support/extension-browser.js';
import { TEST_POLICY, testServerHosts } from '../test/support/test-policy.js';

const CLI = fileURLToPath(new URL('../dist/electron/helper/cli.js', import.meta.url));
const ECHO_EXTENSION = fileURLToPath(new URL('../test/bridge/support/echo-extension.ts', import.meta.url));
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 200);
const tokens = (chars: number) => Math.round(chars / 4);

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function time(rounds: number, run: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < 5; i++) await run();
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

const rows: string[][] = [];
function report(name: string, ours: { p50: number; p95: number }, raw?: { p50: number; p95: number }): void {
  const ms = (value: number) => value.toFixed(2);
  rows.push([
    name,
    ms(ours.p50),
    ms(ours.p95),
    raw ? ms(raw.p50) : '',
    raw ? ms(raw.p95) : '',
    raw ? `${(ours.p50 / raw.p50).toFixed(1)}x` : '',
  ]);
}

async function connect(
  dataDir: string,
  flags: string[] = [],
  env?: NodeJS.ProcessEnv,
): Promise<{ client: Client; startMs: number; listBytes: number }> {
  const start = performance.now();
  // The bench pages are served from loopback; the run trusts that server, by its port (a bare local host grants
  // nothing), as a person would trust their own dev server.
  const trust = testServerHosts().join(',');
  const args = [CLI, '--headless', '--port', '0', '--data-dir', dataDir, '--trust', trust, ...flags];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    stderr: 'ignore',
    ...(env ? { env: env as Record<string, string> } : {}),
  });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  const list = await client.listTools();
  const startMs = performance.now() - start;
  return { client, startMs, listBytes: Buffer.byteLength(JSON.stringify(list)) };
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallResult> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
  return result;
}

async function rawBaseline(server: FixtureServer) {
  const profileDir = mkdtempSync(join(tmpdir(), 'chrome-mcp-bench-raw-'));
  const browser = await launchBrowser({ headless: true, profileDir, log: () => undefined });
  try {
    const host = new CdpTabHost(browser.connection, new PolicyGate(() => DEFAULT_POLICY), { windowPerTab: true });
    const tab = await host.create(server.url('bench-signup.html'), { focus: false });
    const cdp = await host.cdp(tab.id);
    await cdp.send('Runtime.evaluate', {
      expression: 'new Promise(r => document.readyState === "complete" ? r() : addEventListener("load", r))',
      awaitPromise: true,
    });
    const evaluate = await time(ROUNDS, () =>
      cdp.send('Runtime.evaluate', { expression: 'document.title', returnByValue: true }),
    );
    const click = await time(ROUNDS, async () => {
      await cdp.send('Input.dispatchMouseEvent', { type: 'mousePressed', x: 20, y: 20, button: 'left', clickCount: 1 });
      await cdp.send('Input.dispatchMouseEvent', {
        type: 'mouseReleased',
        x: 20,
        y: 20,
        button: 'left',
        clickCount: 1,
      });
    });
    return { evaluate, click };
  } finally {
    await browser.close();
    rmSync(profileDir, { recursive: true, force: true, maxRetries: 5 });
  }
}

/**
 * The extension backend: chrome-mcp with --browser extension, the real extension in Chromium paired through the
 * native host; raw = direct CDP from Node to the same tab of the same browser.
 */
async function extensionBackend(server: FixtureServer): Promise<TaskBill> {
  const dataDir = mkdtempSync(join(tmpdir(), 'chrome-mcp-bench-ext-'));
  const env = envWithoutKeychain();
  const { client } = await connect(dataDir, ['--browser', 'extension'], env);
  const browser = await startExtensionBrowser();
  try {
    const install = await runCli(
      ['install-native-host', '--browser-data-dir', browser.profileDir, '--data-dir', dataDir],
      { env },
    );
    if (install.code !== 0) throw new Error(`install-native-host failed: ${install.stderr}`);
    await browser.openPage('popup.html');
    for (let tries = 0; !(await extensionConnected(client)); tries++) {
      if (tries > 300) throw new Error('the extension did not connect');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const url = server.url('bench-signup.html');
    await call(client, 'tab_new', { url });
    const { targetInfos } = await browser.control.send<{ targetInfos: { targetId: string; url: string }[] }>(
      'Target.getTargets',
    );
    const target = targetInfos.find((info) => info.url === url);
    if (!target) throw new Error('the agent tab is not among the browser targets');
    const { sessionId } = await browser.control.send<{ sessionId: string }>('Target.attachToTarget', {
      targetId: target.targetId,
      flatten: true,
    });
    const rawEval = await time(ROUNDS, () =>
      browser.control.send('Runtime.evaluate', { expression: 'document.title', returnByValue: true }, sessionId),
    );
    report(
      'eval document.title (extension)',
      await time(ROUNDS, () => call(client, 'eval', { expression: 'document.title' })),
      rawEval,
    );
    report('click (selector, extension)', await time(ROUNDS, () => call(client, 'click', { selector: '#terms' })));
    report(
      'snapshot 500-row table (extension)',
      await (async () => {
        await call(client, 'navigate', { url: server.url('bench-table.html') });
        return time(20, () => call(client, 'snapshot', {}));
      })(),
    );
    return await runWholeTask(client, server);
  } finally {
    await client.close();
    await browser.close();
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 });
  }
}

/** The link alone: a trivial call to a stand-in extension in another process that answers at once. */
async function bridgeRoundTrip(): Promise<void> {
  const auth = new FakeAuth();
  const bridge = await BridgeServer.start({ port: 0, auth, log: () => undefined, policy: () => TEST_POLICY });
  const connected = new Promise((resolve) => bridge.once('connected', resolve));
  const child = spawn(process.execPath, ['--import', 'tsx', ECHO_EXTENSION, String(bridge.port)], {
    env: { ...process.env, CHROME_MCP_TEST_SECRET: auth.current },
    stdio: 'inherit',
  });
  try {
    await connected;
    const link = bridge.link()!;
    report(
      'bridge round trip (stand-in extension process)',
      await time(ROUNDS * 10, () => link.call('eval', { expression: '1' })),
    );
  } finally {
    child.kill();
    await bridge.close();
  }
}

/** Redaction runs on every result: its cost on a snapshot-sized text, synchronous, so timed in one loop. */
function redactionCost(): void {
  const text = snapshot25k();
  const samples: number[] = [];
  for (let i = 0; i < 10; i++) redactText(text);
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    redactText(text);
    samples.push(performance.now() - start);
  }
  report('redact a 25 KB snapshot', { p50: percentile(samples, 50), p95: percentile(samples, 95) });
}

async function extensionConnected(client: Client): Promise<boolean> {
  const status = await client.callTool({ name: 'status', arguments: {} });
  return (
    (status.structuredContent as { extension?: { connected?: boolean } } | undefined)?.extension?.connected === true
  );
}

async function main(): Promise<void> {
  const server = await startFixtureServer();
  const raw = await rawBaseline(server);
  await bridgeRoundTrip();
  redactionCost();

  const startups: number[] = [];
  let listBytes = 0;
  for (let i = 0; i < 5; i++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'chrome-mcp-bench-start-'));
    const session = await connect(dataDir);
    startups.push(session.startMs);
    listBytes = session.listBytes;
    await session.client.close();
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 });
  }

  const dataDir = mkdtempSync(join(tmpdir(), 'chrome-mcp-bench-'));
  const { client } = await connect(dataDir);
  try {
    await call(client, 'tab_new', { url: server.url('bench-signup.html') });
    report(
      'eval document.title',
      await time(ROUNDS, () => call(client, 'eval', { expression: 'document.title' })),
      raw.evaluate,
    );
    report(
      'click (selector, static page)',
      await time(ROUNDS, () => call(client, 'click', { selector: '#terms' })),
      raw.click,
    );
    const form = textOf(await call(client, 'snapshot', {}));
    const nameRef = refIn(form, /textbox "Name/);
    report('click (ref, static page)', await time(ROUNDS, () => call(client, 'click', { ref: nameRef })), raw.click);
    report(
      'type 12 chars (ref)',
      await time(50, () => call(client, 'type', { ref: nameRef, text: 'Ada Lovelace', clear: true })),
    );
    report('snapshot sign-up form', await time(50, () => call(client, 'snapshot', {})));

    await call(client, 'navigate', { url: server.url('bench-table.html') });
    const table = textOf(await call(client, 'snapshot', {}));
    report('snapshot 500-row table', await time(20, () => call(client, 'snapshot', {})));
    report('find in 500-row table', await time(50, () => call(client, 'find', { text: 'Customer 377' })));
    report(
      'navigate (local page)',
      await time(20, () => call(client, 'navigate', { url: server.url('bench-signup.html') })),
    );

    const task = await runWholeTask(client, server);
    const extensionTask = await extensionBackend(server);

    console.log(
      `\nchrome-mcp bench (${ROUNDS} rounds; ms; raw = direct CDP over the browser's launch pipe on the same page)\n`,
    );
    const header = ['operation', 'p50', 'p95', 'raw p50', 'raw p95', 'p50 ratio'];
    const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
    for (const row of [header, ...rows])
      console.log(row.map((cell, column) => cell.padEnd(widths[column]!)).join('  '));
    console.log(
      `\nspawn -> first tools/list: p50 ${percentile(startups, 50).toFixed(0)} ms (max ${Math.max(...startups).toFixed(0)} ms)`,
    );
    console.log(`tools/list: ${listBytes} bytes (${(listBytes / 1024).toFixed(1)} KiB)`);
    console.log(`snapshot, sign-up form: ${form.length} chars ≈ ${tokens(form.length)} tokens`);
    console.log(`snapshot, 500-row table (default page): ${table.length} chars ≈ ${tokens(table.length)} tokens`);
    console.log(
      `whole task (form + table + iframes, ${task.steps.length} calls): ${task.chars} chars ≈ ${tokens(task.chars)} tokens of tool results`,
    );
    console.log(`  ${task.steps.join(', ')}`);
    console.log(
      `whole task through the extension: ${extensionTask.chars} chars ≈ ${tokens(extensionTask.chars)} tokens of tool results`,
    );
  } finally {
    await client.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 });
  }
}

await main();
