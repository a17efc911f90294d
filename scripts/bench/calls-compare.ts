// Calls beside Playwright MCP, in one run: eval, click and typing 12 characters on the bench's sized pages, each
// server over MCP stdio on its own Chromium, calls interleaved (ours, theirs, ours…) so a busy machine weighs on both
// alike, once both browsers finished their start-up. Playwright MCP is not a dependency (see peer-servers.ts); without
// PLAYWRIGHT_MCP the script says so and exits cleanly.
// Run: npm run build && PLAYWRIGHT_MCP=/tmp/pwmcp/node_modules/@playwright/mcp/cli.js npx tsx scripts/bench/calls-compare.ts
// (BENCH_SIZES as in the bench, default 100 and 10,000 elements; BENCH_ROUNDS calls of each kind, default 100.)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startFixtureServer } from '../../test/support/fixture-server.js';
import { textOf } from '../../test/support/tool-result.js';
import { percentile, settle, Table } from './measure.js';
import { call, CLI, connectOver } from './mcp-client.js';
import { ours, playwrightMcp, type Server } from './peer-servers.js';
import { sizedPage } from './sweep.js';

const SIZES = (process.env['BENCH_SIZES'] ?? '100,10000').split(',').map(Number);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 100);
const WARM_UP = 5;

interface Running {
  client: Client;
  work: string;
}

async function start(server: Server): Promise<Running> {
  const work = mkdtempSync(join(tmpdir(), 'chrome-mcp-calls-'));
  return { client: await connectOver(server.spawn(work), 'calls-compare'), work };
}

/** The ref Playwright MCP's snapshot gives the element of `role` and `name`. */
function refIn(snapshot: string, role: string, name: string): string {
  const ref = new RegExp(`${role} "${name}" \\[ref=(\\w+)\\]`).exec(snapshot)?.[1];
  if (!ref) throw new Error(`Playwright MCP's snapshot has no ${role} "${name}"`);
  return ref;
}

const theirs = playwrightMcp();
if (!theirs) {
  console.log('calls beside Playwright MCP: skipped (set PLAYWRIGHT_MCP to the cli.js of @playwright/mcp)');
  process.exit(0);
}
const site = await startFixtureServer();
const [a, b] = [await start(ours('chrome-mcp', CLI)), await start(theirs)];
const table = new Table(['call', 'chrome-mcp p50', 'p95', 'Playwright MCP p50', 'p95', 'theirs ÷ ours (p50)']);
try {
  for (const elements of SIZES) {
    const url = sizedPage(site, elements);
    await call(a.client, 'navigate', { url });
    await call(b.client, theirs.navigate, { url });
    const snapshot = textOf(await call(b.client, 'browser_snapshot', {}));
    const [go, name] = [refIn(snapshot, 'button', 'Go'), refIn(snapshot, 'textbox', 'Name')];
    await settle();
    const calls: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
      [
        'eval document.title',
        () => call(a.client, 'eval', { expression: 'document.title' }),
        () => call(b.client, 'browser_evaluate', { function: '() => document.title' }),
      ],
      [
        'click a button',
        () => call(a.client, 'click', { selector: '#go' }),
        () => call(b.client, 'browser_click', { element: 'Go', target: go }),
      ],
      [
        'type 12 chars (replacing)',
        () => call(a.client, 'type', { selector: '#name', text: 'Ada Lovelace', clear: true }),
        () => call(b.client, 'browser_type', { element: 'Name', target: name, text: 'Ada Lovelace' }),
      ],
    ];
    for (const [label, ourCall, theirCall] of calls) {
      for (let i = 0; i < WARM_UP; i++) await Promise.all([ourCall(), theirCall()]);
      const mine: number[] = [];
      const peer: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        for (const [run, into] of [
          [ourCall, mine],
          [theirCall, peer],
        ] as const) {
          const begun = performance.now();
          await run();
          into.push(performance.now() - begun);
        }
      }
      const ms = (values: number[], p: number) => percentile(values, p).toFixed(1);
      table.add([
        `${label} (${elements.toLocaleString('en-US')} el)`,
        ms(mine, 50),
        ms(mine, 95),
        ms(peer, 50),
        ms(peer, 95),
        `${(percentile(peer, 50) / percentile(mine, 50)).toFixed(1)}x`,
      ]);
    }
  }
} finally {
  for (const { client, work } of [a, b]) {
    await client.close();
    rmSync(work, { recursive: true, force: true, maxRetries: 5 });
  }
  await site.close();
}
console.log(`\ncalls beside Playwright MCP, ${ROUNDS} interleaved rounds each, ms over MCP stdio\n`);
table.print();
