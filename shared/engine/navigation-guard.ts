// Holds every document request of a driven tab (main frame, iframes, each redirect hop) until the policy allows its
// site, so a refused site receives no request from us, not even the first one; refuses document responses that would
// be saved as files while downloads are off; notes the new windows and downloads a page starts, for the act's report;
// and hands every paused request to the layers that judge it, routes last, in the session's one chain of guards.
import type { Cdp, CdpEvent } from './cdp.js';
import type { Send } from './egress-ledger.js';
import type { ToolError } from '../protocol/errors.js';
import type { Denied } from '../policy/decision.js';
import { policyError } from '../protocol/policy-error.js';
import { evaluateDownload } from '../policy/evaluate.js';
import { siteOf } from '../policy/site.js';
import { isDownloadResponse } from './download-response.js';
import type { Link, PausedChain } from './paused-chain.js';
import type { PolicyGate } from './policy-gate.js';

export interface RefusedNavigation {
  decision: Denied;
  url: string;
  /** A redirect hop rather than the first request of the navigation. */
  redirect: boolean;
  mainFrame: boolean;
  /**
   * `navigation`: a frame's document request, failed before it left. `download`: a file the browser would have saved
   * while downloads are off, stopped before it was written. `popup`: a new window the page opened at a refused site; the
   * window's own guard (or closing it) deals with its request.
   */
  kind: 'navigation' | 'download' | 'popup';
}

interface PausedRequest {
  request: { url: string };
  frameId?: string;
  resourceType: string;
  redirectedRequestId?: string;
  /** Set at the response stage only. */
  responseStatusCode?: number;
  responseErrorReason?: string;
  responseHeaders?: { name: string; value: string }[];
}

/** A Fetch.enable pattern. */
export interface RequestPattern {
  resourceType?: string;
  urlPattern?: string;
  requestStage: 'Request' | 'Response';
}

// Only documents: a frame's own navigations, whatever started them. Subresources stay with the page that asked for
// them. The response stage is where a navigation turns out to be a download (its headers say so).
const DOCUMENT_REQUESTS: { patterns: readonly RequestPattern[] } = {
  patterns: [
    { resourceType: 'Document', requestStage: 'Request' },
    { resourceType: 'Document', requestStage: 'Response' },
  ],
};
// The refusal list answers "what did this call's navigation hit"; a long session must not grow it without bound.
const KEPT_REFUSALS = 50;

export class NavigationGuard {
  private readonly refusals: { seq: number; refusal: RefusedNavigation }[] = [];
  private seq = 0;
  private readonly listeners = new Set<(refusal: RefusedNavigation) => void>();
  /** Downloads that began while downloads were off, by guid: the browser's own switch (the fallback's) cancels them. */
  private readonly unwanted = new Map<string, { url: string; frameId: string | undefined }>();
  private readonly unsubscribe: () => void;
  /** Every guard on the tab's handle answers its paused requests through the handle's one chain (paused-chain.ts). */
  private readonly chain: PausedChain;
  private readonly link: Link = {
    intercept: (event) => this.interceptors.some((interceptor) => interceptor(event)),
    rule: (event) => this.rule(event),
    route: (event) => this.router?.(event) === true,
  };
  private readonly leave: () => void;
  /**
   * See each paused request before the policy does, the latest first, and answer it when one returns true: egress-hold.ts
   * during an eval, gate/tab-gate.ts during an act, gate/replay.ts for a released request it sends again.
   */
  private interceptors: ((event: CdpEvent) => boolean)[] = [];
  /** Patterns kept on every session beyond documents (see `stand`), each entry as one caller stood it. */
  private standing: (readonly RequestPattern[])[] = [];
  /** Every session enabled and not detached, with the widening it was last enabled with (see `restand`). */
  private readonly sessions = new Map<string | undefined, readonly RequestPattern[]>();
  /** Takes what no interceptor took and the policy lets go, before it goes on untouched (see `routeWith`). */
  private router: ((event: CdpEvent) => boolean) | undefined;

  constructor(
    private readonly cdp: Cdp,
    private readonly gate: PolicyGate,
    private readonly isMainFrame: (frameId: string | undefined, sessionId: string | undefined) => boolean,
  ) {
    this.unsubscribe = cdp.on((event) => this.onEvent(event));
    this.chain = cdp.pausedChain;
    this.leave = this.chain.join(this.link);
  }

  /**
   * Starts holding the session's document requests; call before the session may navigate (before resuming it). `also`
   * pauses more for an interceptor (the gate, while an act runs); enabling again without it restores exactly this
   * guard's patterns, and a request paused meanwhile stays paused until answered.
   */
  enable(sessionId: string | undefined, also: readonly RequestPattern[] = []): Promise<void> {
    this.sessions.set(sessionId, also);
    const wider = [...this.standing.flat(), ...also];
    const patterns = wider.length === 0 ? DOCUMENT_REQUESTS : { patterns: [...DOCUMENT_REQUESTS.patterns, ...wider] };
    return this.cdp.send('Fetch.enable', patterns, sessionId).then(() => undefined);
  }

  /** Enables the session again with the widening it has: for a caller that adds what stands, never narrowing an act. */
  reenable(sessionId: string | undefined): Promise<void> {
    return this.enable(sessionId, this.sessions.get(sessionId) ?? []);
  }

  /**
   * Patterns every later `enable` keeps, on every session, for the tab's life (egress-trail.ts, once a script ran):
   * an act's own widening and its end would otherwise drop them. The caller enables its sessions again (or calls
   * `restand`) to apply them; the returned function takes exactly these away again, for `restand` to apply.
   */
  stand(patterns: readonly RequestPattern[]): () => void {
    const entry = [...patterns];
    this.standing = [...this.standing, entry];
    return () => {
      this.standing = this.standing.filter((each) => each !== entry);
    };
  }

  /**
   * Applies the standing patterns as they are now to every session, each keeping the widening it has (an act's gate,
   * tab-gate.ts): changing what stands must never narrow what an act judges. A session gone meanwhile is no failure.
   */
  restand(): Promise<void> {
    const sessions = [...this.sessions];
    return Promise.all(sessions.map(([id, also]) => this.enable(id, also).catch(() => undefined))).then(
      () => undefined,
    );
  }

  /**
   * The last word before a paused subresource goes on untouched (network-routes.ts): after every interceptor, so the
   * send gate, the egress hold and the script trail always judge first. One router per tab.
   */
  routeWith(router: (event: CdpEvent) => boolean): void {
    this.router = router;
  }

  /**
   * Lets go a paused request an interceptor took: any other guard on the session judges it next, and it is answered as
   * it would have been without this guard's interceptors.
   */
  judge(event: CdpEvent): void {
    this.chain.onward(event, this.link);
  }

  /** Routes paused requests to `interceptor` first (before any routed earlier) until the returned function is called. */
  interceptFirst(interceptor: (event: CdpEvent) => boolean): () => void {
    this.interceptors = [interceptor, ...this.interceptors];
    return () => {
      this.interceptors = this.interceptors.filter((each) => each !== interceptor);
    };
  }

  /**
   * Releases every session: a tab we stop driving must not keep its navigations waiting on us. What they hold paused,
   * unanswered, is failed first (paused-chain.ts), as disabling Fetch would send it; answers what was failed.
   */
  dispose(sessionIds: readonly (string | undefined)[]): Promise<Send[]> {
    this.unsubscribe();
    const failed = this.chain.letGo(sessionIds);
    this.leave();
    this.sessions.clear();
    return failed;
  }

  /** A point to ask `refusedSince` about later. */
  mark(): number {
    return this.seq;
  }

  /** The first refusal after `mark` that an act or a navigation answers for: the main frame's, or a download or popup anywhere. */
  refusedSince(mark: number): RefusedNavigation | undefined {
    return this.refusals.find(
      (entry) => entry.seq > mark && (entry.refusal.mainFrame || entry.refusal.kind !== 'navigation'),
    )?.refusal;
  }

  /** Calls `listener` on each main-frame navigation or download refused from now on; returns the unsubscribe. */
  onRefused(listener: (refusal: RefusedNavigation) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private onEvent(event: CdpEvent): void {
    switch (event.method) {
      case 'Target.detachedFromTarget':
        this.sessions.delete(String(event.params['sessionId']));
        return;
      case 'Page.windowOpen':
        return this.onWindowOpen(String(event.params['url'] ?? ''), event.sessionId);
      case 'Page.downloadWillBegin':
        if (!this.gate.current().downloads) {
          this.unwanted.set(String(event.params['guid']), {
            url: String(event.params['url']),
            frameId: event.params['frameId'] as string | undefined,
          });
        }
        return;
      case 'Page.downloadProgress':
        return this.onDownloadProgress(String(event.params['guid']), String(event.params['state']), event.sessionId);
    }
  }

  /** A document request every interceptor left: the reason to fail it with, if the policy refuses it. */
  private rule(event: CdpEvent): string | undefined {
    const paused = event.params as unknown as PausedRequest;
    const atResponse = paused.responseStatusCode !== undefined || paused.responseErrorReason !== undefined;
    return atResponse ? this.onResponse(paused, event.sessionId) : this.onRequest(paused, event.sessionId);
  }

  private onRequest(paused: PausedRequest, sessionId: string | undefined): string | undefined {
    const decision = this.gate.decide({ url: paused.request.url }, 'read');
    if (decision.allowed) return undefined;
    return this.refuse(paused, sessionId, {
      decision,
      url: paused.request.url,
      redirect: paused.redirectedRequestId !== undefined,
      kind: 'navigation',
    });
  }

  private onResponse(paused: PausedRequest, sessionId: string | undefined): string | undefined {
    const policy = this.gate.current();
    if (policy.downloads || !isDownloadResponse(paused.responseStatusCode ?? 0, paused.responseHeaders ?? []))
      return undefined;
    const decision = evaluateDownload([paused.request.url], policy);
    if (decision.allowed) return undefined;
    // Failed before the body is read: the browser never learns of a download, so nothing is written anywhere.
    return this.refuse(paused, sessionId, { decision, url: paused.request.url, redirect: false, kind: 'download' });
  }

  /** The opener's side of a popup: nothing to hold here (the popup is a tab of its own), only what to tell the act. */
  private onWindowOpen(url: string, sessionId: string | undefined): void {
    // window.open() with no URL, or about:blank: an empty window, which the page may fill or navigate later.
    if (url === '' || siteOf(url).kind === 'inherits') return;
    const decision = this.gate.decide({ url }, 'read');
    if (decision.allowed) return;
    this.record({ decision, url, redirect: false, mainFrame: sessionId === undefined, kind: 'popup' });
  }

  /** A download that got past the response stage (a blob: or data: URL, a same-site `<a download>`) and was cancelled. */
  private onDownloadProgress(guid: string, state: string, sessionId: string | undefined): void {
    const download = this.unwanted.get(guid);
    if (!download || state === 'inProgress') return;
    this.unwanted.delete(guid);
    if (state !== 'canceled') return;
    const decision = evaluateDownload([download.url], this.gate.current());
    if (decision.allowed) return;
    this.record({
      decision,
      url: download.url,
      redirect: false,
      mainFrame: this.isMainFrame(download.frameId, sessionId),
      kind: 'download',
    });
  }

  /** Notes the refusal; the chain fails the request with the reason returned. */
  private refuse(
    paused: PausedRequest,
    sessionId: string | undefined,
    refusal: Omit<RefusedNavigation, 'mainFrame'>,
  ): string {
    const mainFrame = this.isMainFrame(paused.frameId, sessionId);
    this.record({ ...refusal, mainFrame });
    // Aborted leaves the tab on the page it had (no error page commits); a refused iframe shows the browser's "blocked".
    return mainFrame ? 'Aborted' : 'BlockedByClient';
  }

  private record(refusal: RefusedNavigation): void {
    this.refusals.push({ seq: ++this.seq, refusal });
    if (this.refusals.length > KEPT_REFUSALS) this.refusals.shift();
    if (refusal.mainFrame && refusal.kind !== 'popup') for (const listener of this.listeners) listener(refusal);
  }
}

/** A navigation the policy stopped, worded from what started it ("navigate to …", "clicked …, but the navigation it started"). */
export function refusedNavigationError(refused: RefusedNavigation, started: string): ToolError {
  const error = policyError(refused.decision);
  const site = refused.decision.site;
  const what = {
    navigation: `${refused.redirect ? ` (redirected to ${site})` : ''} was stopped before any request reached ${site}`,
    download: ` was a download from ${site}, stopped before anything was saved`,
    popup: ` (a new window at ${site}) was refused`,
  }[refused.kind];
  return error.reworded(`${started}${what}: ${error.message}`);
}
