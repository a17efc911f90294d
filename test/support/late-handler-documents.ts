// The late-handler cases in documents other than the one the eval judged, which both backends run: a page with a
// Trusted Types default policy of its own, and a same-origin frame navigated after the eval.
import { expect } from 'vitest';
import { afterHandler, appending, detachedImage, failingImage } from './late-handlers.js';
import type { LateTab } from './late-tab.js';

const OWN_POLICY = '/egress-own-policy.html';
const LATE = '/egress-late.html';

/** Loads `path` as the page's own navigation, and waits until its document has loaded. */
async function loadAsPage(tab: LateTab, path: string): Promise<void> {
  await tab.asPage(`location.assign(${JSON.stringify(path)}); 0`);
  const deadline = Date.now() + 20_000;
  const loaded = `document.readyState === 'complete' && location.pathname === ${JSON.stringify(path)}`;
  // An evaluation racing the navigation fails with its context: the page is asked again.
  while ((await tab.asPage(loaded).catch(() => false)) !== true) {
    if (Date.now() > deadline) throw new Error(`the page never loaded ${path}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * `body` on the page with a default policy of its own, loaded after an eval armed the tab (a later document of the tab,
 * as the agent meets one after it navigates); the tab goes back to the late page after.
 */
async function onOwnPolicyPage(tab: LateTab, body: () => Promise<void>): Promise<void> {
  await tab.run('1');
  await loadAsPage(tab, OWN_POLICY);
  try {
    await body();
  } finally {
    await loadAsPage(tab, LATE);
  }
}

/** A same-origin frame `#later` the page holds, loaded; removed after `body`. */
async function withFrame(tab: LateTab, body: () => Promise<void>): Promise<void> {
  await tab.asPage(`new Promise((done) => { const frame = document.createElement('iframe'); frame.id = 'later';
    frame.onload = () => done(0); frame.src = '${LATE}?first'; document.body.append(frame); })`);
  try {
    await body();
  } finally {
    await tab.asPage(`document.getElementById('later').remove(); 0`);
  }
}

/** Code that, once `#later` has navigated to a second document of the site, appends `html` to its body. */
function intoNavigatedFrame(html: string): string {
  return `{ const frame = document.getElementById('later');
    frame.onload = () => frame.contentDocument.body.insertAdjacentHTML('beforeend', ${JSON.stringify(html)});
    frame.src = '${LATE}?second'; }`;
}

export const handlerDocumentCases = {
  /** The script's innerHTML there: the page's policy is still called, and the handler's send held. */
  async ownPolicyInserted(tab: LateTab): Promise<void> {
    await onOwnPolicyPage(tab, async () => {
      await tab.run(appending(failingImage(`${tab.watched.origin}/own-policy`, 'ownPolicyInserted')));
      const outcome = await afterHandler(tab, 'ownPolicyInserted');
      expect({ ...outcome, calls: await tab.asPage('window.ownPolicyCalls') }).toEqual({
        reached: [],
        heldLater: ['GET W/own-policy (Fetch)'],
        calls: 1,
      });
    });
  },

  /** The script's setAttribute there, on an image never inserted, calling the page's own send. */
  async ownPolicyAttribute(tab: LateTab): Promise<void> {
    await onOwnPolicyPage(tab, async () => {
      await tab.run(detachedImage(`${tab.watched.origin}/own-policy-attribute`, 'ownPolicyAttribute'));
      const outcome = await afterHandler(tab, 'ownPolicyAttribute');
      expect({ ...outcome, calls: await tab.asPage('window.ownScriptCalls') }).toEqual({
        reached: [],
        heldLater: ['GET W/own-policy-attribute (Fetch)'],
        calls: 1,
      });
    });
  },

  /** The page's own handler there, after an eval, sends; its HTML strings still go through its own policy. */
  async ownPolicyPageOwn(tab: LateTab): Promise<void> {
    await onOwnPolicyPage(tab, async () => {
      await tab.run('1');
      const send = `pageSend('${tab.watched.origin}/own-policy-page').finally(() => (window.ownPage = true))`;
      const after = await tab.asPage(`window.own = new Image(); own.setAttribute('onerror', ${JSON.stringify(send)});
        own.src = '/slow?ms=300'; document.getElementById('out').innerHTML = '<i>own</i>';
        [window.ownPolicyCalls, window.ownScriptCalls, document.getElementById('out').innerHTML]`);
      await tab.until('ownPage');
      expect({ after, requests: tab.watched.requests }).toEqual({
        after: [1, 1, '<i>own</i>'],
        requests: ['/own-policy-page'],
      });
    });
  },

  /** A timer the script left navigates a frame of the site, and writes a handler into its new document. */
  async navigatedFrame(tab: LateTab): Promise<void> {
    await withFrame(tab, async () => {
      const html = failingImage(`${tab.watched.origin}/navigated`, 'parent.navigated');
      await tab.run(`setTimeout(() => ${intoNavigatedFrame(html)}, 300); 0`);
      expect(await afterHandler(tab, 'navigated')).toEqual({ reached: [], heldLater: ['GET W/navigated (Fetch)'] });
    });
  },

  /** The page's own: after an eval it navigates its frame and writes a handler there, which sends. */
  async pageNavigatedFrame(tab: LateTab): Promise<void> {
    await withFrame(tab, async () => {
      await tab.run('1');
      const html = failingImage(`${tab.watched.origin}/own-navigated`, 'parent.ownNavigated');
      await tab.asPage(`${intoNavigatedFrame(html)}; 0`);
      await tab.until('ownNavigated');
      expect(tab.watched.requests).toEqual(['/own-navigated']);
    });
  },
};
