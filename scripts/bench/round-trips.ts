// Where a call's time goes: every CDP command the engine sends for one tool call, counted, and grouped into the steps
// that wait on each other (a step starts after the one before it answered), at each page size. Counts, not times:
// they hold on a busy machine, and a count that grows with the page is the thing to fix. Beside them, the engine's own
// time per call (in process, no MCP) and how much of it CDP was busy: the rest is the engine's JavaScript between steps.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { launchBrowser } from '../../electron/core/fallback/launch.js';
import { CdpTabHost } from '../../electron/core/fallback/cdp-tab-host.js';
import type { Cdp } from '../../shared/engine/cdp.js';
import { createEngineExecutor } from '../../shared/engine/executor.js';
import { PolicyGate } from '../../shared/engine/policy-gate.js';
import type { TabHost } from '../../shared/engine/tab-host.js';
import { policyFromFlags } from '../../shared/policy/flags.js';
import type { Operation } from '../../shared/protocol/operations.js';
import type { FixtureServer } from '../../test/support/fixture-server.js';
import { testServerHosts } from '../../test/support/test-policy.js';
import { percentile, Table } from './measure.js';
import { SIZES, sizedPage } from './sweep.js';

interface Sent {
  method: string;
  start: number;
  end: number;
}

// The second of each pair is the steady state: the first eval arms the script trail, the first click the focus emulation.
// A steady call is repeated for its times; counts are the same each round.
const REPEATS = 21;
const CALLS: [Operation, Record<string, unknown>][] = [
  ['eval', { expression: 'document.title' }],
  ['eval', { expression: 'document.title' }],
  ['click', { selector: '#go' }],
  ['click', { selector: '#go' }],
  ['type', { selector: '#name', text: 'Ada Lovelace', clear: true }],
  ['snapshot', {}],
  ['get_text', {}],
];

export async function roundTrips(server: FixtureServer): Promise<Table> {
  const table = new Table([
    'call',
    'elements',
    'CDP commands',
    'steps',
    'engine ms',
    'CDP busy ms',
    'commands by method',
  ]);
  const profileDir = mkdtempSync(join(tmpdir(), 'chrome-mcp-bench-trips-'));
  const browser = await launchBrowser({ headless: true, profileDir, log: () => undefined });
  const policy = () => policyFromFlags({ allow: [], trust: testServerHosts() });
  const sent: Sent[] = [];
  const host = counting(new CdpTabHost(browser.connection, new PolicyGate(policy), { windowPerTab: true }), sent);
  const executor = createEngineExecutor(host, { tag: 'trips', policy });
  const ctx = { progress: () => undefined };
  try {
    for (const elements of SIZES) {
      await executor.run('navigate', { url: sizedPage(server, elements) }, ctx);
      const seen = new Set<string>();
      for (const [op, args] of CALLS) {
        const name = seen.has(op) ? op : `${op} (1st on page)`;
        const walls: number[] = [];
        const busy: number[] = [];
        for (let round = 0; round < (seen.has(op) ? REPEATS : 1); round++) {
          sent.length = 0;
          const start = performance.now();
          await executor.run(op, args, ctx);
          const end = performance.now();
          walls.push(end - start);
          busy.push(busyMs(sent, end));
        }
        seen.add(op);
        const ms = (samples: number[]) => percentile(samples, 50).toFixed(2);
        table.add([
          name,
          elements.toLocaleString('en-US'),
          String(sent.length),
          String(steps(sent)),
          ms(walls),
          ms(busy),
          byMethod(sent),
        ]);
      }
    }
  } finally {
    executor.dispose();
    await browser.close();
    rmSync(profileDir, { recursive: true, force: true, maxRetries: 5 });
  }
  return table;
}

/** The host, with every command of every tab's handle recorded in `sent`. */
function counting(host: CdpTabHost, sent: Sent[]): TabHost {
  return new Proxy(host, {
    get(target, prop, receiver) {
      if (prop === 'cdp') {
        return async (tabId: string): Promise<Cdp> => {
          const cdp = await target.cdp(tabId);
          return {
            on: (listener) => cdp.on(listener),
            async send(method, params, sessionId) {
              const entry = { method, start: performance.now(), end: Infinity };
              sent.push(entry);
              try {
                return await cdp.send(method, params, sessionId);
              } finally {
                entry.end = performance.now();
              }
            },
          };
        };
      }
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Commands that wait on each other: a new step begins with a command sent after every earlier one had answered. */
function steps(sent: readonly Sent[]): number {
  let count = 0;
  let answeredBy = -Infinity;
  for (const entry of [...sent].sort((a, b) => a.start - b.start)) {
    if (entry.start >= answeredBy) count++;
    answeredBy = entry.start >= answeredBy ? entry.end : Math.max(answeredBy, entry.end);
  }
  return count;
}

/**
 * How long at least one command was in flight before the call returned (the union of the commands' intervals); a
 * command the call did not wait for counts until the return.
 */
function busyMs(sent: readonly Sent[], returned: number): number {
  let total = 0;
  let until = -Infinity;
  for (const entry of [...sent].sort((a, b) => a.start - b.start)) {
    const end = Math.min(entry.end, returned);
    if (end <= until) continue;
    total += end - Math.max(entry.start, until);
    until = end;
  }
  return total;
}

function byMethod(sent: readonly Sent[]): string {
  const counts = new Map<string, number>();
  for (const { method } of sent) counts.set(method, (counts.get(method) ?? 0) + 1);
  return [...counts].map(([method, count]) => (count > 1 ? `${method}×${count}` : method)).join(', ');
}
