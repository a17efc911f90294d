// WebSockets an eval's script opens through the real extension, which the browser connects one host at a time: those
// still queued when the eval returns reach no one after the hold lifts, and every one is named.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startWatchedSite, type WatchedSite } from '../support/watched-site.js';
import type { LinkedExtension } from './support/linked-extension.js';
import { startEgressTab, type EgressTab } from './support/egress-tab.js';
import type { PageProbe } from './support/page-probe.js';
import { testServerPolicy } from '../support/test-policy.js';

let started: EgressTab;
let linked: LinkedExtension;
let watched: WatchedSite;
let tab: string;
let page: PageProbe;

beforeAll(async () => {
  watched = await startWatchedSite();
  started = await startEgressTab(() => testServerPolicy('trusted', ['127.0.0.1']), 'egress-page.html');
  ({ linked, tab, page } = started);
});

afterAll(async () => {
  await started?.close();
  await watched?.close();
});

it('sockets queued behind one another stay held after the eval', async () => {
  const base = JSON.stringify(`${watched.origin.replace('http', 'ws')}/s`);
  const result = await linked.run('eval', {
    tab,
    expression: `let closed = 0; for (let i = 0; i < 40; i++) {
      const socket = new WebSocket(${base} + i + '?secret=' + encodeURIComponent(document.title));
      socket.onclose = () => { if (++closed === 40) window.socketsDone = true; };
    } 1`,
  });
  expect(result.text).toContain('Held, not sent: 40 requests to other origins while the script ran');
  // Every handshake was tried once the page saw every socket close.
  await page.until('socketsDone');
  expect(watched.requests).toEqual([]);
});
