// A blob window an agent's script opens, through the engine's own tab session (which gives the window a page context
// of its own, as the app does): what its page sends a second later reaches no one, and a later result names it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngineExecutor, type EngineExecutor } from '../../shared/engine/executor.js';
import { PolicyGate } from '../../shared/engine/policy-gate.js';
import type { Policy } from '../../shared/policy/policy.js';
import { startTestBrowser } from '../support/browser.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';
import { lateDocument } from '../support/late-documents.js';
import { heldLater } from '../support/late-results.js';
import { testServerPolicy } from '../support/test-policy.js';
import { startWatchedSite, type WatchedSite } from '../support/watched-site.js';
import { until } from '../extension/support/until.js';
import { withSite } from '../extension/support/watched-popups.js';

let watched: WatchedSite;
let policy: Policy;
// The watched site may be read and acted on, so a window to it meets no policy refusal: only the hold stops it.
const gate = new PolicyGate(() => policy);
const suite = useEngineSuite({
  startBrowser: async () => {
    watched = await startWatchedSite();
    policy = withSite(testServerPolicy('trusted', ['127.0.0.1']), watched, 'act');
    return startTestBrowser(gate);
  },
});
let executor: EngineExecutor;
let tab: string;

beforeAll(async () => {
  executor = createEngineExecutor(suite.browser.host, { tag: 'wd', policy: () => policy });
  const opened = await executor.run('tab_new', { url: suite.server.url('egress-late.html') }, ctx);
  tab = String(opened.data?.['tab']);
});
afterAll(async () => {
  executor?.dispose();
  await watched?.close();
});

describe('a blob window the script opens, through the tab session', () => {
  it('sends nothing out a second later, and a later result names what it tried', async () => {
    const named: string[] = [];
    const run = async (expression: string) => {
      const result = await executor.run('eval', { tab, expression }, ctx);
      named.push(...heldLater(result, watched));
      return result;
    };
    await run(lateDocument('blob-window', `${watched.origin}/blob-window`, 'blobWindow'));
    // Each look is an eval of its own, whose result names what was held since the one before.
    expect(
      (
        await until(
          () => run('window.blobWindow === true'),
          (result) => result.text === 'true',
          20_000,
        )
      ).text,
    ).toBe('true');
    expect(
      await until(
        async () => (await run('0'), named),
        (held) => held.length > 0,
      ),
    ).toEqual(['GET W/blob-window (Fetch)']);
    expect(watched.requests).toEqual([]);
  });
});
