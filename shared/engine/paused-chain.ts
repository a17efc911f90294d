// One answer per paused request of a session: every guard on a tab's CDP handle joins the handle's own chain, in the
// order they came, and a request goes on only once every guard let it, so a verdict one guard waits for is never
// overtaken; and what the handle's sessions paused and nobody answered yet is failed, not sent, as the engine lets go.
import type { Cdp, CdpEvent } from './cdp.js';
import { withDeadline } from './deadline.js';
import type { Send } from './egress-ledger.js';
import { keepNewest } from './keep-newest.js';

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
  request: { url: string; method: string };
}

/** A paused request no command answered yet. */
interface Unanswered {
  sessionId: string | undefined;
  requestId: string;
  document: boolean;
  send: Send;
}

// Every command that answers a paused request (Fetch domain); the extension's paused record counts by it too.
export const FETCH_ANSWERS = new Set([
  'Fetch.continueRequest',
  'Fetch.failRequest',
  'Fetch.fulfillRequest',
  'Fetch.continueWithAuth',
  'Fetch.continueResponse',
]);
// Pauses nothing new: a Fetch.enable with it leaves what is paused paused until answered (measured, Chromium 156).
const NOTHING = { patterns: [{ urlPattern: 'chrome-mcp-pauses-nothing:*', requestStage: 'Request' }] };
// A hung renderer may hold the narrowing's answer: what is known paused is failed then anyway.
const NARROW_MS = 3_000;
// The most unanswered requests kept: one the page cancelled while paused is never answered, and must not stay forever.
const KEPT = 500;

/**
 * The fallback's host guards a popup in its session before the engine's own guard comes there (cdp-tab-host.ts): with
 * two guards answering on their own, the engine's let a request go while the host's still waited to hear whether the
 * agent's script started it (popup-trail.ts). Here a request the host's guard took reaches the engine's guard only once
 * the host's let it go; one it holds is failed by it alone.
 */
export class PausedChain {
  private links: Link[] = [];
  private unsubscribe: (() => void) | undefined;
  /** Per `session:requestId`, what the handle's sessions paused and no command answered yet. */
  private readonly unanswered = new Map<string, Unanswered>();
  /** Sessions being let go (`letGo`): what they pause meanwhile stays paused, to be failed with the rest. */
  private readonly leaving = new Set<string | undefined>();

  /**
   * `cdp`: the handle whose chain this is, made with it (cdp.ts), which it answers through. The handle tells the chain
   * of every command it sends (`sent`), so the chain knows what is still paused without any guard remembering it.
   */
  constructor(private readonly cdp: Pick<Cdp, 'send' | 'on'>) {}

  /** `link` judges every paused request of the handle from now on, after those joined before it; returns the leave. */
  join(link: Link): () => void {
    this.links = [...this.links, link];
    this.listen();
    return () => {
      this.links = this.links.filter((each) => each !== link);
      this.quiet();
    };
  }

  /** A command the handle sends (`sessionId` undefined: the tab's own session): an answer takes its request off the record. */
  sent(method: string, params: Record<string, unknown> | undefined, sessionId: string | undefined): void {
    if (FETCH_ANSWERS.has(method)) this.unanswered.delete(key(sessionId, String(params?.['requestId'])));
  }

  /**
   * The engine lets go of `sessionIds`: Chrome sends every request Fetch still holds once it is disabled (or the session
   * detaches), so each one paused there and not answered yet is failed first, then Fetch is disabled. The sessions are
   * first told to pause nothing new, which the browser answers after telling every pause before it: so none paused in
   * between is let go by the disable. Answers what was failed; never rejects.
   */
  async letGo(sessionIds: readonly (string | undefined)[]): Promise<Send[]> {
    for (const sessionId of sessionIds) this.leaving.add(sessionId);
    this.listen();
    try {
      const narrowed = sessionIds.map((sessionId) => this.cdp.send('Fetch.enable', NOTHING, sessionId).catch(() => 0));
      await withDeadline(Promise.all(narrowed), NARROW_MS, () => []);
      const left = [...this.unanswered.values()].filter((each) => this.leaving.has(each.sessionId));
      const failed = await Promise.all(left.map((each) => this.fail(each)));
      await Promise.all(sessionIds.map((sessionId) => this.cdp.send('Fetch.disable', {}, sessionId).catch(() => 0)));
      return failed.filter((send) => send !== undefined);
    } finally {
      for (const sessionId of sessionIds) this.leaving.delete(sessionId);
      this.quiet();
    }
  }

  /**
   * `link` took the request and lets it go now: the guards after it judge it next. A link that left meanwhile had its
   * place forgotten: then every guard judges it again, rather than any being skipped.
   */
  onward(event: CdpEvent, link: Link): void {
    this.from(event, this.links.slice(this.links.indexOf(link) + 1));
  }

  private listen(): void {
    this.unsubscribe ??= this.cdp.on((event) => {
      if (event.method !== 'Fetch.requestPaused') return;
      this.record(event);
      // A session being let go judges nothing more: what it paused is failed with the rest.
      if (!this.leaving.has(event.sessionId)) this.from(event, this.links);
    });
  }

  /** Stops listening once no guard is joined and no session is being let go. */
  private quiet(): void {
    if (this.links.length > 0 || this.leaving.size > 0) return;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.unanswered.clear();
  }

  private record(event: CdpEvent): void {
    const paused = event.params as unknown as Paused;
    const { sessionId } = event;
    const document = paused.resourceType === 'Document';
    const { method, url } = paused.request;
    const send = { method, url, kind: document ? 'navigation' : paused.resourceType };
    this.unanswered.set(key(sessionId, paused.requestId), { sessionId, requestId: paused.requestId, document, send });
    // One is added at a time: dropping the oldest keeps the bound, with no walk over the rest per pause.
    keepNewest(this.unanswered, KEPT);
  }

  /** Fails one request left paused; answers it when the browser took the failure (it was still paused). */
  private async fail({ sessionId, requestId, document, send }: Unanswered): Promise<Send | undefined> {
    // Aborted leaves a frame on the page it had; a subresource fails as a network error would.
    const errorReason = document ? 'Aborted' : 'BlockedByClient';
    return this.cdp.send('Fetch.failRequest', { requestId, errorReason }, sessionId).then(
      () => send,
      () => undefined,
    );
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

function key(sessionId: string | undefined, requestId: string): string {
  return `${sessionId ?? ''}:${requestId}`;
}
