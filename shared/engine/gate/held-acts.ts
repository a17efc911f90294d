// The risky requests an engine session holds for the person, by card id: released exactly as they are, rejected,
// rejected by themselves after 10 minutes, and gone (never sent) once the page they belong to changes.
import type { CdpEvent } from '../cdp.js';
import { withDeadline } from '../deadline.js';
import { shownUrl } from '../egress-report.js';
import type { PageContext } from '../page-context.js';
import { policyError } from '../../protocol/policy-error.js';
import { ToolError } from '../../protocol/errors.js';
import type { OperationResult } from '../../protocol/operations.js';

/** One held request. */
export interface HeldRequest {
  sessionId: string | undefined;
  requestId: string;
  frameId: string | undefined;
  method: string;
  url: string;
  /**
   * A frame's navigation (a form post), which cannot stay paused (see act-window.ts): it was stopped, and a release
   * sends it again from these, its own headers and body. Absent: a script's request, still paused in the browser.
   */
  resend?: { headers: Record<string, string>; postData?: string; whole: boolean };
}

/** A request held paused in the browser, as a host that may restart keeps it (see EngineOptions.onHeldChange). */
export interface PausedHeld {
  /** The host's id of the tab. */
  tab: string;
  sessionId?: string;
  requestId: string;
}

interface HeldAct {
  page: PageContext;
  tab: string;
  requests: HeldRequest[];
  timer: ReturnType<typeof setTimeout>;
  stopWatching: () => void;
}

const UNDECIDED_MS = 10 * 60_000;
// A resent form post's request shows up at once; past this the frame is busy elsewhere and nothing was sent.
const RESEND_TIMEOUT_MS = 10_000;
// What became of past ids, so a late decision is told why; a long session must not grow it without bound.
const KEPT_OUTCOMES = 100;

export class HeldActs {
  private next = 1;
  private readonly live = new Map<string, HeldAct>();
  private readonly outcomes = new Map<string, string>();

  /**
   * `tag`: the engine session's tab tag, which starts every id, so an id from an earlier session is told apart.
   * `onChange`: hears what stays paused in the browser after every change.
   */
  constructor(
    private readonly tag: string,
    private readonly onChange?: (paused: PausedHeld[]) => void,
  ) {}

  /** Holds `requests` of the tab `tab` (the host's id) as one act, released or rejected together, and answers its id. */
  add(page: PageContext, tab: string, requests: HeldRequest[]): string {
    const id = `${this.tag}.h${this.next++}`;
    const frames = new Set(requests.map((request) => request.frameId).filter((frameId) => frameId !== undefined));
    const sessions = new Set(requests.map((request) => request.sessionId).filter((sessionId) => sessionId !== undefined));
    // The held request is the page's state: once its frame commits another document (a navigation, a reload) or goes
    // away, the page the person would confirm is not the one that made it.
    const stopWatching = page.cdp.on((event: CdpEvent) => {
      const frameId = event.method === 'Page.frameNavigated' ? (event.params['frame'] as { id: string }).id : event.params['frameId'];
      if ((event.method === 'Page.frameNavigated' || event.method === 'Page.frameDetached') && frames.has(String(frameId))) void this.end(id, 'its page changed (navigated, reloaded or closed)');
      else if (event.method === 'Target.detachedFromTarget' && sessions.has(String(event.params['sessionId']))) void this.end(id, 'its frame went away');
      else if (event.method === 'Inspector.detached') void this.end(id, 'its tab closed or the debugger let go of it');
    });
    const timer = setTimeout(() => void this.end(id, 'nobody decided within 10 minutes, so it was rejected'), UNDECIDED_MS);
    this.live.set(id, { page, tab, requests, timer, stopWatching });
    this.changed();
    return id;
  }

  /** The person's decision: the held requests go out unchanged, or never. */
  async decide(id: string, release: boolean): Promise<OperationResult> {
    const act = this.live.get(id);
    if (!act) throw this.goneError(id);
    const [first] = act.requests;
    const what = `${first!.method} ${shownUrl(first!.url)}${act.requests.length > 1 ? ` (and ${act.requests.length - 1} more held with it)` : ''}`;
    if (!release) {
      await this.end(id, 'the person rejected it');
      return { text: `rejected: ${what}`, data: { released: false } };
    }
    if (act.requests.some((request) => request.resend?.whole === false)) {
      await this.end(id, 'it uploads a file, whose bytes the browser does not keep for a second sending');
      throw this.goneError(id);
    }
    // A form post is a navigation: the site it leaves for is judged again, as the policy stands now.
    const refused = act.requests.map((request) => (request.resend ? act.page.gate.decide({ url: request.url }, 'read') : undefined)).find((decision) => decision?.allowed === false);
    if (refused && !refused.allowed) {
      await this.end(id, 'the policy refuses where it goes');
      const error = policyError(refused);
      throw error.reworded(`Not released, and never sent: ${error.message}`);
    }
    this.forget(id);
    const sent = await Promise.allSettled(act.requests.map((request) => (request.resend ? this.resend(act.page, request) : act.page.cdp.send('Fetch.continueRequest', { requestId: request.requestId }, request.sessionId))));
    // The browser drops a paused request whose page navigated or closed ("Invalid InterceptionId"): nothing went out.
    if (sent[0]?.status === 'rejected') {
      this.remember(id, 'the browser no longer had it (its page changed)');
      throw this.goneError(id);
    }
    this.remember(id, 'it was released');
    return { text: `released: ${what}`, data: { released: true } };
  }

  /** Rejects everything still held: a session that ends must not let its tabs send them (Fetch.disable and a detach would). */
  dispose(): void {
    for (const id of [...this.live.keys()]) void this.end(id, 'the browser session ended');
  }

  /**
   * Sends a held form post again as it was: its frame navigates to the same URL, and that request leaves with the held
   * one's method, headers and body (measured: the site receives the same request, but for `Sec-Fetch-Site: none`).
   * The cookie is the one the browser has now, as the site may have renewed it while the person decided.
   */
  private async resend(page: PageContext, request: HeldRequest): Promise<void> {
    const { headers, postData } = request.resend!;
    let answered!: (sent: Promise<unknown>) => void;
    const continued = new Promise<unknown>((resolve) => (answered = resolve));
    const stop = page.frames.navigation.interceptFirst((event) => {
      const paused = event.params as { requestId: string; frameId?: string; resourceType: string; request: { url: string; headers: Record<string, string> }; responseStatusCode?: number };
      if (paused.resourceType !== 'Document' || paused.frameId !== request.frameId || paused.request.url !== request.url || paused.responseStatusCode !== undefined) return false;
      stop();
      const cookie = Object.entries(paused.request.headers).filter(([name]) => name.toLowerCase() === 'cookie');
      const sent = [...Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'cookie'), ...cookie].map(([name, value]) => ({ name, value }));
      const params = { requestId: paused.requestId, method: request.method, headers: sent, ...(postData === undefined ? {} : { postData }) };
      answered(page.cdp.send('Fetch.continueRequest', params, event.sessionId));
      return true;
    });
    try {
      const navigated = page.cdp.send<{ errorText?: string }>('Page.navigate', { url: request.url, ...(request.frameId ? { frameId: request.frameId } : {}) }, request.sessionId);
      // Page.navigate may answer only once the new document commits; the request has left when it is continued.
      const failed = navigated.then((result) => (result.errorText ? Promise.reject(new Error(result.errorText)) : new Promise<never>(() => undefined)));
      // Settled after the race was won, a failure has nobody left to tell.
      failed.catch(() => undefined);
      await withDeadline(Promise.race([continued, failed]), RESEND_TIMEOUT_MS, () => {
        throw new Error('the frame did not start the request');
      });
    } finally {
      stop();
    }
  }

  /** Drops the act and fails what the browser still holds of it (a request whose page changed may be there still); never throws. */
  private async end(id: string, why: string): Promise<void> {
    const act = this.live.get(id);
    if (!act) return;
    this.forget(id);
    this.remember(id, why);
    const paused = act.requests.filter((request) => !request.resend);
    await Promise.all(paused.map((request) => act.page.cdp.send('Fetch.failRequest', { requestId: request.requestId, errorReason: 'BlockedByClient' }, request.sessionId).catch(() => undefined)));
  }

  private forget(id: string): void {
    const act = this.live.get(id);
    if (!act) return;
    clearTimeout(act.timer);
    act.stopWatching();
    this.live.delete(id);
    this.changed();
  }

  private changed(): void {
    if (!this.onChange) return;
    const paused = [...this.live.values()].flatMap(({ tab, requests }) =>
      requests.filter((request) => !request.resend).map(({ sessionId, requestId }) => ({ tab, requestId, ...(sessionId === undefined ? {} : { sessionId }) })),
    );
    this.onChange(paused);
  }

  private remember(id: string, why: string): void {
    this.outcomes.set(id, why);
    if (this.outcomes.size > KEPT_OUTCOMES) this.outcomes.delete(this.outcomes.keys().next().value!);
  }

  private goneError(id: string): ToolError {
    const next = 'Nothing was sent. If it is still wanted, the agent does the act again and it is held afresh.';
    const why = this.outcomes.get(id);
    if (why !== undefined) return new ToolError('NOT_FOUND', `Held act ${id} is gone: ${why}.`, { next });
    const earlier = !id.startsWith(`${this.tag}.`);
    return new ToolError('NOT_FOUND', `No held act ${id}${earlier ? ': it belongs to an earlier browser session, whose held acts were rejected when it ended' : ''}.`, { next });
  }
}
