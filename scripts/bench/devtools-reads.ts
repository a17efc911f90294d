// What reading the console or the network log costs beside a plain call: a session with the devtools tools on, a page
// that has logged 300 lines and made 100 requests, each read timed against `status` (which no backend answers) and
// `tabs` in the same run. The capture is pushed by CDP as it happens, so a read should cost no round trip per event.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FixtureServer } from '../../test/support/fixture-server.js';
import { call, connect } from './mcp-client.js';
import { ROUNDS, settle, Table, time } from './measure.js';

export async function devtoolsReads(server: FixtureServer): Promise<Table> {
  const table = new Table(['call', 'p50', 'p95', 'status p50', 'status p95', 'p50 ratio']);
  const dataDir = mkdtempSync(join(tmpdir(), 'chrome-mcp-bench-devtools-'));
  const { client } = await connect(dataDir, ['--caps', 'devtools']);
  try {
    await call(client, 'tab_new', { url: server.url('network-page.html') });
    await call(client, 'eval', {
      expression: `for (let i = 0; i < 300; i++) console.log('line', i);
        await Promise.all(Array.from({ length: 100 }, (_, i) => fetch('/network-data.json?i=' + i))); 0`,
    });
    await settle();
    const plain = await time(ROUNDS, () => call(client, 'status'));
    table.report('status', plain);
    table.report('tabs', await time(ROUNDS, () => call(client, 'tabs')), plain);
    table.report('console (300 lines kept, last 50)', await time(ROUNDS, () => call(client, 'console', {})), plain);
    table.report('network (100+ requests kept)', await time(ROUNDS, () => call(client, 'network', {})), plain);
  } finally {
    await client.close();
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 });
  }
  return table;
}
