// A request sent from inside its frame (its own cookies sign it): a released held act sent again from its record (a
// script's request fetched anew, a form post by its frame navigating with the stored request; nothing of it stayed
// paused in the browser while the person decided, so a detach in between had nothing to let go), and the replays and
// API calls of ops/network-replay.ts and ops/api.ts.
import type { CdpEvent } from '../cdp.js';
import { withDeadline } from '../deadline.js';
import type { Frame } from '../frames.js';
import type { PageContext } from '../page-context.js';
import type { Resent } from '../page/resend.js';

/** What the engine keeps of a held request; the card shows the person a masked summary of it. */
export interface HeldRecord {
  sessionId: string | undefined;
  frameId: string | undefined;
  method: string;
  url: string;
  headers: Record<string, string>;
  /** The body as base64 bytes; absent when it had none. */
  postData?: string;
  /** False when the browser did not hand over all of the body (a file a form uploads): it cannot be sent again. */
  whole: boolean;
  /** A frame's navigation (a form post), not a script's request. */
  document: boolean;
}

interface Paused {
  requestId: string;
  frameId?: string;
  resourceType: string;
  request: { url: string; method: string; headers: Record<string, string> };
  responseStatusCode?: number;
  responseErrorReason?: string;
}

// A request sent again shows up at once; past this the frame is busy elsewhere, or the site is slow to answer.
const RESEND_TIMEOUT_MS = 10_000;
// What a page's fetch() may not set, or the browser sets afresh for the new request (cookie, origin, referrer, hints).
const NOT_REPLAYED =
  /^(?:accept-charset|accept-encoding|access-control-.*|connection|content-length|cookie2?|date|dnt|expect|host|keep-alive|origin|referer|te|trailer|transfer-encoding|upgrade|user-agent|via|proxy-.*|sec-.*)$/i;

/** The frame's document now (its loader id), or undefined when the frame is gone: a page signature part. */
export async function documentOf(
  page: PageContext,
  sessionId: string | undefined,
  frameId: string | undefined,
): Promise<string | undefined> {
  interface Tree {
    frame: { id: string; loaderId: string };
    childFrames?: Tree[];
  }
  const tree = await page.cdp.send<{ frameTree: Tree }>('Page.getFrameTree', {}, sessionId).then(
    (answer) => answer.frameTree,
    () => undefined,
  );
  const find = (node: Tree | undefined): string | undefined =>
    node === undefined
      ? undefined
      : node.frame.id === frameId
        ? node.frame.loaderId
        : (node.childFrames ?? []).map(find).find((id) => id !== undefined);
  return find(tree);
}

/** A request to send from inside a frame: headers as captured (what fetch may not set is left out), body as base64. */
export interface FrameRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  postData?: string | undefined;
  /** The browser's cookies go with it cross-origin too (same-origin they always do). */
  cookies: boolean;
}

/**
 * Sends the record again from `frame`; answers a note for the person and the model when the site gave no answer
 * (undefined when it did). Throws when the request never started.
 */
export async function sendAgain(page: PageContext, frame: Frame, record: HeldRecord): Promise<string | undefined> {
  if (record.document) return renavigate(page, record);
  const cookies = Object.keys(record.headers).some((name) => name.toLowerCase() === 'cookie');
  // Another act widening the tab meanwhile would judge this request as one of its own: it is the person's, and goes on
  // as the page's own requests do, the agent's routes included.
  const stop = passOn(page, record);
  try {
    const answer = await fetchInFrame(page, frame, { ...record, cookies }, 0);
    return answer.status === undefined
      ? `the site may not have received it (the browser said: ${answer.error ?? 'nothing'})`
      : undefined;
  } finally {
    stop();
  }
}

/**
 * The request, fetched by `frame` itself in our isolated world: the frame's cookies sign it in the browser, and no
 * credential is read out or built into it here. `maxChars` of the answer come back (0: only its status). Whatever act
 * window is open on the tab judges what it sends, as it judges the page's own requests.
 */
export async function fetchInFrame(
  page: PageContext,
  frame: Frame,
  request: FrameRequest,
  maxChars: number,
): Promise<Resent> {
  const headers = Object.entries(request.headers).filter(([name]) => !NOT_REPLAYED.test(name));
  const resent = page.frames.call(frame, 'resendRequest', [
    request.method,
    request.url,
    headers,
    request.postData ?? null,
    request.cookies,
    maxChars,
  ]);
  return withDeadline(resent, RESEND_TIMEOUT_MS, (): Resent => ({
    error: `no answer within ${RESEND_TIMEOUT_MS / 1000} s`,
  }));
}

function passOn(page: PageContext, record: HeldRecord): () => void {
  const stop = page.frames.navigation.interceptFirst((event: CdpEvent) => {
    const paused = event.params as unknown as Paused;
    if (
      paused.responseStatusCode !== undefined ||
      paused.responseErrorReason !== undefined ||
      paused.resourceType === 'Document'
    )
      return false;
    if (
      paused.frameId !== record.frameId ||
      paused.request.url !== record.url ||
      paused.request.method !== record.method
    )
      return false;
    stop();
    // Past the interceptors, as the person decided, but not past the agent's routes: one that blocks or mocks the
    // request still has it (network-routes.ts, which never serves nor sends to a site the policy refuses).
    page.frames.navigation.judge(event);
    return true;
  });
  return stop;
}

/**
 * A form post again as it was: its frame navigates to the same URL, and that request leaves with the stored method,
 * headers and body (measured: the site receives the same request, but for `Sec-Fetch-Site: none`). The cookie is the
 * one the browser has now, as the site may have renewed it while the person decided.
 */
async function renavigate(page: PageContext, record: HeldRecord): Promise<undefined> {
  const { headers, postData } = record;
  let answered!: (sent: Promise<unknown>) => void;
  const continued = new Promise<unknown>((resolve) => (answered = resolve));
  const stop = page.frames.navigation.interceptFirst((event) => {
    const paused = event.params as unknown as Paused;
    if (
      paused.resourceType !== 'Document' ||
      paused.frameId !== record.frameId ||
      paused.request.url !== record.url ||
      paused.responseStatusCode !== undefined
    )
      return false;
    stop();
    const cookie = Object.entries(paused.request.headers).filter(([name]) => name.toLowerCase() === 'cookie');
    const sent = [...Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'cookie'), ...cookie].map(
      ([name, value]) => ({ name, value }),
    );
    const params = {
      requestId: paused.requestId,
      method: record.method,
      headers: sent,
      ...(postData === undefined ? {} : { postData }),
    };
    answered(page.cdp.send('Fetch.continueRequest', params, event.sessionId));
    return true;
  });
  try {
    const navigated = page.cdp.send<{ errorText?: string }>(
      'Page.navigate',
      { url: record.url, ...(record.frameId ? { frameId: record.frameId } : {}) },
      record.sessionId,
    );
    // Page.navigate may answer only once the new document commits; the request has left when it is continued.
    const failed = navigated.then((result) =>
      result.errorText ? Promise.reject(new Error(result.errorText)) : new Promise<never>(() => undefined),
    );
    // Settled after the race was won, a failure has nobody left to tell.
    failed.catch(() => undefined);
    await withDeadline(Promise.race([continued, failed]), RESEND_TIMEOUT_MS, () => {
      throw new Error('the frame did not start the request');
    });
  } finally {
    stop();
  }
  return undefined;
}
