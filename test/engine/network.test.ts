// network and network_get on real Chromium: requests of the top page and of a cross-origin iframe (its own process),
// failures, filters, since, one request's headers and body, and requests made by a site the policy now hides.
import { describe, expect, it } from 'vitest';
import { networkGet, networkList } from '../../shared/engine/ops/network.js';
import { click } from '../../shared/engine/ops/pointer.js';
import { PageContext } from '../../shared/engine/page-context.js';
import { PolicyGate } from '../../shared/engine/policy-gate.js';
import { loadUrl } from '../support/browser.js';
import { ctx, failure, useEngineSuite } from '../support/engine-suite.js';
import { testServerPolicy } from '../support/test-policy.js';

const suite = useEngineSuite();

type Page = Parameters<typeof networkList>[0];

/** Lists until `wanted` shows (requests finish as the page loads), or the last listing after 10 s. */
async function listUntil(page: Page, wanted: RegExp, args = {}): Promise<string> {
  let text = '';
  await expect
    .poll(async () => (text = (await networkList(page, args, ctx)).text), { timeout: 10_000 })
    .toMatch(wanted);
  return text;
}

/** A tab whose network is captured from before its first load, as for a session that lists the DevTools tools. */
async function capturedTab(gate?: PolicyGate): Promise<{ page: Page; close(): Promise<void> }> {
  const { host } = suite.browser;
  const tab = await host.create('about:blank', { focus: false });
  const page = new PageContext(await host.cdp(tab.id), gate ?? new PolicyGate(() => testServerPolicy('act')));
  await page.frames.init();
  await page.network.start();
  await loadUrl(page, suite.server.url('network-page.html'));
  return {
    page,
    async close() {
      page.dispose();
      await host.close(tab.id);
    },
  };
}

describe('network', () => {
  it("lists the page's requests and its cross-origin frame's, with status, type and failures", async () => {
    const { page, close } = await capturedTab();
    try {
      const text = await listUntil(page, /GET 200 fetch f1 .*from=child/);
      expect(text.split('\n')[0]).toMatch(/^network: \d+ requests; since=\d+ lists only newer ones$/);
      expect(text).toMatch(/#\d+ GET 200 document \S+ \d+ms http:\/\/127\.0\.0\.1:\d+\/network-page\.html/);
      expect(text).toMatch(/#\d+ GET 200 fetch \S+ \d+ms http:\/\/127\.0\.0\.1:\d+\/network-data\.json\?page=1/);
      expect(text).toMatch(/#\d+ GET 404 fetch .*\/no-such-file\.txt/);
      expect(text).toMatch(/#\d+ GET 200 fetch f1 .*localhost:\d+\/network-data\.json\?from=child/);
    } finally {
      await close();
    }
  });

  it('filters by url, method, status, type and frame; since lists only newer requests', async () => {
    const { page, close } = await capturedTab();
    try {
      const all = await listUntil(page, /GET 200 fetch f1 .*from=child/);
      const last = Number(/since=(\d+)/.exec(all)![1]);
      // The browser's own favicon request may 404 too.
      expect((await networkList(page, { status: 404 }, ctx)).text).toMatch(/\n#\d+ GET 404 fetch .*no-such/);
      expect((await networkList(page, { status: 404 }, ctx)).text).not.toContain('page=1');
      expect((await networkList(page, { type: 'document' }, ctx)).text).not.toContain('network-data');
      expect((await networkList(page, { frame: 1 }, ctx)).text).not.toContain('page=1');
      expect((await networkList(page, { url: 'page=1' }, ctx)).text).toMatch(/^network: 1 request;/);
      await click(page, { selector: '#post' }, ctx);
      const newer = await listUntil(page, /POST 404/, { since: last });
      expect(newer).toMatch(/\n#\d+ POST 404 fetch .*\/api\/save$/);
      // Only what came after `last` (the browser's own favicon request may be among it).
      for (const [, id] of newer.matchAll(/^#(\d+) /gm)) expect(Number(id)).toBeGreaterThan(last);
      expect(newer).not.toContain('page=1');
      expect((await networkList(page, { method: 'post' }, ctx)).text).toContain('/api/save');
      const postId = Number(/\n#(\d+) POST 404 fetch/.exec(newer)![1]);
      expect((await networkGet(page, { id: postId }, ctx)).text).toContain('\n(it sent a body: body=true shows it)\n');
      expect((await networkGet(page, { id: postId, body: true }, ctx)).text).toContain('\nrequest body:\nname=Ada\n');
    } finally {
      await close();
    }
  });

  it("reads one request's headers and its response body, and names a request it does not have", async () => {
    const { page, close } = await capturedTab();
    try {
      const listed = await listUntil(page, /page=1/);
      const id = Number(/#(\d+) GET 200 fetch \S+ \d+ms \S+page=1/.exec(listed)![1]);
      const { text } = await networkGet(page, { id, body: true }, ctx);
      expect(text).toMatch(
        new RegExp(`^#${id} GET http://127\\.0\\.0\\.1:\\d+/network-data\\.json\\?page=1\\nstatus: 200\\n`),
      );
      expect(text).toMatch(/response headers:\n( {2}.*\n)* {2}content-type: application\/json/);
      expect(text).toContain('body:\n{ "items": [{ "name": "Ada" }');
      const short = (await networkGet(page, { id, body: true, maxChars: 10 }, ctx)).text;
      expect(short).toMatch(/body:\n\{ "items":\n… \d+ more chars: network_get id=\d+ body=true maxChars=…$/);
      const documentId = Number(/#(\d+) GET 200 document/.exec(listed)![1]);
      expect((await networkGet(page, { id: documentId, body: true }, ctx)).text).toContain('body:\n<!doctype html>');
      const missing = await failure(networkGet(page, { id: 9_999 }, ctx));
      expect(missing.code).toBe('NOT_FOUND');
    } finally {
      await close();
    }
  });

  it('leaves out the requests a site the policy hides now made, and refuses to read one', async () => {
    let policy = testServerPolicy('act');
    const { page, close } = await capturedTab(new PolicyGate(() => policy));
    try {
      const listed = await listUntil(page, /GET 200 fetch f1 .*from=child/);
      const child = Number(/#(\d+) GET 200 fetch f1 .*from=child/.exec(listed)?.[1] ?? listed);
      policy = testServerPolicy('act', ['127.0.0.1']);
      const text = (await networkList(page, {}, ctx)).text;
      expect(text).toMatch(/, 2 made by sites the policy keeps from you left out/);
      expect(text).not.toContain('from=child');
      expect((await failure(networkGet(page, { id: child }, ctx))).code).toBe('NOT_FOUND');
    } finally {
      await close();
    }
  });
});
