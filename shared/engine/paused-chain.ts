// One answer per paused request of a session: every guard on a tab's CDP handle joins the handle's own chain, in the
// order they came, and a request goes on only once every guard let it, so a verdict one guard waits for is never
// overtaken.
import type { Cdp, CdpEvent } from './cdp.js';

/** One guard's part in the chain (navigation-guard.ts). */
export interface Link {
  /** Its interceptors, latest first: true when one took the request, to answer it or hand it `onward` later. */
  intercept(event: CdpEvent): boolean;
  /** Its word on a document request every interceptor left: the reason to fail it with, or undefined to let it go. */
  rule(event: CdpEvent): string | undefined;
  /** Its router took a subresource request every interceptor left, and answers it. */
  route(event: CdpEvent): boolean;
}

interface Paused {
  requestId: string;
  resourceType: string;
}

/**
 * The fallback's host guards a popup in its session before the engine's own guard comes there (cdp-tab-host.ts): with
 * two guards answering on their own, the engine's let a request go while the host's still waited to hear whether the
 * agent's script started it (popup-trail.ts). Here a request the host's guard took reaches the engine's guard only once
 * the host's let it go; one it holds is failed by it alone.
 */
export class PausedChain {
  private links: Link[] = [];
  private unsubscribe: (() => void) | undefined;

  /** `cdp`: the handle whose chain this is, made with it (cdp.ts), which it answers through. */
  constructor(private readonly cdp: Pick<Cdp, 'send' | 'on'>) {}

  /** `link` judges every paused request of the handle from now on, after those joined before it; returns the leave. */
  join(link: Link): () => void {
    this.links = [...this.links, link];
    this.unsubscribe ??= this.cdp.on((event) => {
      if (event.method === 'Fetch.requestPaused') this.from(event, this.links);
    });
    return () => {
      this.links = this.links.filter((each) => each !== link);
      if (this.links.length > 0) return;
      this.unsubscribe?.();
      this.unsubscribe = undefined;
    };
  }

  /**
   * `link` took the request and lets it go now: the guards after it judge it next. A link that left meanwhile had its
   * place forgotten: then every guard judges it again, rather than any being skipped.
   */
  onward(event: CdpEvent, link: Link): void {
    this.from(event, this.links.slice(this.links.indexOf(link) + 1));
  }

  private from(event: CdpEvent, links: readonly Link[]): void {
    for (const link of links) if (link.intercept(event)) return;
    const paused = event.params as unknown as Paused;
    // A page's own subresource goes on as it was unless the agent routed it; every guard rules on a document (each
    // notes its own refusals), and any refusal stands.
    if (paused.resourceType !== 'Document') {
      if (this.links.some((each) => each.route(event))) return;
      return this.answer(event, 'Fetch.continueRequest');
    }
    const reasons = this.links.map((each) => each.rule(event));
    const errorReason = reasons.find((reason) => reason !== undefined);
    if (errorReason === undefined) return this.answer(event, 'Fetch.continueRequest');
    this.answer(event, 'Fetch.failRequest', { errorReason });
  }

  private answer(event: CdpEvent, method: string, params: Record<string, unknown> = {}): void {
    const { requestId } = event.params as unknown as Paused;
    void this.cdp.send(method, { requestId, ...params }, event.sessionId).catch(() => undefined);
  }
}
