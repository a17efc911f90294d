// A navigation racing an eval on real Chromium: the script runs in the trusted document it was judged in, or not at all,
// never in the read-only document that replaced it. 100 races of a document's first eval and 100 of a steady one, each
// with the navigation's commit landing at a different point of the eval (the read-only site answers after a varying
// delay, the eval starts after another).
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { evaluate } from '../../shared/engine/ops/eval.js';
import { PageContext } from '../../shared/engine/page-context.js';
import { PolicyGate } from '../../shared/engine/policy-gate.js';
import { policyFromFlags } from '../../shared/policy/flags.js';
import { loadUrl } from '../support/browser.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';
import { commitWatch, itRacesEvals, startReadOnlySite, type RaceTab, type ReadOnlySite } from '../support/eval-race.js';
import { pageEval } from '../support/page-probes.js';

const suite = useEngineSuite();
const RACES = 100;
let readOnly: ReadOnlySite;
let page: PageContext;
let mainFrameId: string;

beforeAll(async () => {
  readOnly = await startReadOnlySite();
  // The fixture server's localhost port is trusted, the read-only site's port may only be read.
  const trusted = new URL(suite.server.crossOrigin).host;
  const gate = new PolicyGate(() => policyFromFlags({ allow: [new URL(readOnly.origin).host], trust: [trusted] }));
  const tab = await suite.browser.host.create('about:blank', { focus: false });
  page = new PageContext(await suite.browser.host.cdp(tab.id), gate);
  await page.frames.init();
  const { frameTree } = (await page.cdp.send('Page.getFrameTree', {})) as { frameTree: { frame: { id: string } } };
  mainFrameId = frameTree.frame.id;
});

afterAll(async () => {
  page?.dispose();
  await readOnly?.close();
});

const tab: RaceTab = {
  load: (url) => loadUrl(page, url),
  url: async () => (await page.frames.mainFrameUrl()).url,
  navigate: (url) => void page.cdp.send('Page.navigate', { url }).catch(() => undefined),
  evaluate: (expression) => evaluate(page, { expression }, ctx),
  committedAt: commitWatch(
    (listener) => page.cdp.on(listener),
    (event) => !event.sessionId,
    () => mainFrameId,
  ),
  primed: () => expect(page.quiet.now()).toBeDefined(),
  asPage: (expression) => pageEval(page, expression),
};

describe('eval bound to the judged document', () => {
  itRacesEvals(
    'eval-race',
    () => ({ tab, trusted: `${suite.server.crossOrigin}/mcp-hello.html`, readOnly: readOnly.origin }),
    { first: RACES, steady: RACES },
    600_000,
  );
});
