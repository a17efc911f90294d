// An A/B of two builds' eval or type, each its own chrome-mcp over MCP stdio (fallback backend, headless), calls
// interleaved so a busy machine weighs on both alike: `tsx scripts/bench/ab-builds.ts <tree A> <tree B>`, each tree
// built (`npm run build`). BENCH_ROUNDS sets the rounds, BENCH_ELEMENTS the page's size, BENCH_OP the call (eval, or
// type: the sweep's clear and type of 12 chars), BENCH_EXPRESSION what eval evaluates. BENCH_PAUSE_MS pauses before
// each timed call, as an agent's calls are apart: on a large page the frame the last call's input left is then drawn,
// not waited for by the next call (the page's cost, which back to back each call pays for the one before).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFixtureServer } from '../../test/support/fixture-server.js';
import { call, connect } from './mcp-client.js';
import { percentile, ROUNDS } from './measure.js';
import { sizedPage } from './sweep.js';

const EXPRESSION = process.env['BENCH_EXPRESSION'] ?? 'document.title';
const ELEMENTS = Number(process.env['BENCH_ELEMENTS'] ?? 100);
const WARM_UP = 10;
const CALLS: Record<string, [string, Record<string, unknown>]> = {
  eval: ['eval', { expression: EXPRESSION }],
  type: ['type', { selector: '#name', text: 'Ada Lovelace', clear: true }],
};
const OP = process.env['BENCH_OP'] ?? 'eval';
const PAUSE_MS = Number(process.env['BENCH_PAUSE_MS'] ?? 0);

async function main(trees: string[]): Promise<void> {
  if (trees.length !== 2) throw new Error('usage: tsx scripts/bench/ab-builds.ts <tree A> <tree B>');
  const [op, args] = CALLS[OP] ?? [];
  if (!op) throw new Error(`BENCH_OP is one of ${Object.keys(CALLS).join(', ')}`);
  const server = await startFixtureServer();
  const dataDirs = trees.map(() => mkdtempSync(join(tmpdir(), 'chrome-mcp-bench-ab-')));
  const sides = await Promise.all(
    trees.map((tree, index) =>
      connect(dataDirs[index]!, [], undefined, resolve(tree, 'dist/electron/helper/cli.js')).then(
        (side) => side.client,
      ),
    ),
  );
  try {
    const url = sizedPage(server, ELEMENTS);
    for (const client of sides) {
      await call(client, 'tab_new', { url });
      for (let round = 0; round < WARM_UP; round++) await call(client, op, args);
    }
    const samples = sides.map((): number[] => []);
    for (let round = 0; round < ROUNDS; round++) {
      // Alternating which goes first: neither always meets the machine just after the other's call.
      for (const index of round % 2 === 0 ? [0, 1] : [1, 0]) {
        if (PAUSE_MS > 0) await sleep(PAUSE_MS);
        const start = performance.now();
        await call(sides[index]!, op, args);
        samples[index]!.push(performance.now() - start);
      }
    }
    const ms = (value: number) => value.toFixed(2);
    trees.forEach((tree, index) => {
      const taken = samples[index]!;
      console.log(
        `${'AB'[index]} ${tree}: ${op} p50 ${ms(percentile(taken, 50))} ms, p95 ${ms(percentile(taken, 95))} ms`,
      );
    });
    const [a, b] = samples.map((taken) => percentile(taken, 50));
    const what = op === 'eval' ? EXPRESSION : JSON.stringify(args);
    const apart = PAUSE_MS > 0 ? `, ${PAUSE_MS} ms apart` : '';
    console.log(
      `B − A p50: ${ms(b! - a!)} ms over ${ROUNDS} interleaved rounds${apart}, ${ELEMENTS} elements, ${op} ${what}`,
    );
  } finally {
    await Promise.all(sides.map((client) => client.close()));
    await server.close();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  }
}

await main(process.argv.slice(2));
