// navigate on real Chromium: final URL after redirects, status, net errors, load states, history, fragments, timeouts.
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { navigate } from '../../shared/engine/ops/navigate.js';
import type { OperationContext } from '../../shared/protocol/operations.js';
import { failure, useEngineSuite } from '../support/engine-suite.js';
import { pageEval } from '../support/page-probes.js';
import { registerTestServerPort } from '../support/test-policy.js';

const suite = useEngineSuite();

function context(): OperationContext & { messages: string[] } {
  const messages: string[] = [];
  return { messages, progress: (message) => messages.push(message) };
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('navigate', () => {
  it('answers the final URL after a redirect and the title, reporting progress', async () => {
    const { page } = await suite.browser.open('about:blank');
    const ctx = context();
    const result = await navigate(page, { url: suite.server.url('redirect?to=/nav-basic.html') }, ctx);
    expect(result.text).toBe(`${suite.server.url('nav-basic.html')} "Nav basic"`);
    expect(result.data).toMatchObject({ url: suite.server.url('nav-basic.html'), title: 'Nav basic', status: 200 });
    expect(ctx.messages.some((message) => message.startsWith('committed'))).toBe(true);
  });

  it('names a non-2xx HTTP status', async () => {
    const { page } = await suite.browser.open('about:blank');
    const result = await navigate(page, { url: suite.server.url('no-such-page.html') }, context());
    expect(result.text).toContain('— HTTP 404');
    expect(result.data).toMatchObject({ status: 404 });
  });

  it('fails with the network error text when nothing answers', async () => {
    const { page } = await suite.browser.open('about:blank');
    const port = await closedPort();
    // Granted like a test server's port, so the policy lets the navigation go and the browser's own error comes back.
    registerTestServerPort(port);
    const url = `http://127.0.0.1:${port}/`;
    const error = await failure(navigate(page, { url }, context()));
    expect(error.code).toBe('NAVIGATION_FAILED');
    expect(error.message).toContain('ERR_CONNECTION_REFUSED');
  });

  it('follows a client-side redirect that replaces the document while it loads', async () => {
    const { page } = await suite.browser.open('about:blank');
    const result = await navigate(page, { url: suite.server.url('nav-client-redirect.html') }, context());
    expect(result.text).toBe(`${suite.server.url('nav-second.html')} "Nav second"`);
  });

  it('returns at DOMContentLoaded without waiting for images, and at load after them', async () => {
    const { page } = await suite.browser.open('about:blank');
    await navigate(page, { url: suite.server.url('nav-slow.html'), waitUntil: 'domcontentloaded' }, context());
    expect(await pageEval(page, 'document.readyState')).not.toBe('complete');
    await navigate(page, { url: suite.server.url('nav-slow.html?again') }, context());
    expect(await pageEval(page, 'document.readyState')).toBe('complete');
  });

  it('waits for the network to go quiet with networkidle, which load does not', async () => {
    const { page } = await suite.browser.open('about:blank');
    await navigate(page, { url: suite.server.url('nav-idle.html') }, context());
    expect(await pageEval(page, 'window.fetchDone')).toBe(false);
    await navigate(page, { url: suite.server.url('nav-idle.html?idle'), waitUntil: 'networkidle' }, context());
    expect(await pageEval(page, 'window.fetchDone')).toBe(true);
  });

  it('times out with TIMEOUT when load does not come in time', async () => {
    const { page } = await suite.browser.open('about:blank');
    const error = await failure(
      navigate(page, { url: suite.server.url('nav-slow.html?timeout'), timeout: 300 }, context()),
    );
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toContain('did not reach load');
  });

  it('completes a fragment navigation at once, even on a page whose load never finishes', async () => {
    const { page } = await suite.browser.open('about:blank');
    await navigate(page, { url: suite.server.url('nav-hang.html'), waitUntil: 'domcontentloaded' }, context());
    const started = Date.now();
    const result = await navigate(page, { url: suite.server.url('nav-hang.html#part') }, context());
    // Far below the image's 60 s: the fragment navigation did not wait for load.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.text).toContain('nav-hang.html#part');
  });

  it('goes back, forward and reloads, waiting for each document', async () => {
    const { page } = await suite.browser.open('about:blank');
    await navigate(page, { url: suite.server.url('nav-basic.html') }, context());
    await pageEval(page, 'window.kept = 1');
    await navigate(page, { url: suite.server.url('nav-second.html') }, context());
    expect((await navigate(page, { action: 'back' }, context())).text).toBe(
      `${suite.server.url('nav-basic.html')} "Nav basic"`,
    );
    // Back came from the back-forward cache (the page as it was left), which fires no load event: still waited for.
    expect(await pageEval(page, 'typeof window.kept')).toBe('number');
    expect((await navigate(page, { action: 'forward' }, context())).text).toBe(
      `${suite.server.url('nav-second.html')} "Nav second"`,
    );
    await pageEval(page, 'window.marker = 1');
    expect((await navigate(page, { action: 'reload' }, context())).text).toBe(
      `${suite.server.url('nav-second.html')} "Nav second"`,
    );
    expect(await pageEval(page, 'typeof window.marker')).toBe('undefined');
    expect((await failure(navigate(page, { action: 'forward' }, context()))).code).toBe('NAVIGATION_FAILED');
  });

  it('wants exactly one of url and action', async () => {
    const { page } = await suite.browser.open('about:blank');
    expect((await failure(navigate(page, {}, context()))).code).toBe('BAD_ARGS');
    expect((await failure(navigate(page, { url: suite.server.origin, action: 'back' }, context()))).code).toBe(
      'BAD_ARGS',
    );
  });
});
