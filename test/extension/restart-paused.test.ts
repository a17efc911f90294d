// What a script left behind, sent while the extension's worker is stopped, through the real extension: a request the
// stopped worker was told of and never answered (it stopped first; here it sits in its debugger) is failed by the next
// worker rather than sent by its letting go of the tab, and a `location = …` the script made while no worker ran is
// failed too; each is named in the next eval's result.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PAUSED_RECORD_KEY } from '../../extension/src/paused-record.js';
import { parseSitePattern } from '../../shared/policy/pattern.js';
import type { Policy } from '../../shared/policy/policy.js';
import type { OperationResult } from '../../shared/protocol/operations.js';
import { startWatchedSite, type WatchedSite } from '../support/watched-site.js';
import { testServerPolicy } from '../support/test-policy.js';
import { startEgressTab, type EgressTab } from './support/egress-tab.js';
import type { LinkedExtension } from './support/linked-extension.js';
import type { PageProbe } from './support/page-probe.js';
import { reachedBesidesOwn } from './support/reached-site.js';
import { until } from './support/until.js';
import { forgetWatched } from './support/watched-popups.js';

let started: EgressTab;
let linked: LinkedExtension;
/** A site the policy refuses. */
let refused: WatchedSite;
let page: PageProbe;
let url: string;
const KEY = `document.getElementById('secret').textContent`;

beforeAll(async () => {
  refused = await startWatchedSite('127.0.0.3');
  const policy = (): Policy => ({
    ...testServerPolicy('trusted', ['127.0.0.1']),
    rules: [{ site: parseSitePattern(new URL(refused.origin).host), level: 'blocked' }],
  });
  started = await startEgressTab(policy, 'egress-late.html');
  ({ linked, page } = started);
  url = linked.fixtures.url('egress-late.html');
});

afterAll(async () => {
  await started?.close();
  await refused?.close();
});

afterEach(async () => {
  await forgetWatched(linked, refused);
});

/** The page's tab handle in the current session (a restart hands out new handles). */
async function handle(): Promise<string> {
  const tabs = (await linked.run('tabs')).data?.['tabs'] as Array<{ tab: string; url: string }>;
  return tabs.find((tab) => tab.url === url)!.tab;
}

const run = async (expression: string) => linked.run('eval', { tab: await handle(), expression });

function heldLater(result: OperationResult): string[] {
  return ((result.data?.['heldLater'] ?? []) as string[]).map((entry) => entry.replaceAll(refused.origin, 'X'));
}

/** The next results' first non-empty heldLater (or none, once something reached the refused site). */
function nextHeld(): Promise<string[]> {
  return until(
    async () => heldLater(await run('1')),
    (held) => held.length > 0 || refused.requests.some((path) => path !== '/page-own'),
    20_000,
  );
}

/** The addresses of the requests the extension's attachments paused and left unanswered, as it records them. */
const unanswered = () =>
  linked.browser.evaluate<string[]>(
    `chrome.storage.session.get('${PAUSED_RECORD_KEY}').then((stored) =>
      (stored['${PAUSED_RECORD_KEY}']?.unanswered ?? []).map((entry) => entry.url))`,
  );

/** Leaves a timer in the page that runs `then` (script text) once the page sets `window[go]`. */
async function leave(go: string, then: string): Promise<void> {
  const [flag, done] = [JSON.stringify(go), JSON.stringify(`${go}Done`)];
  await run(`{ const timer = setInterval(() => { if (!window[${flag}]) return; clearInterval(timer); ${then};
    window[${done}] = true; }, 50); } 0`);
}

describe('a stopped worker', () => {
  it('fails, not sends, a request it was told of and never answered, and the next eval names it', async () => {
    await leave('goPaused', `fetch('${refused.origin}/paused?key=' + encodeURIComponent(${KEY}), { mode: 'no-cors' })`);
    // The worker stops between hearing of the paused request and answering it: held in its debugger meanwhile.
    const { control } = linked.browser;
    const targetId = await linked.browser.workerTarget();
    const { sessionId } = await control.send<{ sessionId: string }>('Target.attachToTarget', {
      targetId,
      flatten: true,
    });
    let paused = false;
    const stopListening = control.on((event) => {
      if (event.method === 'Debugger.paused' && event.sessionId === sessionId) paused = true;
    });
    try {
      await control.send('Debugger.enable', {}, sessionId);
      await control.send('Debugger.pause', {}, sessionId);
      await page.evaluate('window.goPaused = true');
      await page.until('goPausedDone');
      // Paused at the first event it is told of; the request's own pause comes with or after it.
      expect(await until(async () => paused, Boolean)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(refused.requests).toEqual([]);
      const relinked = linked.nextLink();
      await linked.browser.stopWorker();
      await relinked;
    } finally {
      stopListening();
    }
    expect(await nextHeld()).toEqual(['a request whose address was not told (paused as the extension stopped)']);
    expect(await reachedBesidesOwn(page, refused)).toEqual([]);
  }, 90_000);

  it("fails the script's `location = …` made while no worker runs, and the next eval names it", async () => {
    await leave('goStopped', `location.href = '${refused.origin}/while-stopped?key=' + encodeURIComponent(${KEY})`);
    const relinked = linked.nextLink();
    await linked.browser.stopWorker();
    // The stopped worker's attachment still pauses the tab's navigation; the worker Chrome starts to tell of it fails it.
    await page.evaluate('window.goStopped = true');
    await page.until('goStoppedDone');
    await relinked;
    expect(await nextHeld()).toEqual(['GET X/while-stopped?key=[redacted 34 chars] (navigation)']);
    expect(await reachedBesidesOwn(page, refused)).toEqual([]);
    expect(await page.evaluate<string>('location.href')).toBe(url);
  }, 90_000);
});

describe('a window the script opens while no worker runs', () => {
  it('is held, and the next eval names it', async () => {
    // Within the eval's activation, so Chrome's popup blocker lets the window open.
    await leave('goWindow', `window.open('${refused.origin}/window-stopped?key=' + encodeURIComponent(${KEY}))`);
    const relinked = linked.nextLink();
    await linked.browser.stopWorker();
    await page.evaluate('window.goWindow = true');
    await page.until('goWindowDone');
    await relinked;
    expect(await nextHeld()).toEqual(['X/window-stopped?key=[redacted 34 chars] (navigation, method not known)']);
    expect(await reachedBesidesOwn(page, refused)).toEqual([]);
  }, 90_000);
});

describe('the session ends', () => {
  it('fails, not sends, what the tab paused as it let go, and the next session names it', async () => {
    // The page's thread stays busy after the fetch, so the tab tells the request's initiator only seconds later: until
    // then the engine waits to judge it, paused (egress-trail.ts).
    await leave(
      'goEnd',
      `fetch('${refused.origin}/session-end?key=' + encodeURIComponent(${KEY}), { mode: 'no-cors' });
      const busy = Date.now() + 3000; while (Date.now() < busy);`,
    );
    await page.evaluate('window.goEnd = true');
    // The extension's own record of what its attachments paused unanswered names it: the session ends then.
    expect(
      await until(unanswered, (urls) => urls.some((at) => at.startsWith(`${refused.origin}/session-end`))),
    ).not.toEqual([]);
    const relinked = linked.nextLink();
    linked.bridge.link()?.close(1000, 'the session ended');
    await page.until('goEndDone');
    await relinked;
    expect(await nextHeld()).toEqual(['GET X/session-end?key=[redacted 34 chars] (XHR)']);
    expect(await reachedBesidesOwn(page, refused)).toEqual([]);
  }, 90_000);
});

// A tab the stopped worker drove, or one a session let go of, is held by the extension's rules (scripted-tabs.ts) until
// the next engine attaches it again and follows the script's trail from the start: before, 30 of 30 sends after a
// restart's relink reached the blocked site, and 33 of 33 after a session's end.
/**
 * A timer the script leaves, sending the page's key to the refused site at `/<name>` every 100 ms once the page sets
 * `window.<name>Go`, until it has sent `window.<name>To`.
 */
const ticker = (name: string) => `{ let sent = 0; const timer = setInterval(() => { if (!window.${name}Go) return;
  if (sent >= window.${name}To) { clearInterval(timer); window.${name}Done = true; return; }
  fetch('${refused.origin}/${name}?n=' + sent++ + '&key=' + encodeURIComponent(${KEY}), { mode: 'no-cors' });
  window.${name}Sent = sent; }, 100); } 0`;

/** Thirty more sends of the ticker, then: none reached the site, and the next eval names them. */
async function thirtyMoreHeld(name: string): Promise<void> {
  await page.evaluate(`window.${name}To = window.${name}Sent + 30`);
  await page.until(`${name}Done`);
  expect(await reachedBesidesOwn(page, refused)).toEqual([]);
  const held = await nextHeld();
  expect(held.length).toBeGreaterThan(0);
  // Named by the trail (Fetch) or, failed while no engine followed the tab, by the host (as Chrome's Fetch calls it).
  const named = new RegExp(
    `^GET X/${name}\\?n=\\[redacted \\d chars\\]&key=\\[redacted 34 chars\\] \\((Fetch|XHR)\\)$|not told`,
  );
  for (const entry of held) expect(entry).toMatch(named);
}

describe('after the worker restarts, before any call', () => {
  it("holds what the script's timer sends, and the next eval names it", async () => {
    // A send every 100 ms from the restart on: any moment the tab is not followed lets one through.
    await run(ticker('tick'));
    const relinked = linked.nextLink();
    await linked.browser.stopWorker();
    await page.evaluate('window.tickTo = 1e9; window.tickGo = true');
    await relinked;
    await thirtyMoreHeld('tick');
  }, 90_000);
});

describe('after the session ends, as the next one starts', () => {
  it("holds what the script's timer sends, and the next eval names it", async () => {
    // A send every 100 ms from the session's end on: any moment the tab is not followed lets one through.
    await run(ticker('ended'));
    await page.evaluate('window.endedTo = 1e9; window.endedGo = true');
    const relinked = linked.nextLink();
    linked.bridge.link()?.close(1000, 'the session ended');
    await relinked;
    await thirtyMoreHeld('ended');
  }, 90_000);
});
