// WebSockets an eval's script opens through the real extension, which the browser connects one host at a time: those
// still queued when the eval returns reach no one after the hold lifts (every one named), nor do those a timer of its
// opens later (named in the next result).
import { expect, it } from 'vitest';
import { watchedEgressTab } from './support/watched-egress-tab.js';

const egress = watchedEgressTab();

const SOCKETS = 40;

/** Opens the sockets to the watched site, each URL carrying page data; `marker` is set once the page saw all close. */
function opening(path: string, marker: string): string {
  const base = JSON.stringify(`${egress.watched.origin.replace('http', 'ws')}/${path}`);
  return `let closed = 0; for (let i = 0; i < ${SOCKETS}; i++) {
      const socket = new WebSocket(${base} + i + '?secret=' + encodeURIComponent(document.title));
      socket.onclose = () => { if (++closed === ${SOCKETS}) window.${marker} = true; };
    }`;
}

it('sockets queued behind one another stay held after the eval', async () => {
  const result = await egress.run(`${opening('s', 'socketsDone')} 1`);
  expect(result.text).toContain(`Held, not sent: ${SOCKETS} requests to other origins while the script ran`);
  // Every handshake was tried once the page saw every socket close.
  await egress.until('socketsDone');
  expect(egress.watched.requests).toEqual([]);
});

it('sockets the script opens later, from a timer: none reaches the site, and the next result names each', async () => {
  await egress.run(`setTimeout(() => { ${opening('late', 'lateSocketsDone')} }, 300); 1`);
  await egress.until('lateSocketsDone');
  expect(egress.watched.requests).toEqual([]);
  const next = await egress.run('1');
  expect(next.text).toContain(`Held, not sent, since the last eval returned: ${SOCKETS} request`);
});
