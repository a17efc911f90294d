// The browser's own Fetch interceptor, the last word on a request a tab's session held paused when that session went:
// Chrome lets such a request go on (a keepalive fetch or beacon outlives its page), and here it is failed instead. The
// site's workers a tab's gate borrows pause here too (lent-workers.ts).
import type { CdpEvent } from '../../../shared/engine/cdp.js';
import type { CdpConnection } from './cdp-connection.js';
import type { BrowserInterceptor } from './lent-workers.js';
import { keepNewest } from '../../../shared/engine/keep-newest.js';

interface Paused {
  requestId: string;
  networkId?: string;
  resourceType?: string;
  responseStatusCode?: number;
  responseErrorReason?: string;
}

// Every request of the browser meets this interceptor while widened, after any tab session's (measured on Chromium 156:
// a request a session let go pauses here next, with a new requestId and the same networkId).
const EVERY_REQUEST = { patterns: [{ urlPattern: '*', requestStage: 'Request' }] };
// Until then it stands and pauses nothing: only an interceptor standing before a tab attaches ever reaches that tab's
// requests, and widening it later reaches them all, even one a session holds paused as it widens (measured).
const DORMANT = { patterns: [{ urlPattern: 'chrome-mcp-dormant:*', requestStage: 'Request' }] };
// Pauses whose answer no event tells (a document a guard failed, with Network off): the oldest are dropped past this.
const KEPT_PAUSED = 1_000;
// Requests a gone session let go, not yet paused here: cancelled ones never come, so the list is bounded.
const KEPT_RELEASED = 200;
// How long after its last held send is answered the interceptor stands wide before it goes dormant again. A request a
// gone session let go pauses here at once (measured), so one that has not come by then never will.
const NARROW_AFTER_MS = 5_000;

export class ReleasedPauses implements BrowserInterceptor {
  /** Settles (never rejects) once the browser's interceptor stands; a browser that refuses it is left as it is. */
  readonly ready: Promise<void>;
  /** Per networkId, the session that paused the request and, as far as its events tell, has not answered it yet. */
  private readonly paused = new Map<string, string>();
  /** The networkIds sessions held paused as they went: each is failed once it pauses here. */
  private readonly released = new Set<string>();
  /** Of `paused`, the sends (not documents): while any waits, the interceptor stands wide. */
  private readonly sends = new Set<string>();
  /** The latest widening, settled once it stands; undefined while dormant. */
  private widened: Promise<void> | undefined;
  private narrowing: ReturnType<typeof setTimeout> | undefined;
  /** How many keep it wide (`keepWide`). */
  private keptWide = 0;
  /** Offered every pause first (`takeFirst`). */
  private taker: ((params: Record<string, unknown>) => boolean) | undefined;

  constructor(private readonly connection: CdpConnection) {
    connection.on((event) => this.onEvent(event));
    this.ready = connection.send('Fetch.enable', DORMANT).then(
      () => undefined,
      () => undefined,
    );
  }

  keepWide(): { ready: Promise<void>; release(): void } {
    this.keptWide++;
    const ready = this.widen();
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      if (--this.keptWide === 0 && this.sends.size === 0) this.quietThenNarrow();
    };
    return { ready, release };
  }

  /** Each pause here goes to `take` first: one it takes (true) it answers itself. */
  takeFirst(take: (params: Record<string, unknown>) => boolean): void {
    this.taker = take;
  }

  private onEvent(event: CdpEvent): void {
    const { method, params, sessionId } = event;
    if (method === 'Fetch.requestPaused')
      return sessionId === undefined ? this.judge(params) : this.note(params, sessionId);
    if (method === 'Target.detachedFromTarget') return this.gone(String(params['sessionId']));
    if ((method === 'Network.loadingFailed' || method === 'Network.loadingFinished') && sessionId !== undefined) {
      // The session answered it (Network's requestId is the networkId): no longer its to let go.
      const networkId = String(params['requestId']);
      if (this.paused.get(networkId) === sessionId) this.answered(networkId);
    }
  }

  /** A tab's session paused a request: until it is answered, that session's going would let it out. */
  private note(params: Record<string, unknown>, sessionId: string): void {
    const paused = params as unknown as Paused;
    // A response paused was sent already; what the session let go of then reaches only its page, which is gone.
    if (paused.networkId === undefined || atResponse(paused)) return;
    if (paused.resourceType !== 'Document') {
      void this.widen();
      this.sends.add(paused.networkId);
      keepNewest(this.sends, KEPT_PAUSED);
    }
    this.paused.delete(paused.networkId);
    this.paused.set(paused.networkId, sessionId);
    keepNewest(this.paused, KEPT_PAUSED);
  }

  /** A session's pause is answered: it is the session's to let go no longer; the last send answered starts the quiet. */
  private answered(networkId: string): void {
    this.paused.delete(networkId);
    if (this.sends.delete(networkId) && this.sends.size === 0) this.quietThenNarrow();
  }

  /**
   * A session pauses sends (an agent's script ran, an act is under way): every request is met here until a quiet. Sent
   * before the engine answers this pause, on the same connection, so the widening stands before the session lets it go.
   * Until then the person's browsing pays nothing: documents alone a session's going takes with it.
   */
  private widen(): Promise<void> {
    clearTimeout(this.narrowing);
    this.narrowing = undefined;
    this.widened ??= this.connection.send('Fetch.enable', EVERY_REQUEST).then(
      () => undefined,
      () => undefined,
    );
    return this.widened;
  }

  /**
   * Once no session has held a send for a while, the person's browsing stops meeting the interceptor (measured: going
   * dormant and widening again both take effect at once). A pause whose answer no event told keeps it wide, the safe side.
   */
  private quietThenNarrow(): void {
    clearTimeout(this.narrowing);
    this.narrowing = setTimeout(() => {
      this.narrowing = undefined;
      if (this.sends.size > 0 || this.keptWide > 0 || !this.widened) return;
      this.widened = undefined;
      this.released.clear();
      this.connection.send('Fetch.enable', DORMANT).catch(() => undefined);
    }, NARROW_AFTER_MS);
    this.narrowing.unref?.();
  }

  /**
   * A session went (its tab closed, its frame left its process): what it held paused goes on to this interceptor. The
   * browser tells the detach first (measured), so a request the session let go is known released when it pauses here.
   */
  private gone(sessionId: string): void {
    for (const [networkId, holder] of this.paused) {
      if (holder !== sessionId) continue;
      this.answered(networkId);
      this.released.add(networkId);
      keepNewest(this.released, KEPT_RELEASED);
    }
  }

  /** A request at the browser's interceptor: one a gone session let go is failed; everything else goes on at once. */
  private judge(params: Record<string, unknown>): void {
    if (this.taker?.(params)) return;
    const paused = params as unknown as Paused;
    const networkId = paused.networkId ?? '';
    // A session's request reaches here once the session let it go, as its answer: it is the session's no longer.
    this.answered(networkId);
    const released = this.released.delete(networkId);
    const answer = released
      ? this.connection.send('Fetch.failRequest', { requestId: paused.requestId, errorReason: 'BlockedByClient' })
      : this.connection.send('Fetch.continueRequest', { requestId: paused.requestId });
    answer.catch(() => undefined);
  }
}

function atResponse(paused: Paused): boolean {
  return paused.responseStatusCode !== undefined || paused.responseErrorReason !== undefined;
}
