// DevTools through a real MCP client over stdio, in both backends (the launched browser, and the person's Chromium
// through the real extension): a route mocks a cross-origin iframe's request, `network` lists that request as the
// iframe's and as mocked, `console` shows the line the iframe logged, and removing the route brings the real answer;
// a dedicated worker's own request is routed and listed as mocked too, and what the site's service worker fetches,
// after which the site's next tab loads with the worker it had.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { serveCountingWorkerSite } from '../support/counting-worker-site.js';
import { WORKER_NOTE } from '../../shared/engine/ops/network-route.js';
import { BACKENDS, startMcpBackend, type McpBackend } from '../support/mcp-backends.js';
import { TEST_POLICY_FLAGS } from '../support/test-policy.js';

let fixtures: FixtureServer;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  const child = `${fixtures.crossOrigin}/route-e2e-child`;
  fixtures.serve('/route-e2e', {
    body: `<!doctype html><title>Route e2e</title><h1>Parent</h1><iframe src="${child}" title="Child"></iframe>`,
  });
  // The child logs what its own request got: the console line says whether the route answered it.
  fixtures.serve('/route-e2e-child', {
    body: `<!doctype html><title>Child</title><p>Child</p><script>
      fetch('/echo?child=1').then((response) => response.text()).then((text) => console.log('child got ' + text));
    </script>`,
  });
  // A dedicated worker's own fetch, whose answer the page logs.
  fixtures.serve('/route-e2e-worker', {
    body: `<!doctype html><title>Worker</title><h1>Worker</h1><script>
      const worker = new Worker('/route-e2e-worker.js');
      worker.onmessage = (event) => console.log('worker got ' + event.data);
    </script>`,
  });
  fixtures.serve('/route-e2e-worker.js', {
    body: `fetch('/echo?worker=1').then((response) => response.text()).then((text) => postMessage(text));`,
    headers: { 'content-type': 'text/javascript' },
  });
  // A page whose service worker answers /sw-api by fetching /echo itself, and counts its own installs.
  serveCountingWorkerSite(fixtures, 'route-e2e-sw', 'e2e=1');
});
afterAll(() => fixtures?.close());

describe.each(BACKENDS)('network_route, network and console through MCP (%s)', (backend) => {
  let mcp: McpBackend;

  beforeAll(async () => {
    // Every opt-in tool is listed (mcp-backends.ts passes --caps with every capability, devtools among them).
    mcp = await startMcpBackend(backend, [...TEST_POLICY_FLAGS]);
  }, 120_000);
  afterAll(() => mcp?.close());

  /** Polls `tool` until its text matches, and answers that text. */
  async function until(tool: string, args: Record<string, unknown>, wanted: RegExp): Promise<string> {
    let text = '';
    await expect.poll(async () => (text = await mcp.call(tool, args)), { timeout: 15_000 }).toMatch(wanted);
    return text;
  }

  it("routes a cross-origin iframe's request, and lists it and the iframe's console line as the frame's", async () => {
    await mcp.call('tab_new', { url: fixtures.url('route-e2e') });
    // The console is kept from its first read on.
    await until('console', {}, /^console: /);
    await until('network', { url: 'echo?child' }, /GET 200 fetch f1 /);
    await until('console', {}, /#\d+ log f1\b.*: child got \{"method":"GET"/);

    const added = await mcp.call('network_route', {
      action: 'add',
      url: '*echo?child*',
      mock: { status: 203, body: 'the mock' },
    });
    expect(added).toMatch(/^network_route: added r1 \* \*echo\?child\* → mock 203 "the mock"/);
    const since = Number(/since=(\d+)/.exec(await mcp.call('network', { limit: 1 }))![1]);
    await mcp.call('navigate', { action: 'reload' });
    const mocked = await until('network', { url: 'echo?child', since }, /GET 203 fetch mocked:r1 f\d+ /);
    expect(mocked).toMatch(/mocked:r1 f\d+ .*http:\/\/localhost:\d+\/echo\?child=1$/m);
    await until('console', {}, /#\d+ log f\d+\b.*: child got the mock$/m);
    expect(await mcp.call('network_route', { action: 'list' })).toMatch(
      /\nr1 \* \*echo\?child\* → mock 203 .*\(1 hit\)$/,
    );

    expect(await mcp.call('network_route', { action: 'remove', id: 'r1' })).toBe(
      'network_route: removed 1 route; 0 routes left',
    );
    const after = Number(/since=(\d+)/.exec(await mcp.call('network', { limit: 1 }))![1]);
    await mcp.call('navigate', { action: 'reload' });
    const real = await until('network', { url: 'echo?child', since: after }, /GET 200 fetch f\d+ /);
    expect(real).not.toContain('mocked');
    // The console starts afresh with the reloaded page, whose frame is a new document with a new ordinal.
    const lines = await until('console', {}, /#\d+ log f\d+\b.*: child got \{"method":"GET"/);
    expect(lines).not.toContain('the mock');
  }, 90_000);

  it("routes a dedicated worker's own request, and lists it as mocked", async () => {
    await mcp.call('tab_new', { url: fixtures.url('route-e2e-worker') });
    await until('console', {}, /: worker got \{"method":"GET"/);
    await mcp.call('network_route', { action: 'add', url: '*echo?worker*', mock: { body: 'the worker mock' } });
    const since = Number(/since=(\d+)/.exec(await mcp.call('network', { limit: 1 }))![1]);
    await mcp.call('navigate', { action: 'reload' });
    await until('network', { url: 'echo?worker', since }, /GET 200 fetch mocked:r1 .*\/echo\?worker=1$/m);
    await until('console', {}, /: worker got the worker mock$/m);
    await mcp.call('tab_close');
  }, 90_000);

  // Last: the service worker it registers stays on and controls the fixture origin's later pages.
  it("routes what the site's service worker fetches for the page", async () => {
    await mcp.call('tab_new', { url: fixtures.url('route-e2e-sw') });
    await until('console', {}, /: sw got \{"method":"GET","query":"\?e2e=1"/);
    const added = await mcp.call('network_route', { action: 'add', url: '*echo?e2e*', mock: { body: 'the sw mock' } });
    if (backend === 'extension') {
      // Answering the worker's request there would leave the person's browser force-updating (network-routes.ts).
      expect(added).toContain(WORKER_NOTE);
      await mcp.call('navigate', { action: 'reload' });
      expect(await until('console', {}, /#[3-9] log [^\n]*: sw got \{/)).not.toContain('the sw mock');
      expect(await mcp.call('network_route', { action: 'list' })).toMatch(/→ mock 200 .* \(0 hits\)/);
      return void (await mcp.call('tab_close'));
    }
    expect(added).not.toContain(WORKER_NOTE);
    await mcp.call('navigate', { action: 'reload' });
    await until('console', {}, /: sw got the sw mock$/m);
    await mcp.call('network_route', { action: 'add', url: '*echo?e2e*', block: true });
    await mcp.call('navigate', { action: 'reload' });
    await until('network_route', { action: 'list' }, /\nr2 \* \*echo\?e2e\* → block \(1 hit\)\n/);
    await mcp.call('tab_close');
  }, 90_000);

  // The routing tab gone, the site's next tab loads with the same worker: the browser installs no new version first (it
  // did before each load, ~1–4 s each, once the routed worker's session went: worker-update-switch.ts). Through the
  // extension, which cannot turn that switch off, the routes left the worker's requests alone.
  it("loads the site's next tab with the worker it had", async () => {
    await mcp.call('tab_new', { url: fixtures.url('route-e2e-sw') });
    expect(await until('console', {}, /: installs \d+$/m)).toMatch(/: installs 1$/m);
    await mcp.call('tab_close');
  }, 90_000);
});
