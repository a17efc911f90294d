// Cold start beside Playwright MCP, in one run: each server spawned fresh over MCP stdio, timed to its first
// tools/list and then to its first navigate's answer on the same local login page, in alternating rounds so both meet
// the same machine. Playwright MCP is not a dependency: point PLAYWRIGHT_MCP at its cli.js (an `npm i @playwright/mcp`
// outside the repo); without it the script says so and exits cleanly.
// Run: npm run build && PLAYWRIGHT_MCP=/tmp/pwmcp/node_modules/@playwright/mcp/cli.js npx tsx scripts/bench/cold-start-compare.ts
// (CHROME_MCP_BEFORE=<an earlier build's dist/electron/helper/cli.js> adds that build as a third column.)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startFixtureServer } from '../../test/support/fixture-server.js';
import { percentile } from './measure.js';
import { CLI, connectOver } from './mcp-client.js';
import { ours, playwrightMcp, type Server } from './peer-servers.js';

const ROUNDS = Number(process.env['COLD_ROUNDS'] ?? 6);
const PAGE = 'guard-login.html';
const BEFORE = process.env['CHROME_MCP_BEFORE'];

interface Samples {
  list: number[];
  first: number[];
  total: number[];
}

/** One fresh server: spawn → tools/list → the first navigate, each mark from the spawn. */
async function round(server: Server, url: string, into: Samples): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'chrome-mcp-cold-'));
  const start = performance.now();
  let client: Client | undefined;
  try {
    client = await connectOver(server.spawn(work), 'cold-start');
    await client.listTools();
    const listed = performance.now();
    const result = await client.callTool({ name: server.navigate, arguments: { url } });
    const answered = performance.now();
    if (result.isError) throw new Error(`${server.name} navigate failed: ${JSON.stringify(result.content)}`);
    into.list.push(listed - start);
    into.first.push(answered - listed);
    into.total.push(answered - start);
  } finally {
    await client?.close();
    rmSync(work, { recursive: true, force: true, maxRetries: 5 });
  }
}

function line(name: string, samples: Samples): string {
  const cell = (values: number[]) =>
    `${percentile(values, 50).toFixed(0)} (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})`;
  return `${name.padEnd(16)}${cell(samples.list).padEnd(22)}${cell(samples.first).padEnd(22)}${cell(samples.total)}`;
}

const theirs = playwrightMcp();
if (!theirs) {
  console.log('cold start beside Playwright MCP: skipped (set PLAYWRIGHT_MCP to the cli.js of @playwright/mcp)');
  process.exit(0);
}
const site = await startFixtureServer();
const servers = [ours('chrome-mcp', CLI), ...(BEFORE ? [ours('chrome-mcp before', BEFORE)] : []), theirs];
const results = new Map<Server, Samples>(servers.map((server) => [server, { list: [], first: [], total: [] }]));
try {
  for (let i = 0; i < ROUNDS; i++) {
    // Alternating who goes first, so none always meets a page cache or a CPU another just warmed.
    const order = i % 2 === 0 ? servers : [...servers].reverse();
    for (const server of order) await round(server, site.url(PAGE), results.get(server)!);
  }
} finally {
  await site.close();
}
console.log(`\ncold start, ${ROUNDS} alternating rounds, ms: p50 (min–max); ${PAGE} on loopback\n`);
console.log(`${'server'.padEnd(16)}${'spawn → tools/list'.padEnd(22)}${'first navigate'.padEnd(22)}spawn → navigated`);
for (const [server, samples] of results) console.log(line(server.name, samples));
