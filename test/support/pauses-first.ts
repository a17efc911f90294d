// A browser connection on which a popup's document requests pause before their initiators are told: an order Chromium
// never showed here (Network.requestWillBeSent came first in every measurement) but nothing in CDP rules out.
import type { CdpEvent } from '../../shared/engine/cdp.js';
import type { CdpConnection } from '../../electron/core/fallback/cdp-connection.js';

// What tells of a request's fate: a requestWillBeSent held back goes out before any of these, never after.
const LATER = new Set(['Network.responseReceived', 'Network.loadingFinished', 'Network.loadingFailed']);

export interface PopupFetch {
  paused: string[];
  answered: string[];
}

// Each of these answers a paused request; Chrome takes the first, and a second means two guards both judged it.
const ANSWERS = new Set(['Fetch.continueRequest', 'Fetch.failRequest', 'Fetch.fulfillRequest']);

/**
 * `connection` as it is, but in each popup's session (a page target with an opener) a document's requestWillBeSent
 * reaches the listeners right after its Fetch.requestPaused, or before the next word of the same request; one whose URL
 * `untold` matches never does. `fetch` gets `session:requestId` for each pause of a popup's request (request and
 * response stage alike) and each answer to one.
 */
export function pausesFirst(
  connection: CdpConnection,
  { fetch = { paused: [], answered: [] }, untold }: { fetch?: PopupFetch; untold?: RegExp } = {},
): CdpConnection {
  const listeners = new Set<(event: CdpEvent) => void>();
  const popups = new Set<string>();
  const held = new Map<string, CdpEvent>();
  const emit = (event: CdpEvent) => {
    for (const listener of [...listeners]) listener(event);
  };
  const release = (key: string) => {
    const event = held.get(key);
    held.delete(key);
    if (event) emit(event);
  };
  connection.on((event) => {
    const info = event.params['targetInfo'] as { type?: string; openerId?: string } | undefined;
    if (event.method === 'Target.attachedToTarget' && info?.type === 'page' && info.openerId !== undefined)
      popups.add(String(event.params['sessionId']));
    if (event.sessionId === undefined || !popups.has(event.sessionId)) return emit(event);
    const key = (id: unknown) => `${event.sessionId}:${String(id)}`;
    if (event.method === 'Network.requestWillBeSent' && event.params['type'] === 'Document') {
      const { url } = event.params['request'] as { url: string };
      return void (untold?.test(url) || held.set(key(event.params['requestId']), event));
    }
    if (LATER.has(event.method)) release(key(event.params['requestId']));
    emit(event);
    if (event.method !== 'Fetch.requestPaused') return;
    fetch.paused.push(key(event.params['requestId']));
    release(key(event.params['networkId']));
  });
  return new Proxy(connection, {
    get(target, prop) {
      if (prop === 'on')
        return (listener: (event: CdpEvent) => void) => {
          listeners.add(listener);
          return () => listeners.delete(listener);
        };
      if (prop === 'send')
        return (method: string, params: Record<string, unknown> = {}, sessionId?: string) => {
          if (ANSWERS.has(method) && sessionId !== undefined && popups.has(sessionId))
            fetch.answered.push(`${sessionId}:${String(params['requestId'])}`);
          return target.send(method, params, sessionId);
        };
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
