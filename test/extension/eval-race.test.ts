// A navigation racing an eval in the person's Chrome through the real extension (as the engine's eval-race test does
// in the fallback): the script runs in the trusted document it was judged in, or not at all, never in the read-only
// document that replaced it. 30 and 8 races, not the engine's 100 and 100: each goes through the bridge and the
// extension's debugger, and the file is kept to about 20–35 s of test time; the engine's test sweeps the timings wide.
import { afterAll, beforeAll, describe } from 'vitest';
import { policyFromFlags } from '../../shared/policy/flags.js';
import { commitWatch, itRacesEvals, startReadOnlySite, type RaceTab, type ReadOnlySite } from '../support/eval-race.js';
import { testServerHosts } from '../support/test-policy.js';
import { startLinkedExtension, type LinkedExtension } from './support/linked-extension.js';
import { probePage, type PageProbe } from './support/page-probe.js';

const FIRST_RACES = 30;
const STEADY_RACES = 8;
let readOnly: ReadOnlySite;
let linked: LinkedExtension;
let handle: string;
let probe: PageProbe;
let mainFrameId: string;

beforeAll(async () => {
  readOnly = await startReadOnlySite();
  // The fixture server's localhost port is trusted, the read-only site's port may only be read.
  const readOnlyHost = new URL(readOnly.origin).host;
  linked = await startLinkedExtension({
    policy: () => policyFromFlags({ allow: [readOnlyHost], trust: testServerHosts(['localhost']) }),
  });
  const url = `${linked.fixtures.crossOrigin}/mcp-hello.html`;
  handle = String((await linked.run('tab_new', { url, focus: true })).data?.['tab']);
  probe = await probePage(linked.browser, url);
  await linked.browser.control.send('Page.enable', {}, probe.sessionId);
  const { frameTree } = await linked.browser.control.send<{ frameTree: { frame: { id: string } } }>(
    'Page.getFrameTree',
    {},
    probe.sessionId,
  );
  mainFrameId = frameTree.frame.id;
});

afterAll(async () => {
  await linked?.close();
  await readOnly?.close();
});

const tab: RaceTab = {
  load: async (url) => void (await linked.run('navigate', { tab: handle, url })),
  url: () => probe.evaluate<string>('location.href'),
  // From the test's own session, beside the extension's debugger: a navigation no script of the page started.
  navigate: (url) => void linked.browser.control.send('Page.navigate', { url }, probe.sessionId).catch(() => undefined),
  evaluate: (expression) => linked.run('eval', { tab: handle, expression }),
  committedAt: commitWatch(
    (listener) => linked.browser.control.on(listener),
    (event) => event.sessionId === probe.sessionId,
    () => mainFrameId,
  ),
  asPage: (expression) => probe.evaluate(expression),
};

describe('eval bound to the judged document, through the extension', () => {
  itRacesEvals(
    'extension eval-race',
    () => ({ tab, trusted: `${linked.fixtures.crossOrigin}/mcp-hello.html`, readOnly: readOnly.origin }),
    { first: FIRST_RACES, steady: STEADY_RACES },
    120_000,
  );
});
