// `npm run bench`: p50/p95 per operation over MCP stdio against raw CDP on the same page, the bridge's own round trip
// and the redaction of a snapshot, plus start-up, tools/list size, snapshot sizes and the whole-task token bill.
// Figures, not assertions: timed tests flake, benchmarks inform.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { BridgeServer } from '../electron/core/bridge/bridge-server.js';
import { launchBrowser } from '../electron/core/fallback/launch.js';
import { CdpTabHost } from '../electron/core/fallback/cdp-tab-host.js';
import { PolicyGate } from '../shared/engine/policy-gate.js';
import { DEFAULT_POLICY } from '../shared/policy/policy.js';
import { redactText } from '../shared/redact/text.js';
import { FakeAuth } from '../test/bridge/support/fake-auth.js';
import { snapshot25k } from '../test/redact/samples.js';
import { startFixtureServer, type FixtureServer } from '../test/support/fixture-server.js';
import { textOf } from '../test/support/tool-result.js';
import { refIn, runWholeTask, type TaskBill } from '../test/support/whole-task.js';
import { envWithoutKeychain, runCli } from '../test/pairing/support/cli.js';
import { startExtensionBrowser, type ExtensionBrowser } from '../test/support/extension-browser.js';
import { until } from '../test/extension/support/until.js';
import { TEST_POLICY } from '../test/support/test-policy.js';
import { call, connect } from './bench/mcp-client.js';
import { coldStart, coldStartLines } from './bench/cold-start.js';
import { percentile, ROUNDS, settle, Table, time } from './bench/measure.js';
import { devtoolsReads } from './bench/devtools-reads.js';
import { roundTrips } from './bench/round-trips.js';
import { sdkFloor } from './bench/sdk-floor.js';
import { extensionTrips } from './bench/extension-trips.js';
import { extensionHops } from './bench/extension-hops.js';
import { pageProfile } from './bench/page-profile.js';
import { sweep, type RawTab } from './bench/sweep.js';

const ECHO_EXTENSION = fileURLToPath(new URL('../test/bridge/support/echo-extension.ts', import.meta.url));
const LOADED = 'new Promise(r => document.readyState === "complete" ? r() : addEventListener("load", r))';
const tokens = (chars: number) => Math.round(chars / 4);
const timings = new Table();
const sizes = new Table();
const report = timings.report.bind(timings);

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
    // Measured once the browser's start-up work is over, as the rows it is set beside are.
    await settle();
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

/** Raw CDP tabs in a browser of the bench's own (launched as the fallback launches its own), for the size sweep. */
async function rawBrowser(): Promise<{ open(url: string): Promise<RawTab>; close(): Promise<void> }> {
  const profileDir = mkdtempSync(join(tmpdir(), 'chrome-mcp-bench-sweep-'));
  const browser = await launchBrowser({ headless: true, profileDir, log: () => undefined });
  await settle();
  const host = new CdpTabHost(browser.connection, new PolicyGate(() => DEFAULT_POLICY), { windowPerTab: true });
  return {
    async open(url) {
      const tab = await host.create(url, { focus: false });
      const cdp = await host.cdp(tab.id);
      // The new tab may still show its first blank document, already loaded: asked until the page itself answers.
      const loaded = `${LOADED}.then(() => location.href)`;
      const href = () =>
        cdp
          .send<{ result: { value?: string } }>('Runtime.evaluate', {
            expression: loaded,
            awaitPromise: true,
            returnByValue: true,
          })
          .then(
            (reply) => reply.result.value,
            () => undefined,
          );
      if ((await until(href, (shown) => shown === url)) !== url) throw new Error(`the raw tab never showed ${url}`);
      return { send: (method, params) => cdp.send(method, params), close: () => host.close(tab.id) };
    },
    async close() {
      await browser.close();
      rmSync(profileDir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}

/** The agent's tab in the person's Chromium, attached to directly: the raw side of the extension's sweep. */
async function attachRaw(browser: ExtensionBrowser, url: string): Promise<RawTab> {
  const { targetInfos } = await browser.control.send<{ targetInfos: { targetId: string; url: string }[] }>(
    'Target.getTargets',
  );
  const target = targetInfos.find((info) => info.url === url);
  if (!target) throw new Error(`no browser target shows ${url}`);
  const { sessionId } = await browser.control.send<{ sessionId: string }>('Target.attachToTarget', {
    targetId: target.targetId,
    flatten: true,
  });
  return {
    send: (method, params) => browser.control.send(method, params, sessionId),
    close: () => browser.control.send('Target.detachFromTarget', { sessionId }).then(() => undefined),
  };
}

/**
 * The extension backend: chrome-mcp with --browser extension, the real extension in Chromium paired through the
 * native host; raw = direct CDP from Node to the same tab of the same browser.
 */
async function extensionBackend(server: FixtureServer): Promise<{ bill: TaskBill; trips: Table }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'chrome-mcp-bench-ext-'));
  const env = envWithoutKeychain();
  // The devtools tools are listed for the round-trip table's console and network reads; listing changes no other call.
  const { client } = await connect(dataDir, ['--browser', 'extension', '--caps', 'devtools'], env);
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
    await settle();
    const raw = await attachRaw(browser, url);
    const rawEval = await time(ROUNDS, () =>
      raw.send('Runtime.evaluate', { expression: 'document.title', returnByValue: true }),
    );
    await raw.close();
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
    const bill = await runWholeTask(client, server);
    await sweep({ label: 'extension', client, raw: (at) => attachRaw(browser, at) }, server, sizes);
    return { bill, trips: await extensionTrips(browser, client, server) };
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

  const cold = await coldStart(server);

  const dataDir = mkdtempSync(join(tmpdir(), 'chrome-mcp-bench-'));
  const { client } = await connect(dataDir);
  try {
    await call(client, 'tab_new', { url: server.url('bench-signup.html') });
    report(
      'eval, the first after the launch',
      await time(ROUNDS, () => call(client, 'eval', { expression: 'document.title' })),
      raw.evaluate,
    );
    // The rows below are calls in a session under way, once the browser's start-up work is over.
    await settle();
    // What any MCP call costs here before it reaches a page: the SDK, stdio both ways, our dispatch and audit; and the
    // SDK and stdio alone, a bare server's no-op tool.
    report('a bare MCP SDK server, no-op tool (the SDK and stdio)', await sdkFloor(ROUNDS));
    report('status (an MCP call that touches no page)', await time(ROUNDS, () => call(client, 'status')));
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
    const rawTabs = await rawBrowser();
    try {
      await sweep({ label: 'fallback', client, raw: (url) => rawTabs.open(url) }, server, sizes);
    } finally {
      await rawTabs.close();
    }
    const extension = await extensionBackend(server);
    const extensionTask = extension.bill;
    const hops = await extensionHops();

    console.log(
      `\nchrome-mcp bench (${ROUNDS} rounds; ms; raw = direct CDP over the browser's launch pipe on the same page)\n`,
    );
    timings.print();
    console.log(
      '\nby page size (pages of n elements: text, links, buttons, inputs in sections; raw: the fallback rows on a tab of' +
        " the bench's own browser showing the same page, the extension rows on the same tab; raw type = one" +
        ' Input.insertText, raw snapshot = document.body.innerText in one evaluate)\n',
    );
    sizes.print();
    console.log(
      '\nCDP commands per call, fallback (engine in process, recorded at the browser connection; call ms is the' +
        " engine's, median round)\n",
    );
    (await roundTrips(server)).print();
    console.log(
      '\nCDP commands per call, extension (chrome.debugger in its worker; call ms is the MCP call, median round)\n',
    );
    extension.trips.print();
    console.log(
      "\nextension calls hop by hop (the core's bridge in process and the real extension; the worker's clock inside)\n",
    );
    hops.print();
    const profiled = Number(process.env['BENCH_PROFILE'] ?? 0);
    if (profiled > 0) {
      console.log(
        '\ninside the page, per call (BENCH_PROFILE; the renderer timeline and the CPU profile, in process)\n',
      );
      await pageProfile(server, profiled);
    }
    console.log('\nreading what DevTools captured, beside a plain call (fallback, --caps devtools)\n');
    (await devtoolsReads(server)).print();
    console.log('');
    for (const line of coldStartLines(cold)) console.log(line);
    console.log(`tools/list: ${cold.listBytes} bytes (${(cold.listBytes / 1024).toFixed(1)} KiB)`);
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
