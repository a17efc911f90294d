// The risky requests an engine session holds for the person, by card id. Each was failed in the browser as it was held
// and is kept here as a record: a release sends the record again from its page once that page's signature (the same
// frames, the same documents, a site that may still be acted on) is checked again; a rejection, 10 undecided minutes,
// a page that changes, a detach or a closed tab drop it, and nothing was ever left in the browser to go out.
import type { CdpEvent } from '../cdp.js';
import { shownUrl } from '../egress-report.js';
import type { Frame } from '../frames.js';
import type { PageContext } from '../page-context.js';
import { policyError } from '../../protocol/policy-error.js';
import { ToolError } from '../../protocol/errors.js';
import type { OperationResult } from '../../protocol/operations.js';
import { documentOf, sendAgain, type HeldRecord } from './replay.js';
import { keepNewest } from '../keep-newest.js';

export type { HeldRecord } from './replay.js';

interface HeldAct {
  page: PageContext;
  requests: HeldRecord[];
  /** Each request's frame's document (loader id) as it was held: the page signature a release checks again. */
  documents: Promise<(string | undefined)[]>;
  timer: ReturnType<typeof setTimeout>;
  stopWatching: () => void;
}

const UNDECIDED_MS = 10 * 60_000;
// What became of past ids, so a late decision is told why; a long session must not grow it without bound.
const KEPT_OUTCOMES = 100;
const PAGE_CHANGED = 'its page changed (navigated, reloaded or closed)';

export class HeldActs {
  private next = 1;
  private readonly live = new Map<string, HeldAct>();
  private readonly outcomes = new Map<string, string>();
  /** Acts whose release checks the page now, each with why it went meanwhile (undefined while it has not). */
  private readonly checking = new Map<string, string | undefined>();

  /** `tag`: the engine session's tab tag, which starts every id, so an id from an earlier session is told apart. */
  constructor(private readonly tag: string) {}

  /**
   * Holds `requests` (failed in the browser already) as one act, released or rejected together; answers its id.
   * `documents`: each request's frame's document (loader id) as it was held.
   */
  add(page: PageContext, requests: HeldRecord[], documents: Promise<(string | undefined)[]>): string {
    const id = `${this.tag}.h${this.next++}`;
    const frames = new Set(requests.map((request) => request.frameId).filter((frameId) => frameId !== undefined));
    const sessions = new Set(
      requests.map((request) => request.sessionId).filter((sessionId) => sessionId !== undefined),
    );
    // The held request is the page's state: once its frame commits another document (a navigation, a reload) or goes
    // away, the page the person would confirm is not the one that made it.
    const stopWatching = page.cdp.on((event: CdpEvent) => {
      const { method, params } = event;
      const frameId = method === 'Page.frameNavigated' ? (params['frame'] as { id: string }).id : params['frameId'];
      const pageChanged = method === 'Page.frameNavigated' || method === 'Page.frameDetached';
      if (pageChanged && frames.has(String(frameId))) this.end(id, PAGE_CHANGED);
      else if (method === 'Target.detachedFromTarget' && sessions.has(String(params['sessionId']))) {
        this.end(id, 'its frame went away');
      } else if (method === 'Inspector.detached') this.end(id, 'its tab closed or the debugger let go of it');
    });
    const timer = setTimeout(() => this.end(id, 'nobody decided within 10 minutes, so it was rejected'), UNDECIDED_MS);
    this.live.set(id, { page, requests, documents, timer, stopWatching });
    return id;
  }

  /** The person's decision: the held requests are sent again as they were, or never. */
  async decide(id: string, release: boolean): Promise<OperationResult> {
    const act = this.live.get(id);
    if (!act || this.checking.has(id)) throw this.goneError(id);
    const [first] = act.requests;
    const what = `${first!.method} ${shownUrl(first!.url)}${act.requests.length > 1 ? ` (and ${act.requests.length - 1} more held with it)` : ''}`;
    if (!release) {
      this.end(id, 'the person rejected it');
      return { text: `rejected: ${what}`, data: { released: false } };
    }
    const frames = await this.checked(id, act);
    const sent = await Promise.allSettled(
      act.requests.map((request, index) => sendAgain(act.page, frames[index]!, request)),
    );
    // Gone only when none of them left; one held with others that failed is named, and the release stands.
    if (sent.every((outcome) => outcome.status === 'rejected')) {
      this.remember(id, `the browser did not send it (${messageOf((sent[0] as PromiseRejectedResult).reason)})`);
      throw this.goneError(id);
    }
    this.remember(id, 'it was released');
    const notes = sent
      .map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : messageOf(outcome.reason)))
      .filter((note) => note !== undefined);
    return { text: `released: ${what}${notes.length > 0 ? `; ${notes.join('; ')}` : ''}`, data: { released: true } };
  }

  /**
   * The release's check of the page signature, still watching the act: a page that changes, a detach or a session that
   * ends meanwhile makes it gone, never sent. Answers the frames to send from; it is no longer held either way.
   */
  private async checked(id: string, act: HeldAct): Promise<Frame[]> {
    // Taken before anything is awaited: a second decision arriving meanwhile finds it gone, never sends it twice.
    this.checking.set(id, undefined);
    this.remember(id, 'it was being released');
    try {
      const frames = await this.signatureHolds(act).catch((error: unknown) => {
        const refused = error instanceof ToolError && error.code !== 'NOT_FOUND';
        this.remember(
          id,
          refused ? 'the policy refuses it now' : error instanceof ToolError ? error.message : PAGE_CHANGED,
        );
        throw refused ? error : this.goneError(id);
      });
      const gone = this.checking.get(id);
      if (gone !== undefined) {
        this.remember(id, gone);
        throw this.goneError(id);
      }
      return frames;
    } finally {
      this.checking.delete(id);
      this.forget(id);
    }
  }

  /** Rejects everything still held: a session that ends leaves no held act for a later one to send. */
  dispose(): void {
    for (const id of [...this.live.keys()]) this.end(id, 'the browser session ended');
  }

  /**
   * The page signature, checked again: each request's frame is there with the document it was held in, and its site
   * may still be acted on (a form post's destination still read). Answers the frames to send from; throws NOT_FOUND
   * (the message is why) when the page changed, and the policy's refusal when the site may no longer be acted on.
   */
  private async signatureHolds(act: HeldAct): Promise<Frame[]> {
    if (act.requests.some((request) => !request.whole)) {
      throw new ToolError(
        'NOT_FOUND',
        'the browser did not hand over all of its body (a file upload), so it cannot be sent again',
      );
    }
    if (act.requests.some((request) => request.frameId === undefined)) {
      throw new ToolError('NOT_FOUND', 'it came from no frame of the page (a worker), which cannot send it again');
    }
    const [then, now, listed] = await Promise.all([
      act.documents,
      Promise.all(act.requests.map((request) => documentOf(act.page, request.sessionId, request.frameId))),
      act.page.frames.list(),
    ]);
    const frames = act.requests.map((request, index) => {
      const frame = listed.find((each) => each.frameId === request.frameId);
      if (!frame || now[index] === undefined || now[index] !== then[index])
        throw new ToolError('NOT_FOUND', PAGE_CHANGED);
      return frame;
    });
    for (const [index, frame] of frames.entries()) {
      const request = act.requests[index]!;
      const refused = [
        act.page.gate.decide(act.page.frames.placeOf(frame), 'act'),
        request.document ? act.page.gate.decide({ url: request.url }, 'read') : undefined,
      ].find((decision) => decision?.allowed === false);
      if (refused && !refused.allowed) {
        const error = policyError(refused);
        throw error.reworded(`Not released, and never sent: ${error.message}`);
      }
    }
    return frames;
  }

  /** Drops the act; its requests were failed in the browser when they were held, so nothing is left to go out. */
  private end(id: string, why: string): void {
    // One whose release checks the page goes once the check is over (`checked`), and the first reason stands.
    if (this.checking.has(id)) return void this.checking.set(id, this.checking.get(id) ?? why);
    if (!this.live.has(id)) return;
    this.forget(id);
    this.remember(id, why);
  }

  private forget(id: string): void {
    const act = this.live.get(id);
    if (!act) return;
    clearTimeout(act.timer);
    act.stopWatching();
    this.live.delete(id);
  }

  private remember(id: string, why: string): void {
    this.outcomes.set(id, why);
    keepNewest(this.outcomes, KEPT_OUTCOMES);
  }

  private goneError(id: string): ToolError {
    const next = 'Nothing was sent. If it is still wanted, the agent does the act again and it is held afresh.';
    const why = this.outcomes.get(id);
    if (why !== undefined) return new ToolError('NOT_FOUND', `Held act ${id} is gone: ${why}.`, { next });
    const earlier = !id.startsWith(`${this.tag}.`);
    return new ToolError(
      'NOT_FOUND',
      `No held act ${id}${earlier ? ': it belongs to an earlier browser session, whose held acts were rejected when it ended' : ''}.`,
      { next },
    );
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
