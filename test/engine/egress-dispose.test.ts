// What the engine holds paused fails closed as it lets go of a tab, on real Chromium through the fallback's host: a
// request an agent's script left, paused while the engine waits to judge it, is failed, not sent, when the tab's page
// context is disposed (the session ends, the engine stops driving the tab), though Chrome would send every request
// Fetch still holds once Fetch is disabled.
import { afterEach, describe, expect, it } from 'vitest';
import type { CdpEvent } from '../../shared/engine/cdp.js';
import { evaluate } from '../../shared/engine/ops/eval.js';
import { PageContext } from '../../shared/engine/page-context.js';
import { loadUrl } from '../support/browser.js';
import { ctx } from '../support/engine-suite.js';
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

/** Resolves with the first Fetch.requestPaused of the tab whose URL holds `path`. */
function pausedAt(page: PageContext, path: string): Promise<CdpEvent> {
  return new Promise((resolve) => {
    const off = page.cdp.on((event) => {
      if (event.method !== 'Fetch.requestPaused') return;
      if (!String((event.params['request'] as { url: string }).url).includes(path)) return;
      off();
      resolve(event);
    });
  });
}

describe('as the engine lets go of a tab', () => {
  it("fails, not sends, a script's request paused while its initiator is not told yet", async () => {
    const page = await openPage();
    // The page's thread stays busy after the fetch, so the tab tells the request's initiator only seconds later: until
    // then the engine waits to judge it, paused (egress-trail.ts).
    await evaluate(
      page,
      {
        expression: `setTimeout(() => { fetch('${engine.watched.origin}/disposed?key=' + encodeURIComponent(${KEY}),
          { mode: 'no-cors' }).catch(() => undefined).finally(() => (window.disposedDone = true));
          const busy = Date.now() + 3000; while (Date.now() < busy); }, 300); 0`,
      },
      ctx,
    );
    await pausedAt(page, '/disposed');
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
});
