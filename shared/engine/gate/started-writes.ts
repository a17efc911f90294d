// The writes an act's own handlers started, as the renderer tells them, followed until each reaches the interceptor or
// ends: an act is not over while one of its sends is still on its way to be judged.
import type { Cdp, CdpEvent } from '../cdp.js';
import { isWrite } from './risk.js';

// What the gate's widened patterns pause (tab-gate.ts); anything else never reaches the act's judge.
const PAUSED_TYPES = new Set(['XHR', 'Fetch', 'Ping', 'Other']);
const NO_BODY = { fields: [], more: 0 };

/**
 * Network.requestWillBeSent comes from the renderer as its fetch starts, on the channel our commands answer on, so by
 * the answer to the act's flush every write its handlers started is known here. Its Fetch pause travels another way
 * (the body through the browser first): a large body reached the interceptor after that answer in 8 of 15 clicks
 * (1 MB, Chromium 156), after the act had stopped judging, so the send went out unjudged, or a next act held it.
 */
export class StartedWrites {
  private readonly waiting = new Set<string>();
  /** Paused before the renderer's word on them arrived: not waited for when that word comes. */
  private readonly paused = new Set<string>();
  private counting = false;
  private allReached: (() => void) | undefined;
  private readonly unsubscribe: () => void;

  constructor(cdp: Cdp) {
    this.unsubscribe = cdp.on((event) => this.onEvent(event));
  }

  /** From the act's input on, every write the tab starts counts. */
  count(): void {
    this.counting = true;
  }

  /** Resolves once every write counted so far has been paused or has ended; none started after this call counts. */
  reached(): Promise<void> {
    this.counting = false;
    if (this.waiting.size === 0) return Promise.resolve();
    return new Promise((resolve) => (this.allReached = resolve));
  }

  stop(): void {
    this.unsubscribe();
    this.waiting.clear();
    this.allReached?.();
  }

  private onEvent(event: CdpEvent): void {
    const { method, params } = event;
    if (method === 'Network.requestWillBeSent') {
      if (!this.counting) return;
      const request = params['request'] as { method: string };
      if (!PAUSED_TYPES.has(String(params['type'])) || !isWrite(request.method, NO_BODY)) return;
      const key = keyOf(event.sessionId, params['requestId']);
      if (!this.paused.has(key)) this.waiting.add(key);
    } else if (method === 'Fetch.requestPaused') {
      if (params['responseStatusCode'] !== undefined || params['responseErrorReason'] !== undefined) return;
      const key = keyOf(event.sessionId, params['networkId'] ?? params['requestId']);
      if (!this.done(key) && this.counting) this.paused.add(key);
    } else if (
      method === 'Network.loadingFinished' ||
      method === 'Network.loadingFailed' ||
      method === 'Network.responseReceived'
    ) {
      this.done(keyOf(event.sessionId, params['requestId']));
    }
  }

  private done(key: string): boolean {
    if (!this.waiting.delete(key)) return false;
    if (this.waiting.size === 0) this.allReached?.();
    return true;
  }
}

function keyOf(sessionId: string | undefined, requestId: unknown): string {
  return `${sessionId ?? ''}:${String(requestId)}`;
}
