// The engine's late-send tests' one set-up on real Chromium: a watched site the policy lets the agent read (so only the
// script hold stops a send to it), the fallback browser kept to that policy, and a tab on egress-late.html with its own
// page context, cleaned between tests.
import { afterAll, afterEach, beforeAll } from 'vitest';
import { evaluate } from '../../shared/engine/ops/eval.js';
import { PageContext } from '../../shared/engine/page-context.js';
import { PolicyGate } from '../../shared/engine/policy-gate.js';
import { policyFromFlags } from '../../shared/policy/flags.js';
import type { Policy } from '../../shared/policy/policy.js';
import { loadUrl, startTestBrowser, type TestBrowser } from './browser.js';
import { ctx, useEngineSuite, type EngineSuite } from './engine-suite.js';
import { heldLater, reachedSite, untilMarker } from './late-results.js';
import { personClickAt } from './person.js';
import type { LateTab } from './late-tab.js';
import { testServerHosts } from './test-policy.js';
import { startWatchedSite, type WatchedSite } from './watched-site.js';

export interface WatchedEngine {
  readonly suite: EngineSuite<TestBrowser>;
  /** The gate every page context of the file judges by (the browser's host too). */
  readonly gate: PolicyGate;
  readonly watched: WatchedSite;
}

/**
 * The fixture server, the watched site and a browser whose host judges by `policy` (by default: the fixture server
 * trusted, the watched site readable), started before the file's tests and closed after them.
 */
export function useWatchedEngine(
  policy: (watched: WatchedSite) => Policy = (watched) =>
    policyFromFlags({ allow: [new URL(watched.origin).host], trust: testServerHosts() }),
): WatchedEngine {
  let watched: WatchedSite | undefined;
  const site = () => running(watched, 'watched site');
  const gate = new PolicyGate(() => policy(site()));
  const suite = useEngineSuite({
    startBrowser: async () => {
      watched = await startWatchedSite();
      return startTestBrowser(gate);
    },
  });
  afterAll(async () => {
    await watched?.close();
  });
  return {
    suite,
    gate,
    get watched() {
      return site();
    },
  };
}

export interface WatchedEngineTab extends WatchedEngine, LateTab {
  /** The tab's id at the browser's host. */
  readonly tabId: string;
  readonly page: PageContext;
  /** Another background tab on egress-late.html, closed with the file's tab (late-cases.ts). */
  openTab(): Promise<LateTab>;
}

/**
 * A background tab on egress-late.html with a page context of its own, and the watched site's requests forgotten after
 * each test. `popups`: listen for the tab's popups as a tab session does, so a window the page opens is guarded.
 */
export function watchedEngineTab({ popups = false }: { popups?: boolean } = {}): WatchedEngineTab {
  const engine = useWatchedEngine();
  const { suite, gate } = engine;
  let opened: { tabId: string; page: PageContext } | undefined;
  const more: PageContext[] = [];
  let stopPopups: (() => void) | undefined;
  const openPage = async () => {
    const tab = await suite.browser.host.create('about:blank', { focus: false });
    const page = new PageContext(await suite.browser.host.cdp(tab.id), gate);
    await page.frames.init();
    await loadUrl(page, suite.server.url('egress-late.html'));
    return { tabId: tab.id, page };
  };
  beforeAll(async () => {
    if (popups) stopPopups = suite.browser.host.onPopup(async () => undefined);
    opened = await openPage();
  });
  afterAll(() => {
    stopPopups?.();
    opened?.page.dispose();
    for (const page of more) page.dispose();
  });
  afterEach(() => {
    engine.watched.requests.length = 0;
  });
  const page = () => running(opened, 'tab').page;
  return {
    ...actsOn(page, engine),
    suite,
    gate,
    get watched() {
      return engine.watched;
    },
    get tabId() {
      return running(opened, 'tab').tabId;
    },
    get page() {
      return page();
    },
    async openTab() {
      const { page: another } = await openPage();
      more.push(another);
      return {
        ...actsOn(() => another, engine),
        get watched() {
          return engine.watched;
        },
      };
    },
  };
}

/** What a LateTab does on `page`'s tab, which judges by `engine`'s policy (its site read only once the file runs). */
function actsOn(page: () => PageContext, engine: WatchedEngine): Omit<LateTab, 'watched'> {
  return {
    run: (expression) => evaluate(page(), { expression }, ctx),
    asPage: async (expression) =>
      (
        await page().cdp.send<{ result: { value?: unknown } }>('Runtime.evaluate', {
          expression,
          awaitPromise: true,
          returnByValue: true,
        })
      ).result.value,
    personClicks: () => personClicks(page()),
    until: (marker) => untilMarker(page(), marker),
    reached: () => reachedSite(page(), engine.watched),
    heldLater: (result) => heldLater(result, engine.watched),
  };
}

/** Fails loudly where module-level code reads the set-up before beforeAll has started it. */
function running<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the ${what} starts in beforeAll: use it inside a hook or test`);
  return value;
}

/** The person's click at the page's top left corner, through the browser's input (LateTab.personClicks). */
export function personClicks(page: PageContext): Promise<void> {
  return personClickAt((method, params) => page.cdp.send(method, params), 5, 5);
}
