// Popups and downloads under the site policy, on the fallback host: a popup of a driven tab is guarded before it may
// send its first request, so a refused site gets none through one; a download is refused while downloads are off, also
// from an allowed site, and nothing is saved.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CdpEvent } from '../../shared/engine/cdp.js';
import { aimToActivate } from '../../shared/engine/activation.js';
import { createEngineExecutor, type EngineExecutor } from '../../shared/engine/executor.js';
import { PolicyGate } from '../../shared/engine/policy-gate.js';
import { resolveTarget } from '../../shared/engine/targets.js';
import { parseSitePattern } from '../../shared/policy/pattern.js';
import type { Policy } from '../../shared/policy/policy.js';
import type { Operation, OperationResult } from '../../shared/protocol/operations.js';
import { startTestBrowser } from '../support/browser.js';
import { pageEval } from '../support/page-probes.js';
import { ctx, failure, useEngineSuite } from '../support/engine-suite.js';
import { until } from '../extension/support/until.js';
import { startWatchedSite, type WatchedSite } from '../support/watched-site.js';
import { testServerPolicy } from '../support/test-policy.js';

/** 127.0.0.1 (the fixture server) may be read, acted on and scripted; everything else is asked about. */
const HOME_TRUSTED = testServerPolicy('trusted', ['127.0.0.1']);
let policy: Policy = HOME_TRUSTED;
// The host keeps the browser's own download switch to the same live policy the engine enforces.
const gate = new PolicyGate(() => policy);
const suite = useEngineSuite({ startBrowser: () => startTestBrowser(gate) });
let executor: EngineExecutor;
let watched: WatchedSite;
/** Every download event the browser reported on any session of ours. */
const downloads: CdpEvent[] = [];

beforeAll(async () => {
  watched = await startWatchedSite();
  executor = createEngineExecutor(suite.browser.host, { tag: 'tw', policy: () => policy });
  suite.browser.browser.connection.on((event) => {
    if (event.method.startsWith('Page.download')) downloads.push(event);
  });
});
afterAll(async () => {
  executor?.dispose();
  await watched?.close();
});
beforeEach(() => {
  policy = HOME_TRUSTED;
});
afterEach(async () => {
  // A popup left showing the watched site would report its focus changes there during the next test.
  // A popup let go may still be loading the site: once the site is quiet it has committed, and is found and closed.
  await watched.settled();
  for (const tab of await suite.browser.host.list())
    if (tab.url.startsWith(watched.origin)) await suite.browser.host.close(tab.id);
  await watched.settled();
  watched.requests.length = 0;
  downloads.length = 0;
});

function run(op: Operation, args: Record<string, unknown> = {}): Promise<OperationResult> {
  return executor.run(op, args, ctx);
}

/**
 * What reached the watched site, less its pages' focus and blur reports: those come from the browser moving window focus
 * as the test opens and closes windows (one window per tab here), never from anything sent to the page.
 */
function reached(): string[] {
  return watched.requests.filter((path) => path !== '/event?type=focus' && path !== '/event?type=blur');
}

function linksPage(): string {
  return suite.server.url(`policy-links.html?to=${encodeURIComponent(watched.origin)}`);
}

function watchedHost(): string {
  return new URL(watched.origin).host;
}

function withWatched(level: 'blocked' | 'act'): Policy {
  return { ...HOME_TRUSTED, rules: [{ site: parseSitePattern(watchedHost()), level }] };
}

/** The tab handles `tabs` lists whose URL is on the watched site. */
async function watchedTabs(): Promise<string[]> {
  const listed = (await run('tabs')).data?.['tabs'] as { tab: string; url: string }[];
  return listed.filter((tab) => tab.url.startsWith(watched.origin)).map((tab) => tab.tab);
}

async function openTabCount(): Promise<number> {
  return ((await run('tabs')).data?.['tabs'] as unknown[]).length;
}

/** Clicks `selector` in a fresh links page while the watched site is blocked; returns the refusal, once the popup is gone. */
async function refusedPopup(selector: string): Promise<{ code: string; message: string }> {
  policy = withWatched('blocked');
  const opener = String((await run('tab_new', { url: linksPage() })).data?.['tab']);
  const before = await openTabCount();
  const refused = await run('click', { selector }).then(
    (result) => ({ code: 'OK', message: result.text }),
    (error: { code: string; message: string }) => error,
  );
  expect(
    await until(
      () => openTabCount(),
      (count) => count === before,
    ),
  ).toBe(before);
  await run('tab_close', { tab: opener });
  return refused;
}

describe('a popup into a refused site', () => {
  it.each([
    ['a target=_blank link', '#blank'],
    ['a form that submits into a new window', '#submit'],
  ])('%s: the site gets no request, the click says why, and the empty window is closed', async (_, selector) => {
    const refused = await refusedPopup(selector);
    expect(refused.code).toBe('POLICY_DENIED');
    expect(refused.message).toContain(`Not activated: it would open a new window at ${watchedHost()}`);
    expect(reached()).toEqual([]);
  });

  // window.open keeps its new window waiting in the renderer, and any CDP client's resume lets it go: the fallback
  // keeps ours the only client (measured with playwright's connection beside ours: 2 of 150 sent a request first).
  it('window.open: the site gets no request, the click says why, and the empty window is closed', async () => {
    const refused = await refusedPopup('#popup');
    expect(refused.code).toBe('POLICY_DENIED');
    expect(refused.message).toContain(`(a new window at ${watchedHost()}) was refused`);
    expect(reached()).toEqual([]);
  });

  it('holds the refused hop of a popup that redirects there, and closes the popup', async () => {
    // The window opened on an allowed URL, so the click itself is fine; the popup's own guard holds the hop.
    expect((await refusedPopup('#blank-redirected')).code).toBe('OK');
    expect(reached()).toEqual([]);
  });

  it('asks about a site with no rule, and still sends it nothing', async () => {
    const opener = String((await run('tab_new', { url: linksPage() })).data?.['tab']);
    const refused = await failure(run('click', { selector: '#blank' }));
    expect(refused.code).toBe('DOMAIN_CONFIRMATION_REQUIRED');
    expect(refused.data).toMatchObject({ reason: 'ask', site: watchedHost() });
    expect(reached()).toEqual([]);
    await run('tab_close', { tab: opener });
  });
});

describe('a popup into an allowed site', () => {
  it('opens and loads, guarded, and can be driven like any tab', async () => {
    policy = withWatched('act');
    const opener = String((await run('tab_new', { url: linksPage() })).data?.['tab']);
    expect((await run('click', { selector: '#popup' })).text).toContain('clicked');
    const [popup] = await until(watchedTabs, (tabs) => tabs.length === 1);
    expect(popup).toBeDefined();
    expect((await run('wait_for', { tab: popup, text: 'Watched site' })).text).toBeTruthy();
    // Guarded from the start: once the site is refused, the popup's own navigation into it is held.
    policy = withWatched('blocked');
    expect((await failure(run('navigate', { tab: popup, url: `${watched.origin}/?again` }))).code).toBe(
      'POLICY_DENIED',
    );
    // The page it showed may still ask for its icon; the navigation itself never left.
    expect(watched.requests).not.toContain('/?again');
    await run('tab_close', { tab: opener });
  });

  it('is let go at once when no engine drives its opener any more', async () => {
    policy = withWatched('act');
    await run('tab_new', { url: linksPage() });
    const tabId = (await suite.browser.host.list()).find((tab) => tab.url === linksPage())?.id;
    expect(tabId).toBeDefined();
    executor.dispose();
    try {
      const cdp = await suite.browser.host.cdp(tabId!);
      await cdp.send('Runtime.evaluate', { expression: "document.getElementById('popup').click()", userGesture: true });
      expect(
        await until(
          async () => watched.requests,
          (requests) => requests.includes('/'),
        ),
      ).toContain('/');
    } finally {
      executor = createEngineExecutor(suite.browser.host, { tag: 'ty', policy: () => policy });
    }
  });
});

describe('downloads while the policy has them off', () => {
  beforeEach(() => {
    policy = withWatched('act');
  });

  it('refuses clicking a download link from an allowed site before the click: no request, nothing saved', async () => {
    await run('tab_new', { url: linksPage() });
    const refused = await failure(run('click', { selector: '#download' }));
    expect(refused.code).toBe('POLICY_DENIED');
    expect(refused.data).toMatchObject({ reason: 'downloads_off', site: watchedHost() });
    expect(refused.message).toContain(`Not activated: it would download ${watched.origin}/file.txt`);
    // Should a page of the site report anything, the open tabs say which one it was.
    expect(reached(), JSON.stringify((await suite.browser.host.list()).map((tab) => tab.url))).toEqual([]);
    expect(downloads).toEqual([]);
    expect((await run('snapshot')).text).toContain('Links out');
  });

  it('refuses navigate to a download URL the same way', async () => {
    await run('tab_new', { url: linksPage() });
    const refused = await failure(run('navigate', { url: `${watched.origin}/file.txt` }));
    expect(refused.data).toMatchObject({ reason: 'downloads_off' });
    expect(refused.message).toMatch(/^navigate to .* was a download from/);
    expect(downloads).toEqual([]);
  });

  it('has the browser cancel a download no request carries (a file the page makes, a same-site <a download>)', async () => {
    await run('tab_new', { url: linksPage() });
    for (const selector of ['#blob', '#same-site-download']) {
      downloads.length = 0;
      // Started by the page's own script: our click would be refused before it (see above), so the browser's setting is
      // what must stop these.
      await run('eval', { expression: `document.querySelector('${selector}').click()` }).catch(() => undefined);
      const states = await until(
        async () =>
          downloads.filter((event) => event.method === 'Page.downloadProgress').map((event) => event.params['state']),
        (seen) => seen.includes('canceled') || seen.includes('completed'),
      );
      expect(states).toContain('canceled');
      expect(states).not.toContain('completed');
    }
  });
});

describe('before an act activates an element', () => {
  /** What aimToActivate says of the element, on a page under the test policy (the watched site: ask). */
  async function judged(selector: string, newWindow = false): Promise<string> {
    const { page } = await suite.browser.open(linksPage());
    const handle = await resolveTarget(page, { selector }, 'act');
    return aimToActivate(page, handle, { newWindow }).then(
      () => 'ok',
      (error: { code: string; message: string }) => `${error.code}: ${error.message}`,
    );
  }

  it('refuses what would open a new window at a refused site, or download while downloads are off', async () => {
    expect(await judged('#blank')).toMatch(
      /^DOMAIN_CONFIRMATION_REQUIRED: Not activated: it would open a new window at 127\.0\.0\.2:\d+\./,
    );
    expect(await judged('#submit')).toMatch(/^DOMAIN_CONFIRMATION_REQUIRED: Not activated: it would open a new window/);
    expect(await judged('#same-site-download')).toMatch(
      /^POLICY_DENIED: Not activated: it would download .*Downloads are off/,
    );
    // A middle or modifier click opens any link in a new window.
    expect(await judged('#out', true)).toMatch(
      /^DOMAIN_CONFIRMATION_REQUIRED: Not activated: it would open a new window/,
    );
  });

  it('judges an element out of view before scrolling to it, and aims at it once allowed', async () => {
    const { page } = await suite.browser.open(linksPage());
    await pageEval(
      page,
      `document.body.prepend(Object.assign(document.createElement('div'), { style: 'height: 3000px' }))`,
    );
    const aimAt = async (selector: string) =>
      aimToActivate(page, await resolveTarget(page, { selector }, 'act')).then(
        (point) => `${point.y > 0 && point.y < innerHeightOf} ${point.what}`,
        (error: { code: string }) => error.code,
      );
    const innerHeightOf = await pageEval<number>(page, 'innerHeight');
    expect(await aimAt('#blank')).toBe('DOMAIN_CONFIRMATION_REQUIRED');
    expect(await pageEval<number>(page, 'scrollY')).toBe(0);
    expect(await aimAt('#out')).toMatch(/^true link/);
    expect(await pageEval<number>(page, 'scrollY')).toBeGreaterThan(0);
  });

  it('lets through what stays in the tab (its guard holds that) and what opens an allowed site', async () => {
    expect(await judged('#out')).toBe('ok');
    expect(await judged('#popup')).toBe('ok');
    expect(await judged('h1', true)).toBe('ok');
    expect(reached()).toEqual([]);
  });
});
