// The handler hold's policy on real Chromium (handler-setters.ts): what the script leaves that calls the page's own
// send is held however it is reached, a script cannot blind the policy by replacing what it calls, and the page's own
// writes keep working: in a blank frame it makes after the eval, and where it has a default policy of its own.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../../shared/engine/ops/eval.js';
import { PageContext } from '../../shared/engine/page-context.js';
import { PolicyGate } from '../../shared/engine/policy-gate.js';
import { policyFromFlags } from '../../shared/policy/flags.js';
import { loadUrl, startTestBrowser } from '../support/browser.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';
import { appending, failingImage } from '../support/late-handlers.js';
import { heldLater, reachedSite, untilMarker } from '../support/late-results.js';
import { pageEval } from '../support/page-probes.js';
import { testServerHosts } from '../support/test-policy.js';
import { startWatchedSite, type WatchedSite } from '../support/watched-site.js';

let watched: WatchedSite;
// W may be read, so only the hold stands between what the script left and W.
const gate = new PolicyGate(() => policyFromFlags({ allow: [new URL(watched.origin).host], trust: testServerHosts() }));
const suite = useEngineSuite({
  startBrowser: async () => {
    watched = await startWatchedSite();
    return startTestBrowser(gate);
  },
});
let page: PageContext;

beforeAll(async () => {
  const tab = await suite.browser.host.create('about:blank', { focus: false });
  page = new PageContext(await suite.browser.host.cdp(tab.id), gate);
  await page.frames.init();
});
afterAll(async () => {
  page?.dispose();
  await watched?.close();
});
afterEach(() => {
  watched.requests.length = 0;
});

const run = (expression: string) => evaluate(page, { expression }, ctx);
/** The page's own code, with no eval open. */
const asPage = <T>(expression: string) => pageEval<T>(page, expression);

async function afterMarker(marker: string) {
  await untilMarker(page, marker);
  const reached = await reachedSite(page, watched);
  return { reached, heldLater: heldLater(await run('1'), watched) };
}

describe('what the script leaves, calling the page’s own send', () => {
  beforeAll(() => loadUrl(page, suite.server.url('egress-late.html')));

  it('a listener it added, when the page fires the event later: held, and named', async () => {
    await run(
      `document.addEventListener('page-tick', () => pageSend('${watched.origin}/listener').finally(() => (window.listened = true))); 0`,
    );
    await asPage(`setTimeout(() => document.dispatchEvent(new Event('page-tick')), 200); 0`);
    expect(await afterMarker('listened')).toEqual({ reached: [], heldLater: ['GET W/listener (Fetch)'] });
  });

  it('a handler it writes after replacing what the policy calls: held, and named', async () => {
    const blind = `RegExp.prototype.exec = () => null; Element.prototype.setAttribute = function () {};
      Reflect.apply = () => undefined; String = () => ''; 0`;
    await run(blind);
    await run(appending(failingImage(`${watched.origin}/blinded`, 'blinded')));
    expect(await afterMarker('blinded')).toEqual({ reached: [], heldLater: ['GET W/blinded (Fetch)'] });
  });
});

describe('the page’s own writes, after an eval', () => {
  beforeAll(() => loadUrl(page, suite.server.url('egress-late.html')));

  it('a handler it sets by setAttribute sends to another origin', async () => {
    await run('1');
    await asPage(`window.own = new Image(); own.setAttribute('onerror',
      "pageSend('${watched.origin}/own-attribute').finally(() => (window.ownSet = true))"); own.src = '/slow?ms=300'; 0`);
    await untilMarker(page, 'ownSet');
    expect(watched.requests).toEqual(['/own-attribute']);
  });

  it('a blank frame it makes takes HTML strings as before', async () => {
    await run('1');
    const written = await asPage<string>(`(() => { const frame = document.createElement('iframe');
      document.body.append(frame); frame.contentDocument.body.innerHTML = '<b>own</b>';
      return frame.contentDocument.body.innerHTML; })()`);
    expect(written).toBe('<b>own</b>');
  });

  it('a page with a default policy of its own keeps it, and its HTML strings', async () => {
    await loadUrl(page, suite.server.url('egress-own-policy.html'));
    await run('1');
    const after = await asPage<[number, string]>(`(() => { document.getElementById('out').innerHTML = '<i>own</i>';
      return [window.ownPolicyCalls, document.getElementById('out').innerHTML]; })()`);
    expect(after).toEqual([1, '<i>own</i>']);
  });
});
