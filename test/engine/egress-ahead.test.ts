// The egress hold of a steady eval on real Chromium: the script's own last line takes the drain's turn (TURN_LINE), so
// what it queued for later (a zero-delay timer, one a promise job sets) is held with no evaluate of the drain's own;
// a script that throws before that line, or answers a promise, is drained as before.
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { evaluate } from '../../shared/engine/ops/eval.js';
import type { PageContext } from '../../shared/engine/page-context.js';
import type { OperationResult } from '../../shared/protocol/operations.js';
import { recordSends, type Sent } from '../../scripts/bench/cdp-ledger.js';
import { startTestBrowser } from '../support/browser.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';
import { pageEval } from '../support/page-probes.js';
import { TEST_GATE } from '../support/test-policy.js';
import { startWatchedSite, type WatchedSite } from '../support/watched-site.js';

const sent: Sent[] = [];
const suite = useEngineSuite({
  startBrowser: () => startTestBrowser(TEST_GATE, (connection) => recordSends(connection, sent)),
});
let watched: WatchedSite;
let page: PageContext;

beforeAll(async () => {
  watched = await startWatchedSite();
  ({ page } = await suite.browser.open(suite.server.url('egress-page.html')));
  // The first eval arms what stays (the trail, the watch); the next ones go ahead.
  for (let round = 0; round < 2; round++) await run('1');
});
afterAll(() => watched?.close());
afterEach(async () => {
  await watched.settled();
  watched.requests.length = 0;
});

function run(expression: string): Promise<OperationResult> {
  return evaluate(page, { expression }, ctx);
}

/** The call's result, and how many Runtime.evaluate it sent before answering. */
async function counted(expression: string): Promise<{ result: OperationResult; evaluates: number }> {
  sent.length = 0;
  const result = await run(expression);
  return { result, evaluates: sent.filter((entry) => entry.method === 'Runtime.evaluate').length };
}

function held(result: OperationResult): string[] {
  return ((result.data?.['held'] ?? []) as string[]).map((entry) => entry.replaceAll(watched.origin, 'W'));
}

const beacon = (path: string) => `navigator.sendBeacon('${watched.origin}/${path}', 'x')`;

it('holds a send a zero-delay timer makes, the script answering in its one evaluate', async () => {
  const { result, evaluates } = await counted(`setTimeout(() => ${beacon('timer')}, 0); 'queued'`);
  expect(result.text.split('\n')[0]).toBe('"queued"');
  expect(held(result)).toEqual(['POST W/timer (Ping)']);
  // The script's evaluate and its end mark right behind it (eval-spans.ts): no evaluate of the drain's own.
  expect(evaluates).toBe(2);
});

it('holds a send of a timer that the script’s promise jobs set', async () => {
  const { result } = await counted(
    `Promise.resolve().then(() => 0).then(() => setTimeout(() => ${beacon('chained')}, 0)); 'chained'`,
  );
  expect(held(result)).toEqual(['POST W/chained (Ping)']);
});

it('keeps the answer of a script ending in a declaration, and of one that ends in a comment', async () => {
  expect((await run('let declared = 5')).text.split('\n')[0]).toBe('undefined');
  expect((await run('6 * 7 // the answer')).text.split('\n')[0]).toBe('42');
});

it('drains, as before, a script that throws before its last line, and one that answers a promise', async () => {
  const thrown = await run(`setTimeout(() => ${beacon('thrown')}, 0); throw 1`);
  expect(thrown.data?.['ok']).toBe(false);
  expect(held(thrown)).toEqual(['POST W/thrown (Ping)']);
  const promised = await run(
    `new Promise((resolve) => setTimeout(() => (resolve(1), setTimeout(() => ${beacon('late')}))))`,
  );
  expect(held(promised)).toEqual(['POST W/late (Ping)']);
});

it('answers on a page whose setTimeout is a fake clock that never fires', async () => {
  await pageEval(page, `window.realSetTimeout = setTimeout; window.setTimeout = () => 0; 0`);
  try {
    expect((await run('6 * 7')).text.split('\n')[0]).toBe('42');
  } finally {
    await pageEval(page, `window.setTimeout = window.realSetTimeout; 0`);
  }
}, 20_000);
