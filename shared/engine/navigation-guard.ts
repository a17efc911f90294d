// Holds every document request of a driven tab (main frame, iframes, each redirect hop, downloads) until the policy
// allows its site: a refused site receives no request from us, not even the first one.
import type { Cdp, CdpEvent } from './cdp.js';
import { ToolError } from '../protocol/errors.js';
import { policyError, type Denied } from '../policy/decision.js';
import type { PolicyGate } from './policy-gate.js';

export interface RefusedNavigation {
  decision: Denied;
  url: string;
  /** A redirect hop rather than the first request of the navigation. */
  redirect: boolean;
  mainFrame: boolean;
}

interface PausedRequest {
  requestId: string;
  request: { url: string };
  frameId?: string;
  resourceType: string;
  redirectedRequestId?: string;
}

// Only documents: a frame's own navigations, whatever started them. Subresources stay with the page that asked for them.
const DOCUMENT_REQUESTS = { patterns: [{ resourceType: 'Document', requestStage: 'Request' }] };
// The refusal list answers "what did this call's navigation hit"; a long session must not grow it without bound.
const KEPT_REFUSALS = 50;

export class NavigationGuard {
  private readonly refusals: { seq: number; refusal: RefusedNavigation }[] = [];
  private seq = 0;
  private readonly listeners = new Set<(refusal: RefusedNavigation) => void>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly cdp: Cdp,
    private readonly gate: PolicyGate,
    private readonly isMainFrame: (frameId: string | undefined, sessionId: string | undefined) => boolean,
  ) {
    this.unsubscribe = cdp.on((event) => this.onEvent(event));
  }

  /** Starts holding the session's document requests; call before the session may navigate (before resuming it). */
  enable(sessionId: string | undefined): Promise<void> {
    return this.cdp.send('Fetch.enable', DOCUMENT_REQUESTS, sessionId).then(() => undefined);
  }

  /** Releases every session: a tab we stop driving must not keep its navigations waiting on us. */
  dispose(sessionIds: readonly (string | undefined)[]): void {
    this.unsubscribe();
    for (const sessionId of sessionIds) void this.cdp.send('Fetch.disable', {}, sessionId).catch(() => undefined);
  }

  /** A point to ask `refusedSince` about later. */
  mark(): number {
    return this.seq;
  }

  /** The first main-frame navigation refused after `mark`, if any. */
  refusedSince(mark: number): RefusedNavigation | undefined {
    return this.refusals.find((entry) => entry.seq > mark && entry.refusal.mainFrame)?.refusal;
  }

  /** Calls `listener` on each main-frame refusal from now on; returns the unsubscribe. */
  onRefused(listener: (refusal: RefusedNavigation) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private onEvent(event: CdpEvent): void {
    if (event.method !== 'Fetch.requestPaused') return;
    const paused = event.params as unknown as PausedRequest;
    const decision = this.gate.decide({ url: paused.request.url }, 'read');
    if (decision.allowed) {
      void this.cdp.send('Fetch.continueRequest', { requestId: paused.requestId }, event.sessionId).catch(() => undefined);
      return;
    }
    const mainFrame = this.isMainFrame(paused.frameId, event.sessionId);
    // Aborted leaves the tab on the page it had (no error page commits); a refused iframe shows the browser's "blocked".
    const errorReason = mainFrame ? 'Aborted' : 'BlockedByClient';
    void this.cdp.send('Fetch.failRequest', { requestId: paused.requestId, errorReason }, event.sessionId).catch(() => undefined);
    const refusal = { decision, url: paused.request.url, redirect: paused.redirectedRequestId !== undefined, mainFrame };
    this.refusals.push({ seq: ++this.seq, refusal });
    if (this.refusals.length > KEPT_REFUSALS) this.refusals.shift();
    if (mainFrame) for (const listener of this.listeners) listener(refusal);
  }
}

/** A navigation the policy stopped, worded from what started it ("navigate to …", "clicked …, but the navigation it started"). */
export function refusedNavigationError(refused: RefusedNavigation, started: string): ToolError {
  const error = policyError(refused.decision);
  const hop = refused.redirect ? ` (redirected to ${refused.decision.site})` : '';
  return new ToolError(error.code, `${started}${hop} was stopped before any request reached ${refused.decision.site}: ${error.message}`, {
    next: error.next,
    ...(error.data ? { data: error.data } : {}),
  });
}
