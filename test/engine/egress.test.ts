// The egress hold on real Chromium: whatever an eval script sends to another origin (fetch, XHR, beacon, image, script,
// prefetch, form, WebSocket, EventSource, a navigation, a zero-delay timer, an un-awaited chain, a page's own wrapper,
// a service worker's fetch of a page request, a worker it starts or messages) reaches no one and is reported; the tab's
// own origins pass; after the eval the tab is as it was.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AllowedOrigins } from '../../shared/engine/egress-origins.js';
import { evaluate } from '../../shared/engine/ops/eval.js';
import type { PageContext } from '../../shared/engine/page-context.js';
import type { OperationResult } from '../../shared/protocol/operations.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';
import { pageEval } from '../support/page-probes.js';
import { startWatchedSite, type WatchedSite } from '../support/watched-site.js';

const suite = useEngineSuite();
let watched: WatchedSite;
let page: PageContext;

beforeAll(async () => {
  watched = await startWatchedSite();
  ({ page } = await suite.browser.open(suite.server.url('egress-page.html')));
});
afterAll(() => watched?.close());
afterEach(() => {
  watched.requests.length = 0;
});

const run = (expression: string, on = page) => evaluate(on, { expression }, ctx);
const open = async (path: string) => (await suite.browser.open(suite.server.url(path))).page;

/** Runs `expression` in the page's own world, outside any eval, and waits for the promise it makes. */
async function pageAwait(on: PageContext, expression: string): Promise<void> {
  const { exceptionDetails } = await on.cdp.send<{ exceptionDetails?: { text: string } }>('Runtime.evaluate', {
    expression,
    awaitPromise: true,
  });
  if (exceptionDetails) throw new Error(`page script failed: ${exceptionDetails.text}`);
}

/**
 * The paths that reached the watched site, read once a request sent after the eval (from outside it, by an image the
 * page loads) has arrived there: that one proves the hold was lifted, and a send the hold had missed would have left
 * during the eval, well before it.
 */
async function reached(on = page): Promise<string[]> {
  const after = JSON.stringify(`${watched.origin}/after`);
  await pageAwait(
    on,
    `new Promise((resolve) => { const image = new Image(); image.onload = image.onerror = resolve; image.src = ${after}; })`,
  );
  expect(watched.requests).toContain('/after');
  return watched.requests.filter((path) => path !== '/after');
}

/** The result's list of held requests, with the watched site's origin written as W. */
function held(result: OperationResult): string[] {
  const list = (result.data?.['held'] ?? []) as string[];
  return list.map((entry) =>
    entry.replaceAll(watched.origin, 'W').replaceAll(watched.origin.replace('http', 'ws'), 'WS'),
  );
}

describe('eval holds what a script sends to another origin', () => {
  const sends: [string, (w: string) => string, string][] = [
    [
      'fetch',
      (w) => `fetch('${w}/fetch', { method: 'POST', body: document.title }).catch(() => 'refused')`,
      'POST W/fetch (Fetch)',
    ],
    [
      'XHR',
      (w) => `const xhr = new XMLHttpRequest(); xhr.open('PUT', '${w}/xhr'); xhr.send('x'); 1`,
      'PUT W/xhr (XHR)',
    ],
    ['sendBeacon', (w) => `navigator.sendBeacon('${w}/beacon', document.title)`, 'POST W/beacon (Ping)'],
    ['an image', (w) => `new Image().src = '${w}/image'`, 'GET W/image (Image)'],
    [
      'a script tag',
      (w) => `document.head.append(Object.assign(document.createElement('script'), { src: '${w}/script' })); 1`,
      'GET W/script (Script)',
    ],
    [
      'a link prefetch',
      (w) =>
        `document.head.append(Object.assign(document.createElement('link'), { rel: 'prefetch', href: '${w}/prefetch' })); 1`,
      'GET W/prefetch (Other)',
    ],
    ['a WebSocket', (w) => `new WebSocket('${w.replace('http', 'ws')}/socket'); 1`, 'WebSocket WS/socket'],
  ];

  it.each(sends)('%s', async (_, script, entry) => {
    const result = await run(script(watched.origin));
    expect(held(result)).toEqual([entry]);
    expect(result.text).toContain('Held, not sent: 1 request to other origins while the script ran');
    expect(await reached()).toEqual([]);
  });

  it('a worker the script starts, held before its first line runs, the CORS preflight of its PUT included', async () => {
    const worker = `Promise.allSettled([fetch('${watched.origin}/worker-put?d=1', { method: 'PUT' }), fetch('${watched.origin}/worker-get')]).then(() => postMessage(0));`;
    const result = await run(`await new Promise((resolve) => {
      const worker = new Worker(URL.createObjectURL(new Blob([${JSON.stringify(worker)}], { type: 'text/javascript' })));
      worker.onmessage = resolve;
    }); 'done'`);
    expect(held(result).sort()).toEqual(['GET W/worker-get (Fetch)', 'PUT W/worker-put?d=[redacted 1 chars] (Fetch)']);
    expect(await reached()).toEqual([]);
  });

  it('a worker that was running before the script, told by it to send', async () => {
    const sender = await open('egress-page.html');
    const worker = 'onmessage = (event) => fetch(event.data).catch(() => undefined).then(() => postMessage(0));';
    await pageAwait(
      sender,
      `window.sender = new Worker(URL.createObjectURL(new Blob([${JSON.stringify(worker)}], { type: 'text/javascript' }))); true`,
    );
    const result = await run(
      `await new Promise((resolve) => { sender.onmessage = resolve; sender.postMessage('${watched.origin}/told'); }); 'done'`,
      sender,
    );
    expect(held(result)).toEqual(['GET W/told (Fetch)']);
    expect(await reached(sender)).toEqual([]);
  });

  it('a form submitted to another origin, leaving the tab on its page', async () => {
    const result =
      await run(`const form = Object.assign(document.createElement('form'), { method: 'POST', action: '${watched.origin}/form' });
      document.body.append(form);
      form.submit();`);
    expect(held(result)).toEqual(['POST W/form (navigation)']);
    expect(await reached()).toEqual([]);
    expect(await pageEval(page, 'location.pathname')).toBe('/egress-page.html');
  });

  it('an EventSource (whose own retry, seconds later, the hold cannot see)', async () => {
    const result = await run(`window.events = new EventSource('${watched.origin}/events'); 1`);
    expect(held(result)).toEqual(['GET W/events (EventSource)']);
    // The browser retries a failed EventSource on its own about 3 s later, after the eval: that send is not held.
    await pageEval(page, 'window.events.close()');
    expect(await reached()).toEqual([]);
  });

  it('a navigation to a site the policy allows, when it is another origin', async () => {
    const result = await run(`location.href = '${suite.server.crossOrigin}/egress-page.html?moved=1'`);
    expect(held(result)).toEqual([
      `GET ${suite.server.crossOrigin}/egress-page.html?moved=[redacted 1 chars] (navigation)`,
    ]);
    expect(await pageEval(page, 'location.href')).toBe(suite.server.url('egress-page.html'));
  });

  it('a send queued with setTimeout(…, 0), and one an un-awaited promise makes after a same-origin request', async () => {
    const timer = await run(`setTimeout(() => navigator.sendBeacon('${watched.origin}/later', 'x'), 0); 'queued'`);
    expect(timer.text).toContain('"queued"');
    expect(held(timer)).toEqual(['POST W/later (Ping)']);
    const chained = await run(
      `fetch('/egress-page.html').then((response) => response.text()).then((text) => navigator.sendBeacon('${watched.origin}/chained', text)); 'started'`,
    );
    expect(held(chained)).toEqual(['POST W/chained (Ping)']);
    expect(await reached()).toEqual([]);
  });

  it('every send of one script, with query values shown only by name and length', async () => {
    const result = await run(`const balance = document.getElementById('secret').textContent;
      new Image().src = '${watched.origin}/collect?token=abc&balance=' + encodeURIComponent(balance);
      navigator.sendBeacon('${watched.origin}/beacon', balance);
      'sent'`);
    // An image starts loading in a microtask, after the beacon has gone: the list is in the order the browser saw them.
    expect(held(result)).toEqual([
      'POST W/beacon (Ping)',
      'GET W/collect?token=[redacted 3 chars]&balance=[redacted 20 chars] (Image)',
    ]);
    expect(result.text).toContain('Held, not sent: 2 requests to other origins');
    expect(result.text).not.toContain('1234');
    expect(await reached()).toEqual([]);
  });

  it('one eval ending does not lift the hold from another still running on the tab', async () => {
    const [slow, quick] = await Promise.all([
      run(
        `await new Promise((resolve) => setTimeout(resolve, 300)); navigator.sendBeacon('${watched.origin}/slow', 'x')`,
      ),
      run('document.title'),
    ]);
    expect(quick.text).toBe('"Egress page"');
    expect(held(slow)).toEqual(['POST W/slow (Ping)']);
    expect(await reached()).toEqual([]);
  });
});

describe('what passes', () => {
  it('a same-origin fetch, which returns its data', async () => {
    const result = await run(`(await (await fetch('/egress-page.html?fresh=1')).text()).includes('Account balance')`);
    expect(result.text).toBe('true');
    expect(result.data).toEqual({ ok: true, type: 'boolean' });
  });

  it('a request to the origin of one of the tab’s own frames', async () => {
    const framed = await open('egress-frames.html');
    const result = await run(
      `(await fetch('${suite.server.crossOrigin}/egress-page.html', { mode: 'no-cors' })).type`,
      framed,
    );
    expect(result.text).toBe('"opaque"');
    expect(result.data).toEqual({ ok: true, type: 'string' });
  });
});

describe('after the eval', () => {
  it('the page’s own requests go out again, sockets included', async () => {
    expect(held(await run(`new Image().src = '${watched.origin}/during'`))).toEqual(['GET W/during (Image)']);
    const socket = JSON.stringify(`${watched.origin.replace('http', 'ws')}/socket-after`);
    await pageAwait(
      page,
      `new Promise((resolve) => { const socket = new WebSocket(${socket}); socket.onerror = socket.onclose = resolve; })`,
    );
    expect(await reached()).toEqual(['/socket-after']);
  });

  it('document requests are still judged by the policy', async () => {
    await run('document.title');
    const mark = page.frames.navigation.mark();
    await page.cdp.send('Page.navigate', { url: `${watched.origin}/` });
    expect(page.frames.navigation.refusedSince(mark)).toMatchObject({ url: `${watched.origin}/`, mainFrame: true });
    expect(await reached()).toEqual([]);
  });
});

describe('a page cannot help a script out', () => {
  it('a page that wraps fetch to send copies elsewhere has them held with the rest', async () => {
    const hostile = await open(`egress-hostile.html?to=${encodeURIComponent(watched.origin)}`);
    const result = await run(`(await fetch('/egress-page.html')).status`, hostile);
    expect(result.text.split('\n')[0]).toBe('200');
    expect(held(result)).toEqual([
      'POST W/smuggled-beacon (Ping)',
      'GET W/smuggled-image?copy=[redacted 17 chars] (Image)',
    ]);
    expect(await reached(hostile)).toEqual([]);
  });

  it('a page whose CSP forbids eval', async () => {
    const strict = await open('csp/egress-page.html');
    const result = await run(`new Image().src = '${watched.origin}/under-csp'`, strict);
    expect(held(result)).toEqual(['GET W/under-csp (Image)']);
    expect(await reached(strict)).toEqual([]);
  });

  it('a page whose service worker fetches what the page asks for', async () => {
    const served = await open('egress-page.html?sw=1');
    await pageAwait(
      served,
      `navigator.serviceWorker.controller ? true : new Promise((resolve) => {
      navigator.serviceWorker.addEventListener('controllerchange', () => resolve(true));
      navigator.serviceWorker.register('/egress-sw.js', { scope: '/egress-page.html?sw' });
    })`,
    );
    const result = await run(
      `fetch('${watched.origin}/via-worker', { mode: 'no-cors' }).then(() => 'sent', () => 'refused')`,
      served,
    );
    expect(result.text.split('\n')[0]).toBe('"refused"');
    expect(held(result)).toEqual(['GET W/via-worker (Fetch)']);
    expect(await reached(served)).toEqual([]);
  });
});

describe('the origins a held script may reach', () => {
  const allowed = new AllowedOrigins([
    'https://app.example',
    'http://127.0.0.1:8080',
    'http://[::1]:9000',
    'null',
    '://',
    undefined,
  ]);

  it('are the frames’ own, a WebSocket by its http counterpart, and what never leaves the browser', () => {
    expect(allowed.allows('https://app.example/api?q=1')).toBe(true);
    expect(allowed.allows('wss://app.example/socket')).toBe(true);
    expect(allowed.allows('ws://127.0.0.1:8080/')).toBe(true);
    expect(allowed.allows('data:text/plain,x')).toBe(true);
    expect(allowed.allows('blob:https://app.example/0f1e')).toBe(true);
    expect(allowed.allows('https://api.app.example/')).toBe(false);
    expect(allowed.allows('http://app.example/')).toBe(false);
    expect(allowed.allows('https://app.example:444/')).toBe(false);
    expect(allowed.allows('not a url')).toBe(false);
  });

  it('pass first in the browser rules, an IPv6 literal escaped, and everything else is offline or blocked', () => {
    expect(allowed.rules().map((rule) => [rule['urlPattern'], rule['offline']])).toEqual([
      ['https://app.example/*', false],
      ['wss://app.example/*', false],
      ['http://127.0.0.1:8080/*', false],
      ['ws://127.0.0.1:8080/*', false],
      ['http://[\\:\\:1]:9000/*', false],
      ['ws://[\\:\\:1]:9000/*', false],
      ['', true],
    ]);
    expect(allowed.blockPatterns().at(-1)).toEqual({ urlPattern: '*://*:*/*', block: true });
  });

  it('are kept for an arming with the same frames, and built anew when a frame brings another origin', () => {
    // What a hold may reuse from its last arming: an opaque origin adds nothing, order does not count.
    expect(allowed.same(['http://[::1]:9000', 'https://app.example', 'http://127.0.0.1:8080', 'null'])).toBe(true);
    expect(allowed.same(['https://app.example', 'http://127.0.0.1:8080'])).toBe(false);
    expect(allowed.same(['https://app.example', 'http://127.0.0.1:8080', 'http://[::1]:9000', 'https://x.test'])).toBe(
      false,
    );
  });
});
