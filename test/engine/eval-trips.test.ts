// What a steady eval asks of the browser, on real Chromium: once a page's first eval armed what stays armed and its
// watch told the document quiet, the next one waits on one round trip (the hold's rules, then the script ending in the
// drain's turn and the end mark of its evaluate's task right behind it, sent at once on the tab's session) and asks the
// browser nothing else before it answers; with the restore after it, six commands in all. A count, not a speed: each
// trip or command added is a cost paid on every eval.
import { expect, it, vi } from 'vitest';
import { createEngineExecutor } from '../../shared/engine/executor.js';
import { policyFromFlags } from '../../shared/policy/flags.js';
import { isPresenceRefresh, recordSends, stepsOf, type Sent } from '../../scripts/bench/cdp-ledger.js';
import { startTestBrowser } from '../support/browser.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';
import { TEST_GATE, testServerHosts } from '../support/test-policy.js';

const sent: Sent[] = [];

const suite = useEngineSuite({
  startBrowser: () => startTestBrowser(TEST_GATE, (connection) => recordSends(connection, sent, isPresenceRefresh)),
});

/** An executor on a tab showing the fixture, past its first evals: the first arms what stays (the trail, the watch). */
async function steadyTab(): Promise<ReturnType<typeof createEngineExecutor>> {
  const policy = policyFromFlags({ allow: [], trust: testServerHosts() });
  const executor = createEngineExecutor(suite.browser.host, { tag: 'trips', policy: () => policy });
  await executor.run('tab_new', { url: suite.server.url('mcp-hello.html') }, ctx);
  for (let round = 0; round < 2; round++) await executor.run('eval', { expression: 'document.title' }, ctx);
  // The second finds the last one's restore answered.
  await executor.run('tabs', {}, ctx);
  return executor;
}

/**
 * Every command one eval sends, awaited or not, sorted by method: what it leaves unawaited is out once the hold's
 * restore (its last) is answered.
 */
async function everySent(run: () => Promise<unknown>): Promise<string[]> {
  await settled();
  sent.length = 0;
  await run();
  await settled();
  return sent.map((entry) => entry.method).sort();
}

async function settled(): Promise<void> {
  await vi.waitFor(() => {
    const restores = sent.filter((entry) => entry.method === 'Network.setBlockedURLs');
    expect(restores.length % 2 === 0 && sent.every((entry) => Number.isFinite(entry.end))).toBe(true);
  });
}

it('a steady eval waits on one round trip and asks nothing else first', async () => {
  const executor = await steadyTab();
  try {
    sent.length = 0;
    const result = await executor.run('eval', { expression: 'document.title' }, ctx);
    expect(result.text).toBe('"Hello from the fixture"');
    // Up to the script's answer (the first evaluate; its end mark, eval-spans.ts, goes right behind it unawaited): what
    // follows it (the restore) goes unawaited.
    const answered = sent.find((entry) => entry.method === 'Runtime.evaluate')!.end;
    const waited = sent.filter((entry) => entry.start < answered);
    const steps = stepsOf(waited).map((step) => step.map((entry) => entry.method).sort());
    expect(steps).toEqual([
      ['Network.emulateNetworkConditionsByRule', 'Network.setBlockedURLs', 'Runtime.evaluate', 'Runtime.evaluate'],
    ]);
  } finally {
    executor.dispose();
  }
});

it('a steady eval of a value sends six commands in all: the hold, the script with its drain, its end mark, the restore', async () => {
  const executor = await steadyTab();
  try {
    const methods = await everySent(() => executor.run('eval', { expression: 'document.title' }, ctx));
    // No release (nothing was kept in the eval's object group) and no second service-worker bypass (one per document).
    expect(methods).toEqual([
      'Network.emulateNetworkConditionsByRule',
      'Network.emulateNetworkConditionsByRule',
      'Network.setBlockedURLs',
      'Network.setBlockedURLs',
      'Runtime.evaluate',
      'Runtime.evaluate',
    ]);
  } finally {
    executor.dispose();
  }
});

it('an eval answering an object lets it go; a new document is bypassed once more', async () => {
  const executor = await steadyTab();
  try {
    const described = await everySent(() => executor.run('eval', { expression: '({ a: 1 })' }, ctx));
    expect(described.filter((method) => method === 'Runtime.releaseObjectGroup')).toHaveLength(1);
    await executor.run('navigate', { url: suite.server.url('mcp-hello.html') }, ctx);
    const first = await everySent(() => executor.run('eval', { expression: 'document.title' }, ctx));
    expect(first.filter((method) => method === 'Network.setBypassServiceWorker')).toHaveLength(1);
    const next = await everySent(() => executor.run('eval', { expression: 'document.title' }, ctx));
    expect(next.filter((method) => method === 'Network.setBypassServiceWorker')).toHaveLength(0);
  } finally {
    executor.dispose();
  }
});
