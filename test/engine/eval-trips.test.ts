// What a steady eval asks of the browser, on real Chromium: once a page's first eval armed what stays armed and its
// watch told the document quiet, the next one waits on one round trip (the hold's rules, then the script and the drain,
// sent at once on the tab's session) and asks the browser nothing else before it answers. A count, not a speed: each
// trip added is a cost paid on every eval.
import { expect, it } from 'vitest';
import { createEngineExecutor } from '../../shared/engine/executor.js';
import { policyFromFlags } from '../../shared/policy/flags.js';
import { recordSends, stepsOf, type Sent } from '../../scripts/bench/cdp-ledger.js';
import { startTestBrowser } from '../support/browser.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';
import { TEST_GATE, testServerHosts } from '../support/test-policy.js';

const sent: Sent[] = [];

const suite = useEngineSuite({
  startBrowser: () => startTestBrowser(TEST_GATE, (connection) => recordSends(connection, sent)),
});

it('a steady eval waits on one round trip and asks nothing else first', async () => {
  const policy = policyFromFlags({ allow: [], trust: testServerHosts() });
  const executor = createEngineExecutor(suite.browser.host, { tag: 'trips', policy: () => policy });
  try {
    await executor.run('tab_new', { url: suite.server.url('mcp-hello.html') }, ctx);
    // The first eval arms what stays (the trail, the guard's watch); the second finds the last one's restore answered.
    for (let round = 0; round < 2; round++) await executor.run('eval', { expression: 'document.title' }, ctx);
    await executor.run('tabs', {}, ctx);
    sent.length = 0;
    const result = await executor.run('eval', { expression: 'document.title' }, ctx);
    expect(result.text).toBe('"Hello from the fixture"');
    // Up to the script's answer: what follows it (the restore, the release) goes unawaited. The host switches the
    // service-worker bypass on hearing the script parsed (attached-tab.ts), which the call does not wait for either.
    const answered = Math.max(...sent.filter((entry) => entry.method === 'Runtime.evaluate').map((entry) => entry.end));
    const waited = sent.filter((entry) => entry.start < answered && entry.method !== 'Network.setBypassServiceWorker');
    const steps = stepsOf(waited).map((step) => step.map((entry) => entry.method).sort());
    expect(steps).toEqual([
      ['Network.emulateNetworkConditionsByRule', 'Network.setBlockedURLs', 'Runtime.evaluate', 'Runtime.evaluate'],
    ]);
  } finally {
    executor.dispose();
  }
});
