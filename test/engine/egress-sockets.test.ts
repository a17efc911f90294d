// WebSockets the script opens to another origin, which the browser connects one host at a time: those still queued
// when the eval returns reach no one after the hold lifts, and the page's own sockets to that host still go out.
import { expect, it } from 'vitest';
import { evaluate } from '../../shared/engine/ops/eval.js';
import type { PageContext } from '../../shared/engine/page-context.js';
import { ctx } from '../support/engine-suite.js';
import { pageEval } from '../support/page-probes.js';
import { watchedEngineTab } from '../support/watched-engine-tab.js';

const tab = watchedEngineTab();

const SOCKETS = 40;

/** Opens `count` sockets to the watched site, each URL carrying page data; the page counts them closed. */
function opening(path: string, count = SOCKETS): string {
  const base = JSON.stringify(`${tab.watched.origin.replace('http', 'ws')}/${path}`);
  return `window.socketsClosed = 0; for (let i = 0; i < ${count}; i++) {
    const socket = new WebSocket(${base} + i + '?secret=' + encodeURIComponent(document.title));
    socket.onclose = () => window.socketsClosed++;
  }`;
}

/** Waits until the page's `counter` saw `count` sockets close: the browser tried every handshake by then. */
async function allClosed(page: PageContext, count = SOCKETS, counter = 'socketsClosed'): Promise<void> {
  const deadline = Date.now() + 60_000;
  while ((await pageEval<number>(page, `window.${counter}`)) < count) {
    if (Date.now() > deadline) throw new Error('the sockets never closed');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

it('sockets queued behind one another stay held after the eval, and the page’s own socket there still goes', async () => {
  const { page } = tab;
  const result = await evaluate(page, { expression: `${opening('s')}; 1` }, ctx);
  expect(result.text).toContain(`Held, not sent: ${SOCKETS} requests to other origins while the script ran`);
  // Opened by the page itself while the script's are still queued: it waits its turn for the host, then goes out.
  const own = JSON.stringify(`${tab.watched.origin.replace('http', 'ws')}/own`);
  await pageEval(page, `new WebSocket(${own}).onclose = () => window.socketsClosed++; 1`);
  await allClosed(page, SOCKETS + 1);
  expect(tab.watched.requests).toEqual(['/own']);
}, 90_000);

it('sockets the script opens later, from a timer: none reaches the site, and the next result names each', async () => {
  const { page } = await tab.suite.browser.open(tab.suite.server.url('egress-page.html'));
  await evaluate(
    page,
    { expression: `window.socketsClosed = 0; setTimeout(() => { ${opening('late')} }, 300); 1` },
    ctx,
  );
  await allClosed(page);
  // Each pauses at its constructor, and its handshake meets the refused origins' rule (script-sockets.ts).
  expect(tab.watched.requests).toEqual([]);
  const next = await evaluate(page, { expression: '1' }, ctx);
  expect(next.text).toContain(`Held, not sent, since the last eval returned: ${SOCKETS} request`);
}, 90_000);

it('streams the script opens later, from a timer: none reaches the site', async () => {
  const { page } = await tab.suite.browser.open(tab.suite.server.url('egress-page.html'));
  const base = JSON.stringify(`${tab.watched.origin.replace('http', 'ws')}/stream`);
  const streams = 8;
  await evaluate(
    page,
    {
      expression: `window.streamsClosed = 0; setTimeout(() => { for (let i = 0; i < ${streams}; i++)
        new WebSocketStream(${base} + i).closed.catch(() => undefined).then(() => window.streamsClosed++); }, 300); 1`,
    },
    ctx,
  );
  await allClosed(page, streams, 'streamsClosed');
  expect(tab.watched.requests).toEqual([]);
}, 90_000);
