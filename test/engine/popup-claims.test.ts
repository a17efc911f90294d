// Two guards on one popup's session (the fallback host's, then the engine's page context), on real Chromium: a request
// the host's guard waits on (its initiator not told yet) is answered by it alone, so a navigation the agent's script
// makes in a window it opened reaches no one even when its pause comes before its initiator (pauses-first.ts), or when
// its initiator never comes (held once the verdict is overdue), while the window's own navigations still load.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEngineExecutor, type EngineExecutor } from '../../shared/engine/executor.js';
import { PolicyGate } from '../../shared/engine/policy-gate.js';
import type { Policy } from '../../shared/policy/policy.js';
import { startTestBrowser } from '../support/browser.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';
import { heldLater } from '../support/late-results.js';
import { pausesFirst, type PopupFetch } from '../support/pauses-first.js';
import { testServerPolicy } from '../support/test-policy.js';
import { startWatchedSite, type WatchedSite } from '../support/watched-site.js';
import { until } from '../extension/support/until.js';
import { withSite } from '../extension/support/watched-popups.js';

let watched: WatchedSite;
let policy: Policy;
// The watched site may be read and acted on, so a navigation to it meets no policy refusal: only the script's hold
// stops it, and the engine's guard alone would let it go.
const gate = new PolicyGate(() => policy);
const suite = useEngineSuite({
  startBrowser: async () => {
    watched = await startWatchedSite();
    policy = withSite(testServerPolicy('trusted', ['127.0.0.1']), watched, 'act');
    return startTestBrowser(gate, (connection) => pausesFirst(connection, { fetch, untold: /untold/ }));
  },
});
let executor: EngineExecutor;
let tab: string;
const named: string[] = [];
/** Every pause of the window's requests, and every answer sent to one. */
const fetch: PopupFetch = { paused: [], answered: [] };

const run = async (expression: string, inTab = tab) => {
  const result = await executor.run('eval', { tab: inTab, expression }, ctx);
  named.push(...heldLater(result, watched));
  return result;
};
const listed = async () => (await executor.run('tabs', {}, ctx)).data?.['tabs'] as { tab: string; url: string }[];

beforeAll(async () => {
  executor = createEngineExecutor(suite.browser.host, { tag: 'wc', policy: () => policy });
  const opened = await executor.run('tab_new', { url: suite.server.url('egress-late.html') }, ctx);
  tab = String(opened.data?.['tab']);
});
afterAll(async () => {
  executor?.dispose();
  await watched?.close();
});

it('holds a navigation the script makes in its window, though the engine’s guard on it would let it go', async () => {
  await run(`window.claimed = window.open(${JSON.stringify(suite.server.url('nav-a.html'))}); 0`);
  // The tab session gives the window a page context with a guard of its own as it opens. No eval runs in the window:
  // that would start the window's own script trail, which waits for the initiator too.
  const shown = await until(listed, (tabs) => tabs.some((each) => each.url.endsWith('nav-a.html')), 20_000);
  const popup = shown.find((each) => each.url.endsWith('nav-a.html'))!.tab;
  const loaded = await until(
    () => run('claimed.document.readyState'),
    (result) => result.text === '"complete"',
    20_000,
  );
  expect(loaded.text).toBe('"complete"');
  await run(`claimed.location.href = '${watched.origin}/claimed-nav'; 0`);
  const held = await until(
    async () => (await run('0'), named),
    (all) => all.length > 0,
    20_000,
  );
  expect(held).toEqual(['GET W/claimed-nav (navigation)']);
  expect(watched.requests).toEqual([]);
  // The window's own navigation, which no script of the agent's made, still goes.
  await executor.run('navigate', { tab: popup, url: `${watched.origin}/` }, ctx);
  expect(watched.requests).toContain('/');
  expect(watched.requests).not.toContain('/claimed-nav');
  // Each pause of the window's was answered once, by one guard, though two judge the window.
  expect(fetch.paused.length).toBeGreaterThan(2);
  expect([...fetch.answered].sort()).toEqual([...fetch.paused].sort());
});

it('holds one whose initiator is never told, once its verdict is overdue, rather than let it go', async () => {
  named.length = 0;
  await run(`window.untold = window.open(${JSON.stringify(suite.server.url('nav-b.html'))}); 0`);
  const loaded = await until(
    () => run('untold.document.readyState'),
    (result) => result.text === '"complete"',
    20_000,
  );
  expect(loaded.text).toBe('"complete"');
  await run(`untold.location.href = '${watched.origin}/untold-nav'; 0`);
  const held = await until(
    async () => (await run('0'), named),
    (all) => all.length > 0,
    20_000,
  );
  expect(held).toEqual(['GET W/untold-nav (navigation)']);
  expect(watched.requests).not.toContain('/untold-nav');
});
