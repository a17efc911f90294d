// A tab's interception for the gate on risky acts: while an act may send, its sessions pause what a send uses
// (fetch, XHR, sendBeacon, Other; documents are paused by the NavigationGuard always), bypass service workers, and
// tell each request as it starts (Network, for gate/started-writes.ts), and the site's workers that no tab owns pause
// what they send too; each paused request goes to the act's judge, and the guard's documents-only patterns come back
// LINGER_MS after the last act is done.
import type { CdpEvent } from '../cdp.js';
import { egressHeld } from '../egress-hold.js';
import { networkEnableParams } from '../network-log.js';
import type { RequestPattern } from '../navigation-guard.js';
import { frameOrigin } from '../frame.js';
import type { PageContext } from '../page-context.js';
import { TabArming } from '../tab-arming.js';

/** A request as Fetch.requestPaused tells it, at the request stage. */
export interface PausedSend {
  requestId: string;
  frameId?: string;
  resourceType: string;
  request: {
    url: string;
    method: string;
    headers: Record<string, string>;
    postData?: string;
    hasPostData?: boolean;
    postDataEntries?: { bytes?: string }[];
  };
}

/** Takes a paused request (holds it, or answers it later itself) and returns true, or leaves it to the tab's defaults. */
export type Judge = (paused: PausedSend, sessionId: string | undefined) => boolean;

// Request stage only: a send is judged before it leaves, and pausing responses too would slow every read the page makes.
const SEND_PATTERNS: readonly RequestPattern[] = ['XHR', 'Fetch', 'Ping', 'Other'].map((resourceType) => ({
  resourceType,
  requestStage: 'Request',
}));
// Lifting the widened patterns waits no longer than this: a busy session applies them when it is free.
const RESTORE_TIMEOUT_MS = 3_000;
// How long the tab stays widened after an act: each widening is a round trip through the renderer, which an agent's
// next act (a form's fields, then its submit) would otherwise pay again. Meanwhile the page's own sends pause a moment.
export const LINGER_MS = 2_000;

const gates = new WeakMap<PageContext, TabGate>();

/**
 * Each Fetch.enable is a round trip through the renderer (its loaders are updated), so the tab is widened once for
 * however many acts overlap on it or follow within LINGER_MS, and the restore is sent without the act's result waiting
 * for it: commands on a session apply in order, so the next call's own finds the tab as it was.
 */
export class TabGate {
  private readonly judges: Judge[] = [];
  /** Whether the latest arming took (see `disarm`). */
  private widened: Promise<boolean> = Promise.resolve(false);
  /** The share of the widening the last act left, until LINGER_MS after it. */
  private lingering: ReturnType<typeof setTimeout> | undefined;
  /** The workers the host lent for the widening (Cdp.lendWorkers), and how to give them back once it is restored. */
  private readonly workers = new Set<string>();
  private giveBack: (() => void) | undefined;
  /**
   * The widening: active while the tab pauses sends too, not documents only. Its listeners stay until the restore is
   * answered, so no request paused under the wide patterns reaches the guard.
   */
  private readonly arming = new TabArming({
    arm: () => this.widen(),
    restore: (sessions) => {
      this.page.input.gateWidened = false;
      const giveBack = this.giveBack;
      this.giveBack = undefined;
      this.workers.clear();
      // The workers go back once the tab's narrowing is answered: what they pause until then is still judged here.
      return Promise.all(sessions.map((sessionId) => this.narrow(sessionId))).finally(() => giveBack?.());
    },
    hook: () => this.hook(),
    restoreTimeoutMs: RESTORE_TIMEOUT_MS,
  });

  private constructor(private readonly page: PageContext) {}

  static of(page: PageContext): TabGate {
    let gate = gates.get(page);
    if (!gate) {
      gate = new TabGate(page);
      gates.set(page, gate);
    }
    return gate;
  }

  /** Widens every session of the tab; resolves once each pauses sends. Pair each call with one `disarm`. */
  arm(): Promise<void> {
    const joined = this.arming.join();
    this.widened = joined.then(
      () => true,
      () => false,
    );
    return joined;
  }

  /**
   * Back to the guard's own patterns once the last act is done and LINGER_MS passed with no other; a request held stays
   * paused (measured, Chromium 156).
   */
  disarm(): void {
    void this.widened.then((widened) => {
      // One act's share of the widening lingers, so the next act within it finds the tab widened and sends nothing
      // first; at most one share lingers. A widening that failed does not: the next act tries again.
      if (this.lingering) this.endLinger();
      if (!widened) return this.arming.leave();
      this.lingering = setTimeout(() => this.endLinger(), LINGER_MS);
    });
  }

  private endLinger(): void {
    clearTimeout(this.lingering);
    this.lingering = undefined;
    this.arming.leave();
  }

  /** Routes paused requests to `judge` (the latest one registered wins) until the returned function is called. */
  judgeWith(judge: Judge): () => void {
    this.judges.push(judge);
    return () => {
      const index = this.judges.indexOf(judge);
      if (index >= 0) this.judges.splice(index, 1);
    };
  }

  private async widen(): Promise<void> {
    this.page.input.gateWidened = true;
    this.arming.listen();
    const frames = await this.page.frames.list();
    const sessions = new Set(frames.map((frame) => frame.sessionId));
    for (const sessionId of sessions) this.arming.track(sessionId);
    const origins = new Set(frames.map(frameOrigin).filter((origin) => origin !== undefined));
    const [outcomes] = await Promise.all([
      Promise.allSettled([...sessions].map((sessionId) => this.widenSession(sessionId))),
      this.borrowWorkers([...origins]),
    ]);
    // A child frame that went away meanwhile has nothing left to send; the tab's own session must be widened.
    const main = outcomes[[...sessions].indexOf(undefined)];
    if (main?.status === 'rejected') throw main.reason;
  }

  /** A session the host lent: one of the site's workers that no tab owns. */
  isWorker(sessionId: string | undefined): boolean {
    return sessionId !== undefined && this.workers.has(sessionId);
  }

  /**
   * A page may hand its send to its shared worker, or post it to its service worker, whose request leaves from the
   * worker's own target (measured: the Send went out unjudged, Chromium 156): the workers of the tab's origins pause
   * what they send while the tab is widened, those that start meanwhile too. A host that has none lends none.
   */
  private async borrowWorkers(origins: string[]): Promise<void> {
    const { cdp } = this.page;
    if (!cdp.lendWorkers || origins.length === 0) return;
    this.giveBack = await cdp.lendWorkers(origins, (sessionId) => this.workers.add(sessionId));
  }

  private hook(): () => void {
    const stopIntercepting = this.page.frames.navigation.interceptFirst((event) => this.onPaused(event));
    const stopListening = this.page.cdp.on((event) => this.onAttached(event));
    return () => {
      stopIntercepting();
      stopListening();
    };
  }

  /**
   * A request paused while the tab is widened: the act judging now takes it or leaves it. One left over goes on down
   * the guard's chain as any paused request does: the script trail and the egress hold judge it, a document meets the
   * policy, a subresource the agent's routes (network-routes.ts) or goes on untouched.
   */
  private onPaused(event: CdpEvent): boolean {
    const paused = event.params as unknown as PausedSend & {
      responseStatusCode?: number;
      responseErrorReason?: string;
    };
    if (paused.responseStatusCode !== undefined || paused.responseErrorReason !== undefined) return false;
    return this.judges.at(-1)?.(paused, event.sessionId) ?? false;
  }

  /**
   * A frame that moves into its own process while the tab is widened is widened too. The frame registry enabled its
   * documents first and resumes it once that is answered, so a request it makes before ours lands goes unjudged.
   */
  private onAttached(event: CdpEvent): void {
    if (event.method !== 'Target.attachedToTarget' || !this.arming.active) return;
    if ((event.params['targetInfo'] as { type: string }).type !== 'iframe') return;
    const sessionId = String(event.params['sessionId']);
    this.arming.track(sessionId);
    void this.widenSession(sessionId).catch(() => undefined);
  }

  /**
   * Service workers are bypassed while widened: a send a worker of the site fetches again would leave from the
   * worker's own target, which no pattern of the tab's pauses (measured: an SPA's Send went out unjudged).
   */
  private async widenSession(sessionId: string | undefined): Promise<void> {
    const { cdp, frames, network } = this.page;
    await Promise.all([
      frames.navigation.enable(sessionId, SEND_PATTERNS),
      ...(this.networkKept(sessionId) ? [] : [cdp.send('Network.enable', networkEnableParams(network), sessionId)]),
      ...(this.bypassKept(sessionId) ? [] : [cdp.send('Network.setBypassServiceWorker', { bypass: true }, sessionId)]),
    ]);
  }

  private narrow(sessionId: string | undefined): Promise<unknown> {
    const { cdp, frames } = this.page;
    return Promise.all([
      frames.navigation.enable(sessionId),
      ...(this.bypassKept(sessionId) ? [] : [cdp.send('Network.setBypassServiceWorker', { bypass: false }, sessionId)]),
      ...(this.networkKept(sessionId) ? [] : [cdp.send('Network.disable', {}, sessionId)]),
    ]).catch(() => undefined);
  }

  /** Network is on, and stays on, for another layer: the network log, the script trail, an eval's hold. */
  private networkKept(sessionId: string | undefined): boolean {
    return this.page.network.capturing || this.bypassKept(sessionId);
  }

  /** Service workers are bypassed, and stay so, for the script trail or an eval's hold (egress-hold.ts). */
  private bypassKept(sessionId: string | undefined): boolean {
    return this.page.trail.keepsNetwork(sessionId) || egressHeld(this.page);
  }
}
