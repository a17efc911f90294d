// What a click asks of the browser after its input, on real Chromium: on a site allowed to act but not trusted, the
// url watch and the act window each wait on a round trip through the renderer after the press, and one round trip
// serves both. A count, not a speed: each step added is paid on every act, and more through the extension.
import { expect, it } from 'vitest';
import { createEngineExecutor } from '../../shared/engine/executor.js';
import { recordSends, stepsOf, type Sent } from '../../scripts/bench/cdp-ledger.js';
import { startTestBrowser } from '../support/browser.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';
import { TEST_GATE, testServerPolicy } from '../support/test-policy.js';

const sent: Sent[] = [];

const suite = useEngineSuite({
  startBrowser: () => startTestBrowser(TEST_GATE, (connection) => recordSends(connection, sent)),
});

it('a steady click on a site that is not trusted waits on one round trip after its press', async () => {
  const policy = testServerPolicy('act', ['127.0.0.1']);
  const executor = createEngineExecutor(suite.browser.host, { tag: 'act-trips', policy: () => policy });
  try {
    await executor.run('tab_new', { url: suite.server.url('bench-sized.html?n=100') }, ctx);
    // The first click arms what stays armed and turns focus emulation on; the one after is the steady one.
    await executor.run('click', { selector: '#go' }, ctx);
    sent.length = 0;
    expect((await executor.run('click', { selector: '#go' }, ctx)).text).toBe('clicked button "Go"');
    const pressed = Math.max(
      ...sent.filter((entry) => entry.method === 'Input.dispatchMouseEvent').map((entry) => entry.end),
    );
    const after = stepsOf(sent.filter((entry) => entry.start >= pressed && Number.isFinite(entry.end)));
    // The act window's disarm goes out unawaited as the call ends; the round trips the call waited on are evaluates.
    const waited = after.filter((step) => step.some((entry) => entry.method === 'Runtime.evaluate'));
    expect(waited.map((step) => step.map((entry) => entry.method))).toEqual([['Runtime.evaluate']]);
  } finally {
    executor.dispose();
  }
});
