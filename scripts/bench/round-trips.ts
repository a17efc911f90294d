// Where a call's time goes: every CDP command one tool call sends, counted and grouped into the steps that wait on each
// other (a step starts after the one before it answered), each step timed, at each page size. Counts hold on a busy
// machine where times do not, and a count or a step that grows with the page is the thing to fix. The fallback side
// runs the engine in process and records at the browser connection (so host-level commands count too); its engine time
// beside the time CDP was busy leaves the engine's own JavaScript between steps.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { launchBrowser } from '../../electron/core/fallback/launch.js';
import { CdpTabHost } from '../../electron/core/fallback/cdp-tab-host.js';
import type { CdpConnection } from '../../electron/core/fallback/cdp-connection.js';
import { createEngineExecutor } from '../../shared/engine/executor.js';
import { PolicyGate } from '../../shared/engine/policy-gate.js';
import { policyFromFlags } from '../../shared/policy/flags.js';
import type { Operation } from '../../shared/protocol/operations.js';
import type { FixtureServer } from '../../test/support/fixture-server.js';
import { testServerHosts } from '../../test/support/test-policy.js';
import { busyMs, recordSends, stepLine, stepsOf, type Sent } from './cdp-ledger.js';
import { percentile, Table } from './measure.js';
import { SIZES, sizedPage } from './sweep.js';

/** Calls after the first of their kind on a page are repeated this often; the row shows the median round. */
const REPEATS = Number(process.env['BENCH_TRIP_REPEATS'] ?? 7);
// A navigation of the largest page takes seconds on a busy machine, and its steps vary little.
const NAVIGATE_REPEATS = Math.min(3, REPEATS);

/** The calls measured on each page, in order: the first of each kind on a page (arming, focus emulation) is its own row. */
export function tripCalls(url: string): [Operation, Record<string, unknown>][] {
  return [
    ['eval', { expression: 'document.title' }],
    ['click', { selector: '#go' }],
    ['type', { selector: '#name', text: 'Ada Lovelace', clear: true }],
    ['snapshot', {}],
    ['get_text', {}],
    ['console', {}],
    ['network', {}],
    ['navigate', { url }],
  ];
}

/** Where a side's commands are caught: cleared before a call, read after it (times on the ledger's own clock). */
export interface Ledger {
  clear(): Promise<void>;
  read(): Promise<Sent[]>;
}

export const TRIP_HEADER = [
  'call',
  'elements',
  'commands',
  'steps',
  'call ms',
  'CDP busy ms',
  'steps (methods, ms each)',
];

/**
 * Each call of `tripCalls` on each sized page through `run`, one row per call: commands, steps and the median round's
 * step line. `run` reaches the page by whatever the side is (in process, MCP); its own time is the call's.
 */
export async function tally(
  server: FixtureServer,
  run: (op: Operation, args: Record<string, unknown>) => Promise<unknown>,
  ledger: Ledger,
  table: Table,
): Promise<void> {
  for (const elements of SIZES) {
    const url = sizedPage(server, elements);
    await run('navigate', { url });
    for (const [op, args] of tripCalls(url)) {
      for (const first of op === 'navigate' ? [false] : [true, false]) {
        const rounds: { wall: number; sent: Sent[] }[] = [];
        for (let round = 0; round < (first ? 1 : op === 'navigate' ? NAVIGATE_REPEATS : REPEATS); round++) {
          await ledger.clear();
          const start = performance.now();
          await run(op, args);
          const wall = performance.now() - start;
          rounds.push({ wall, sent: await ledger.read() });
        }
        const median = [...rounds].sort((a, b) => a.wall - b.wall)[Math.floor(rounds.length / 2)]!;
        const busy = percentile(
          rounds.map((r) => busyMs(r.sent, answered(r.sent))),
          50,
        );
        table.add([
          first ? `${op} (1st on page)` : op,
          elements.toLocaleString('en-US'),
          String(median.sent.length),
          String(stepsOf(median.sent).length),
          median.wall.toFixed(2),
          busy.toFixed(2),
          stepLine(median.sent),
        ]);
      }
    }
  }
}

/** When the last answered command was answered: a command the call did not wait for counts until then. */
function answered(sent: readonly Sent[]): number {
  return Math.max(-Infinity, ...sent.map((entry) => entry.end).filter(Number.isFinite));
}

/** The fallback's engine in process over a browser of its own, every command on its connection recorded in `sent`. */
export async function inProcessEngine(): Promise<{
  run(op: Operation, args: Record<string, unknown>): Promise<unknown>;
  connection: CdpConnection;
  sent: Sent[];
  close(): Promise<void>;
}> {
  const profileDir = mkdtempSync(join(tmpdir(), 'chrome-mcp-bench-trips-'));
  const browser = await launchBrowser({ headless: true, profileDir, log: () => undefined });
  // Parsed once, as the core holds its policy: parsing it on every judgement would be counted as the engine's time.
  const parsed = policyFromFlags({ allow: [], trust: testServerHosts() });
  const policy = () => parsed;
  const sent: Sent[] = [];
  recordSends(browser.connection, sent);
  const host = new CdpTabHost(browser.connection, new PolicyGate(policy), { windowPerTab: true });
  const executor = createEngineExecutor(host, { tag: 'trips', policy });
  const ctx = { progress: () => undefined };
  return {
    run: (op, args) => executor.run(op, args, ctx),
    connection: browser.connection,
    sent,
    async close() {
      executor.dispose();
      await browser.close();
      rmSync(profileDir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}

/** The round-trip table of the fallback: its engine in process, recorded at the browser connection. */
export async function roundTrips(server: FixtureServer): Promise<Table> {
  const table = new Table(TRIP_HEADER);
  const engine = await inProcessEngine();
  const ledger: Ledger = {
    clear: async () => void (engine.sent.length = 0),
    read: async () => [...engine.sent],
  };
  try {
    await tally(server, engine.run, ledger, table);
  } finally {
    await engine.close();
  }
  return table;
}
