// WebSockets an eval's script opens through the real extension, which the browser connects one host at a time: those
// still queued when the eval returns reach no one after the hold lifts, and every one is named.
import { expect, it } from 'vitest';
import { watchedEgressTab } from './support/watched-egress-tab.js';

const egress = watchedEgressTab();

it('sockets queued behind one another stay held after the eval', async () => {
  const base = JSON.stringify(`${egress.watched.origin.replace('http', 'ws')}/s`);
  const result = await egress.run(`let closed = 0; for (let i = 0; i < 40; i++) {
      const socket = new WebSocket(${base} + i + '?secret=' + encodeURIComponent(document.title));
      socket.onclose = () => { if (++closed === 40) window.socketsDone = true; };
    } 1`);
  expect(result.text).toContain('Held, not sent: 40 requests to other origins while the script ran');
  // Every handshake was tried once the page saw every socket close.
  await egress.until('socketsDone');
  expect(egress.watched.requests).toEqual([]);
});
