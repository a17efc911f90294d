// Cold start, as a client meets it: spawn to the first tools/list, then the first navigate (the engine's import, the
// browser's launch and the first load), then a second navigate to another page of the same server (the warm cost).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { FixtureServer } from '../../test/support/fixture-server.js';
import { call, connect } from './mcp-client.js';
import { percentile } from './measure.js';

export interface ColdStart {
  /** Spawn to the first tools/list answered, per run. */
  list: number[];
  /** The first navigate's call, per run: what the launch and the first load cost together. */
  firstNavigate: number[];
  /** A second navigate in the same session: the load alone. */
  warmNavigate: number[];
  /** The size of tools/list, as the last run saw it. */
  listBytes: number;
}

export async function coldStart(server: FixtureServer, runs = 5): Promise<ColdStart> {
  const result: ColdStart = { list: [], firstNavigate: [], warmNavigate: [], listBytes: 0 };
  for (let i = 0; i < runs; i++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'chrome-mcp-bench-start-'));
    const session = await connect(dataDir);
    try {
      result.list.push(session.startMs);
      result.listBytes = session.listBytes;
      result.firstNavigate.push(await timed(() => call(session.client, 'navigate', { url: server.url('form.html') })));
      result.warmNavigate.push(
        await timed(() => call(session.client, 'navigate', { url: server.url('bench-signup.html') })),
      );
    } finally {
      await session.client.close();
      rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 });
    }
  }
  return result;
}

/** The lines the bench prints for it. */
export function coldStartLines(cold: ColdStart): string[] {
  const line = (name: string, samples: number[]) =>
    `${name}: p50 ${percentile(samples, 50).toFixed(0)} ms (max ${Math.max(...samples).toFixed(0)} ms)`;
  return [
    line('spawn -> first tools/list', cold.list),
    line('first navigate (browser launch + first load)', cold.firstNavigate),
    line('second navigate (load alone)', cold.warmNavigate),
  ];
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}
