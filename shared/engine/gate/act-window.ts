// One act's stretch of the gate on risky acts: from just before its input goes out until it settles (plus a short tail),
// every write the tab makes is judged by the DOM (what the act activated) and by the request itself, and one that sends
// something as the person is held (failed in the browser at once and kept as a record to be sent again: nothing stays
// paused for a detach to let go); the act then fails with HELD and a card for the person.
import type { ActFlush } from '../act-flush.js';
import { withDeadline } from '../deadline.js';
import { shownUrl } from '../egress-report.js';
import type { Frame } from '../frames.js';
import type { Activated, InputWindow } from '../input.js';
import type { ControlVerdict } from '../page/commit-control.js';
import type { PageContext } from '../page-context.js';
import type { DocumentPlace } from '../policy-gate.js';
import { callOnElement } from '../targets.js';
import { ToolError } from '../../protocol/errors.js';
import type { Operation } from '../../protocol/operations.js';
import { toolOf } from '../../tools/catalog.js';
import { commitsOf } from '../../tools/define.js';
import { fingerprint, lastName, summarize, whyHeld, type HeldCard, type HeldSend } from './card.js';
import type { HeldActs } from './held-acts.js';
import { bodyText, contentType, resendBody } from './paused-body.js';
import { readBody, type SentBody } from './request-body.js';
import { documentOf } from './replay.js';
import { isWrite, requestSends, roughlySameSite } from './risk.js';
import { StartedWrites } from './started-writes.js';
import { TabGate, type PausedSend } from './tab-gate.js';

/** Where a held request is sent again from, if released. */
interface Sender {
  sessionId: string | undefined;
  frameId: string | undefined;
}

interface Judged {
  paused: PausedSend;
  sender: Sender;
  send: HeldSend;
  /** The request's own method, endpoint or operation names a send (the DOM alone may say so of an analytics call). */
  bySelf: boolean;
  /** Its frame's document, asked for as it was held: a release checks the frame still shows that one. */
  loader: Promise<string | undefined>;
}

// A control whose words say it sends is given up to this long for its request to start (a handler that validates
// first, a timer). Bounded, and only for such a control, so an act that sends nothing stays as fast as it was; a send
// the page starts later, or from a timer behind a control that does not say it sends, is not held.
const TAIL_MS = 400;
// The act's round trip, then each write it started reaching the interceptor (a large body takes a while), is waited
// for this long at most: a renderer busy in a script answers no round trip, and a request a service worker answers may
// end without a pause telling us.
const REACH_MS = 3_000;

/** The gate's side of one act, opened by the executor around it; the tab's input (input.ts) reaches it. */
export class ActWindow implements InputWindow {
  /** Where the act happens; its site decides whether anything is judged (not on a trusted one). */
  private place: DocumentPlace;
  private frame: Frame | undefined;
  /** Undefined until the op names what it activates (or sends input without naming it). */
  private exempt: boolean | undefined;
  private verdict: Promise<ControlVerdict | null> = Promise.resolve(null);
  private armed: Promise<void> | undefined;
  private judging = false;
  private stopJudging: (() => void) | undefined;
  private readonly pending = new Set<Promise<void>>();
  private readonly held: Judged[] = [];
  private finished: Promise<void> | undefined;
  private closed = false;
  private readonly wrote = signal();
  /** Made as judging starts: a trusted act follows no writes. */
  private started: StartedWrites | undefined;
  private readonly unsubscribe: () => void;
  private readonly leave: () => void;

  private constructor(
    private readonly page: PageContext,
    private readonly op: Operation,
    private readonly acts: HeldActs,
    private readonly main: DocumentPlace,
  ) {
    this.place = main;
    this.unsubscribe = page.cdp.on((event) => {
      // The act led to a new page: what that page sends on its own is not the act's.
      if (event.method !== 'Page.frameNavigated' || event.sessionId !== undefined) return;
      if ((event.params['frame'] as { parentId?: string }).parentId !== undefined) return;
      this.judging = false;
      this.wrote.resolve();
    });
    // The tab's input finds this window from here on: every event it sends waits for beforeInput.
    this.leave = page.input.enter(this);
  }

  /**
   * A window for an act that may send (undefined for one that cannot: hover, scroll, type without Enter). On a top
   * page that is not trusted the tab is widened at once, while the op finds its target.
   */
  static async open(
    tab: { page: PageContext; hostId: string },
    op: Operation,
    args: Record<string, unknown>,
    acts: HeldActs,
  ): Promise<ActWindow | undefined> {
    if (!mayCommit(op, args)) return undefined;
    const { page } = tab;
    const window = new ActWindow(page, op, acts, await page.frames.mainFrameUrl());
    if (!page.gate.allows(window.place, 'trusted')) window.arm();
    return window;
  }

  note(activated: Activated): void {
    const frame = 'handle' in activated ? activated.handle.frame : activated.frame;
    this.frame = frame;
    this.place = frame ? this.page.frames.placeOf(frame) : this.main;
    this.exempt = this.page.gate.allows(this.place, 'trusted');
    if (this.exempt) return;
    this.arm();
    const read = 'handle' in activated && activated.verdict ? Promise.resolve(activated.verdict) : this.read(activated);
    this.verdict = read.catch(() => null);
  }

  judges(frame: Frame): boolean {
    return !this.page.gate.allows(this.page.frames.placeOf(frame), 'trusted');
  }

  async beforeInput(): Promise<void> {
    if (this.exempt === undefined) this.note({});
    if (this.exempt) return;
    // A tab that could not be widened throws here: no input goes out unjudged.
    await this.armed;
    await this.verdict;
    this.judging = true;
    this.started ??= new StartedWrites(this.page.cdp);
    this.started.count();
    this.stopJudging ??= TabGate.of(this.page).judgeWith((paused, sessionId) => this.judge(paused, sessionId));
  }

  /**
   * After the act (its input answered): the tail, then HELD (with the card) when a send was held; safe to call again,
   * answering the same. `flush`: the act's round trip through the renderer, shared with the url watch.
   */
  finish(flush: ActFlush, actText?: string): Promise<void> {
    this.finished ??= this.settle(flush, actText);
    return this.finished;
  }

  close(): void {
    this.closed = true;
    this.judging = false;
    this.stopJudging?.();
    this.started?.stop();
    this.unsubscribe();
    this.leave();
    if (this.armed) TabGate.of(this.page).disarm();
  }

  private arm(): void {
    if (this.armed) return;
    this.armed = TabGate.of(this.page).arm();
    // Awaited before input; an act that fails before then must not leave a rejection unhandled.
    this.armed.catch(() => undefined);
  }

  private async read(activated: Activated): Promise<ControlVerdict> {
    if ('handle' in activated) return callOnElement(this.page, activated.handle, 'controlVerdict');
    const frame = activated.frame ?? (await this.page.frames.mainFrame());
    this.frame = frame;
    const { point } = activated;
    return point
      ? this.page.frames.call(frame, 'controlVerdictAt', [point.x, point.y])
      : this.page.frames.call(frame, 'controlVerdict', [null]);
  }

  /** Takes every write made while the act judges; anything else goes on as the tab's defaults say. */
  private judge(paused: PausedSend, sessionId: string | undefined): boolean {
    if (!this.judging) return false;
    const { method, url, headers } = paused.request;
    const body = readBody(contentType(headers), bodyText(paused.request));
    if (!isWrite(method, body)) return false;
    const document = paused.resourceType === 'Document';
    // A form post to a site the policy refuses is the guard's to refuse, and the act's result says so.
    if (document && !this.page.gate.allows({ url }, 'read')) return false;
    this.wrote.resolve();
    const weighed = this.weigh(paused, sessionId, body, document);
    this.pending.add(weighed);
    return true;
  }

  private async weigh(
    paused: PausedSend,
    sessionId: string | undefined,
    body: SentBody,
    document: boolean,
  ): Promise<void> {
    const { method, url } = paused.request;
    const verdict = await this.verdict;
    const reasons: string[] = [];
    // "Not from a label alone": the control's words count for a write it makes, and only for a form it posts or a
    // request to its own site after a click or key (a third party's analytics call and a beacon are not its send).
    const domCounts =
      document ||
      (toolOf(this.op)?.activatesControl === true &&
        paused.resourceType !== 'Ping' &&
        roughlySameSite(url, this.place.origin ?? this.place.url));
    if (verdict?.sends && domCounts)
      reasons.push(
        verdict.sends === 'payment fields' ? 'its form holds payment fields' : `its name says ${verdict.sends}`,
      );
    const said = requestSends(method, url, body);
    if (said) reasons.push(said);
    const answer = (command: string, params: Record<string, unknown> = {}) =>
      void this.page.cdp.send(command, { requestId: paused.requestId, ...params }, sessionId).catch(() => undefined);
    // Not a send: it goes on as if the act had not looked at it (a document to the policy, a subresource to the routes).
    if (reasons.length === 0)
      return this.page.frames.navigation.judge({
        method: 'Fetch.requestPaused',
        params: paused as unknown as Record<string, unknown>,
        ...(sessionId === undefined ? {} : { sessionId }),
      });
    // Judged after its act ended (which finish() prevents): nobody would ever see its card, so it never goes out.
    if (this.closed) return answer('Fetch.failRequest', { errorReason: 'BlockedByClient' });
    // Nothing held waits paused: a detach (the debugging bar's Cancel, a reload of the extension, a closed tab) lets
    // every paused request go (measured, Chromium 156), and a frame's pending navigation would keep the tab from
    // answering us. It is failed here (Aborted commits no error page) and a release sends its record again.
    answer('Fetch.failRequest', { errorReason: document ? 'Aborted' : 'BlockedByClient' });
    const sender = await this.senderOf(paused, sessionId);
    const loader = documentOf(this.page, sender.sessionId, sender.frameId);
    const send = { method, url, document, body, reasons };
    this.held.push({ paused, sender, bySelf: said !== undefined, send, loader });
  }

  /**
   * A request of one of the site's workers that no tab owns (tab-gate.ts) came from no frame of the tab: released, it
   * is sent from the act's frame, which handed it to the worker.
   */
  private async senderOf(paused: PausedSend, sessionId: string | undefined): Promise<Sender> {
    if (!TabGate.of(this.page).isWorker(sessionId)) return { sessionId, frameId: paused.frameId };
    const frame = this.frame ?? (await this.page.frames.mainFrame());
    return { sessionId: frame.sessionId, frameId: frame.frameId };
  }

  private async settle(flush: ActFlush, actText: string | undefined): Promise<void> {
    // Nothing was judged: the act failed before its input went out, or its site is trusted.
    if (this.stopJudging === undefined) return;
    await this.tail(flush);
    this.judging = false;
    this.stopJudging?.();
    await Promise.all(this.pending);
    if (this.held.length > 0) throw await this.heldError(actText);
  }

  /**
   * What the act's own handlers sent (a fetch in a click handler, after its microtasks) reaches the interceptor on
   * another channel than our commands, and may come well after them (a large body). The renderer tells each request as
   * it starts on the channel our commands answer on, so one round trip through it after the input makes every write
   * the act started known, and each is waited for until it is paused (started-writes.ts). Not a turn of the page's
   * event loop: after input a renderer runs no task (a timer, a message) before its next frame, 15-50 ms in a
   * background tab (measured, Chromium 156), which every act would pay. The url watch's round trip on the same session,
   * made after the same input, is that round trip.
   */
  private async tail(flush: ActFlush): Promise<void> {
    // Writes are counted until the round trip answers, then each is waited for; bounded, as a renderer busy in a script
    // answers nothing (and what it starts meanwhile is judged while the bound lasts).
    const reached = async () => {
      await flush.through(this.frame?.sessionId);
      if (this.judging) await this.started?.reached();
    };
    await withDeadline(reached(), REACH_MS, () => undefined);
    if (!this.judging || this.held.length > 0 || !(await this.verdict)?.sends) return;
    await withDeadline(this.wrote.promise, TAIL_MS, () => undefined);
  }

  private async heldError(actText: string | undefined): Promise<ToolError> {
    // The request's own word first: the card leads with the send itself rather than a call the click also made.
    const held = [...this.held.filter((judged) => judged.bySelf), ...this.held.filter((judged) => !judged.bySelf)];
    const sends = held.map((judged) => judged.send);
    const verdict = await this.verdict;
    const names = new Set(verdict?.secretNames);
    const prints = new Set(verdict?.secretPrints);
    // Not knowing the page's secrets (its verdict could not be read), the card shows every value by its length only.
    const summary = summarize(
      sends,
      (name, value) => !verdict || names.has(name) || names.has(lastName(name)) || prints.has(fingerprint(value)),
    );
    const first = sends[0]!;
    const id = this.acts.add(
      this.page,
      held.map(({ paused, sender, send }) => ({
        ...sender,
        method: send.method,
        url: send.url,
        headers: paused.request.headers,
        document: send.document,
        ...resendBody(paused.request),
      })),
      Promise.all(held.map((judged) => judged.loader)),
    );
    const card: HeldCard = {
      id,
      site: this.page.gate.decide(this.place, 'trusted').site,
      method: first.method,
      url: shownUrl(first.url),
      summary,
      why: whyHeld(verdict?.control, this.place.url, sends),
      tool: this.op,
    };
    const what = `${first.method} ${card.url}${sends.length > 1 ? ` and ${sends.length - 1} more` : ''}`;
    return new ToolError(
      'HELD',
      `${actText ?? `the ${this.op} happened`}; what it would send waits for the person's confirmation: ${what} (held as ${id}).`,
      {
        data: { held: card },
      },
    );
  }
}

// Acts whose input may commit a send: the tool's `commits` trait (shared/tools) says which, and for which arguments.
function mayCommit(op: Operation, args: Record<string, unknown>): boolean {
  const tool = toolOf(op);
  return tool !== undefined && commitsOf(tool, args);
}

function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}
