// network_route on real Chromium: a fetch mocked, one blocked, one sent with changed headers (as the fixture server
// saw them), a cross-origin iframe's request routed, and a dedicated worker's; removal restores real traffic; a route
// never answers for a site the policy refuses; a send the gate holds during an act, and what an eval's script sends
// elsewhere, stay held whatever route matches them; and a route coming or going keeps an act's widening.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEngineExecutor, type EngineExecutor } from '../../shared/engine/executor.js';
import { networkList } from '../../shared/engine/ops/network.js';
import { networkRoute } from '../../shared/engine/ops/network-route.js';
import { PageContext } from '../../shared/engine/page-context.js';
import { PolicyGate } from '../../shared/engine/policy-gate.js';
import type { Policy } from '../../shared/policy/policy.js';
import type { Operation, OperationResult } from '../../shared/protocol/operations.js';
import { loadUrl } from '../support/browser.js';
import { ctx, failure, useEngineSuite } from '../support/engine-suite.js';
import { startGateSite, type GateSite } from '../support/gate-site.js';
import { testServerPolicy } from '../support/test-policy.js';

const suite = useEngineSuite();
const BOTH = testServerPolicy('act');
/** The main site only: localhost (the fixture server's other name) is left to the person's `ask`. */
const MAIN_ONLY = testServerPolicy('act', ['127.0.0.1']);
let policy: Policy = BOTH;
let site: GateSite;
let executor: EngineExecutor;

beforeAll(async () => {
  site = await startGateSite();
  executor = createEngineExecutor(suite.browser.host, { tag: 'rt', policy: () => policy });
  const child = `${suite.server.crossOrigin}/route-child`;
  suite.server.serve('/route-page', {
    body: `<!doctype html><title>Route</title><h1>Route page</h1><iframe src="${child}" title="Child"></iframe>`,
  });
  suite.server.serve('/route-plain', { body: '<!doctype html><title>Plain</title><h1>Plain page</h1>' });
  suite.server.serve('/route-child', { body: '<!doctype html><title>Child</title><p>Child frame</p>' });
  // A dedicated worker that fetches the URL it is sent and answers "status body", or "failed …".
  suite.server.serve('/route-worker.js', {
    body: `onmessage = (event) => fetch(event.data).then(
      async (response) => postMessage(response.status + ' ' + (await response.text())),
      (error) => postMessage('failed ' + error.message));`,
    headers: { 'content-type': 'text/javascript' },
  });
});
afterAll(() => {
  executor?.dispose();
  return site?.close();
});
beforeEach(() => {
  policy = BOTH;
});

type Page = PageContext;

/** A tab whose network is captured (as for an agent that lists the DevTools tools), loaded at `path`. */
async function capturedTab(path: string): Promise<{ page: Page; close(): Promise<void> }> {
  const { host } = suite.browser;
  const tab = await host.create('about:blank', { focus: false });
  const page = new PageContext(await host.cdp(tab.id), new PolicyGate(() => policy));
  await page.frames.init();
  await page.network.start();
  await loadUrl(page, suite.server.url(path));
  return {
    page,
    async close() {
      page.dispose();
      await host.close(tab.id);
    },
  };
}

/** The page's own fetch (not an agent's script), answered as "status body", or "failed …". */
async function pageFetch(page: Page, url: string, init: RequestInit = {}, sessionId?: string): Promise<string> {
  const expression = `fetch(${JSON.stringify(url)}, ${JSON.stringify(init)}).then(
    async (response) => response.status + ' ' + (await response.text()), (error) => 'failed ' + error.message)`;
  const answer = await page.cdp.send<{ result: { value: string } }>(
    'Runtime.evaluate',
    { expression, awaitPromise: true, returnByValue: true },
    sessionId,
  );
  return answer.result.value;
}

/** The same fetch made by a dedicated worker the page starts for it. */
async function workerFetch(page: Page, url: string): Promise<string> {
  const expression = `new Promise((resolve) => {
    const worker = new Worker('/route-worker.js');
    worker.onmessage = (event) => resolve(event.data);
    worker.postMessage(new URL(${JSON.stringify(url)}, location.href).href);
  })`;
  const answer = await page.cdp.send<{ result: { value: string } }>('Runtime.evaluate', {
    expression,
    awaitPromise: true,
    returnByValue: true,
  });
  return answer.result.value;
}

const route = (page: Page, args: Parameters<typeof networkRoute>[1]) => networkRoute(page, args, ctx);

/** The network log's row for the request whose URL ends with `tail`, once it has finished. */
async function rowOf(page: Page, tail: string): Promise<string> {
  let row = '';
  await expect
    .poll(
      async () =>
        (row =
          (await networkList(page, {}, ctx)).text
            .split('\n')
            .find((line) => line.endsWith(tail) && !/ … /.test(line)) ?? ''),
      { timeout: 10_000 },
    )
    .toMatch(/\d+ms /);
  return row;
}

describe('network_route', () => {
  it('mocks a fetch, blocks one, changes the headers of another, and marks each in the network log', async () => {
    const { page, close } = await capturedTab('route-plain');
    try {
      const mocked = await route(page, {
        action: 'add',
        url: '*echo?item*',
        mock: { status: 201, body: '{"items":["mocked"]}' },
      });
      expect(mocked.text).toMatch(/^network_route: added r1 \* \*echo\?item\* → mock 201 "\{\\"items/);
      await route(page, { action: 'add', url: '*echo?ad*', method: 'get', block: true });
      await route(page, {
        action: 'add',
        url: '*echo?mod*',
        modify: { headers: { 'X-Route': 'added', 'x-page': null } },
      });
      expect(await pageFetch(page, '/echo?item=1')).toBe('201 {"items":["mocked"]}');
      expect(await pageFetch(page, '/echo?ad=1')).toBe('failed Failed to fetch');
      // The method filter: a POST to the blocked URL is not that route's.
      expect(await pageFetch(page, '/echo?ad=2', { method: 'POST', body: 'x' })).toMatch(/^200 \{"method":"POST"/);
      const seen = await pageFetch(page, '/echo?mod=1', { headers: { 'x-page': 'from the page', 'x-kept': 'yes' } });
      const headers = (JSON.parse(seen.slice(4)) as { headers: Record<string, string> }).headers;
      expect(headers).toMatchObject({ 'x-route': 'added', 'x-kept': 'yes' });
      expect(headers).not.toHaveProperty('x-page');
      // Nothing else of the page is touched: a request no route matches reaches the server as it was.
      expect(await pageFetch(page, '/echo?free=1')).toMatch(/^200 \{"method":"GET","query":"\?free=1"/);

      expect(await rowOf(page, '/echo?item=1')).toMatch(/^#\d+ GET 201 fetch mocked:r1 /);
      expect(await rowOf(page, '/echo?ad=1')).toMatch(/^#\d+ GET failed\(inspector\) fetch blocked:r2 /);
      expect(await rowOf(page, '/echo?mod=1')).toMatch(/^#\d+ GET 200 fetch modified:r3 /);
      expect(await rowOf(page, '/echo?free=1')).not.toMatch(/mocked|blocked|modified/);
      const listed = await route(page, { action: 'list' });
      expect(listed.text).toMatch(
        /^network_route: 3 routes\nr3 \* \*echo\?mod\* → modify X-Route=added -x-page \(1 hit\)/,
      );
      expect(listed.text).toContain('r2 GET *echo?ad* → block (1 hit)');
      expect(listed.data).toEqual({
        routes: [
          { id: 'r3', url: '*echo?mod*', how: 'modify', hits: 1 },
          { id: 'r2', url: '*echo?ad*', how: 'block', hits: 1 },
          { id: 'r1', url: '*echo?item*', how: 'mock', hits: 1 },
        ],
      });
    } finally {
      await close();
    }
  });

  it('lets real traffic through again once a route is removed, and names a route it does not have', async () => {
    const { page, close } = await capturedTab('route-plain');
    try {
      await route(page, { action: 'add', url: '*echo?gone*', mock: { body: 'mocked' } });
      await route(page, { action: 'add', url: '*echo?also*', block: true });
      expect(await pageFetch(page, '/echo?gone=1')).toBe('200 mocked');
      const removed = await route(page, { action: 'remove', id: 'r1' });
      expect(removed.text).toMatch(/^network_route: removed 1 route; 1 route left\nr2 /);
      expect(await pageFetch(page, '/echo?gone=2')).toMatch(/^200 \{"method":"GET","query":"\?gone=2"/);
      expect(await pageFetch(page, '/echo?also=1')).toBe('failed Failed to fetch');
      expect((await failure(route(page, { action: 'remove', id: 'r1' }))).code).toBe('NOT_FOUND');
      expect((await route(page, { action: 'remove' })).text).toBe('network_route: removed 1 route; 0 routes left');
      expect(await pageFetch(page, '/echo?also=2')).toMatch(/^200 \{"method":"GET"/);
    } finally {
      await close();
    }
  });

  it("routes a cross-origin iframe's own request, in its own process", async () => {
    const { page, close } = await capturedTab('route-page');
    try {
      let child: { sessionId: string | undefined } | undefined;
      await expect
        .poll(async () => (child = (await page.frames.list()).find((frame) => frame.url.includes('/route-child'))))
        .toBeDefined();
      expect(child!.sessionId).toBeDefined();
      await route(page, { action: 'add', url: '*echo?child*', mock: { status: 203, body: 'mocked for the child' } });
      expect(await pageFetch(page, '/echo?child=1', {}, child!.sessionId)).toBe('203 mocked for the child');
      expect(await rowOf(page, '/echo?child=1')).toMatch(/^#\d+ GET 203 fetch mocked:r1 f1 .*localhost:\d+\/echo/);
    } finally {
      await close();
    }
  });

  it("routes a dedicated worker's own request, which pauses on its page's session", async () => {
    const { page, close } = await capturedTab('route-plain');
    try {
      await route(page, { action: 'add', url: '*echo?worker*', mock: { status: 203, body: 'mocked for the worker' } });
      await route(page, { action: 'add', url: '*echo?wcut*', block: true });
      expect(await workerFetch(page, '/echo?worker=1')).toBe('203 mocked for the worker');
      expect(await workerFetch(page, '/echo?wcut=1')).toBe('failed Failed to fetch');
      expect(await workerFetch(page, '/echo?wfree=1')).toMatch(/^200 \{"method":"GET","query":"\?wfree=1"/);
      // Told of on the worker's own session, each is still marked with what its route did.
      expect(await rowOf(page, '/echo?worker=1')).toMatch(/^#\d+ GET 203 fetch mocked:r1 /);
      expect(await rowOf(page, '/echo?wcut=1')).toMatch(/^#\d+ GET failed\(inspector\) fetch blocked:r2 /);
      expect((await route(page, { action: 'list' })).data).toMatchObject({
        routes: [
          { id: 'r2', hits: 1 },
          { id: 'r1', hits: 1 },
        ],
      });
    } finally {
      await close();
    }
  });

  it('never answers for a site the policy refuses, nor sends there with its headers', async () => {
    policy = MAIN_ONLY;
    const { page, close } = await capturedTab('route-plain');
    try {
      const far = suite.server.crossOrigin;
      const refused = await failure(route(page, { action: 'add', url: `${far}/echo*`, mock: { body: 'x' } }));
      expect(refused.code).toBe('DOMAIN_CONFIRMATION_REQUIRED');
      expect(refused.message).toMatch(/^network_route: a route may not answer for or send to localhost:\d+/);
      expect((await route(page, { action: 'list' })).text).toBe('network_route: 0 routes');
      // A glob that names no site is judged request by request: the refused site's answer is the real one.
      await route(page, { action: 'add', url: '*echo?far*', mock: { body: 'mocked' } });
      await route(page, { action: 'add', url: '*echo?farmod*', modify: { headers: { 'x-route': 'added' } } });
      expect(await pageFetch(page, `${far}/echo?far=1`)).toMatch(/^200 \{"method":"GET","query":"\?far=1"/);
      expect(await pageFetch(page, `${far}/echo?farmod=1`)).not.toContain('x-route');
      // The same routes on the allowed site do apply.
      expect(await pageFetch(page, '/echo?far=2')).toBe('200 mocked');
      expect(await rowOf(page, '/echo?far=1')).not.toContain('mocked');
      expect((await route(page, { action: 'list' })).data).toMatchObject({
        routes: [
          { id: 'r2', hits: 0 },
          { id: 'r1', hits: 1 },
        ],
      });
      // A block serves and sends nothing, so it holds for the page's request to a refused site too.
      await route(page, { action: 'add', url: `${far}/echo?cut*`, block: true });
      expect(await pageFetch(page, `${far}/echo?cut=1`)).toBe('failed Failed to fetch');
      // A mock may not redirect: that would send the request on past every judgement.
      const redirect = route(page, { action: 'add', url: '*x*', mock: { status: 302, headers: { location: far } } });
      expect((await failure(redirect)).code).toBe('BAD_ARGS');
    } finally {
      await close();
    }
  });
});

describe('network_route and the guard', () => {
  it("keeps a session's widening (an act's gate) when a route comes or goes", async () => {
    const { page, close } = await capturedTab('route-plain');
    const seen: string[] = [];
    const stop = page.frames.navigation.interceptFirst((event) => {
      const { resourceType, request } = event.params as { resourceType: string; request: { url: string } };
      if (resourceType !== 'Document') seen.push(new URL(request.url).search);
      return false;
    });
    try {
      // As the gate widens a tab for an act: every fetch pauses, whatever the routes.
      const sends = ['XHR', 'Fetch'].map((resourceType) => ({ resourceType, requestStage: 'Request' as const }));
      await page.frames.navigation.enable(undefined, sends);
      await route(page, { action: 'add', url: '*echo?routed*', block: true });
      expect(await pageFetch(page, '/echo?wide=1')).toMatch(/^200 /);
      await route(page, { action: 'remove' });
      expect(await pageFetch(page, '/echo?wide=2')).toMatch(/^200 /);
      expect(seen).toEqual(['?wide=1', '?wide=2']);
    } finally {
      stop();
      await close();
    }
  });
});

describe('network_route beside the gate on risky acts', () => {
  const run = (op: Operation, args: Record<string, unknown> = {}): Promise<OperationResult> =>
    executor.run(op, args, ctx);

  it('leaves a send the gate holds held, and mocks a write the gate lets go', async () => {
    policy = MAIN_ONLY;
    site.received.length = 0;
    await run('tab_new', { url: site.url('gate-mail.html') });
    await run('network_route', { action: 'add', url: '*api/messages*', mock: { body: 'mocked send' } });
    await run('network_route', { action: 'add', url: '*api/drafts*', mock: { body: 'mocked draft' } });
    // A draft is a write that sends nothing: the act's judge lets it go, and the route answers it.
    await run('click', { selector: '#draft' });
    await expect
      .poll(async () => (await run('get_text', { selector: '#status' })).text)
      .toContain('done: mocked draft');
    const held = await failure(run('click', { selector: '#send' }));
    expect(held.code, held.message).toBe('HELD');
    await expect.poll(async () => (await run('get_text', { selector: '#status' })).text).toContain('failed');
    const listed = (await run('network_route', { action: 'list' })).text;
    expect(listed).toContain('*api/messages* → mock 200 "mocked send" (0 hits)');
    // The page's own harmless request arrives after anything the click let out would have.
    const before = site.received.length;
    await run('click', { selector: '#refresh' });
    await site.arrival('/api/inbox', before);
    expect(site.received.map((entry) => `${entry.method} ${entry.path}`)).toEqual(['GET /api/inbox']);
    await run('tab_close', {});
  });

  it("leaves what an eval's script sends to another origin held, whatever route matches it", async () => {
    policy = testServerPolicy('trusted');
    const far = `${suite.server.crossOrigin}/echo?script=1`;
    await run('tab_new', { url: suite.server.url('route-plain') });
    await run('network_route', { action: 'add', url: '*echo?script*', mock: { body: 'mocked for the script' } });
    const { text } = await run('eval', {
      expression: `fetch(${JSON.stringify(far)}).then((response) => response.text(), () => 'failed')`,
    });
    expect(text).toMatch(/^"failed"/);
    expect(text).toMatch(
      /Held, not sent: 1 request to other origins while the script ran: GET http:\/\/localhost:\d+\/echo/,
    );
    // The route never had it: the hold kept it back before anything else saw it.
    expect((await run('network_route', { action: 'list' })).text).toContain('(0 hits)');
    await run('tab_close', {});
  });
});
