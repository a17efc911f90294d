// The requests a driven tab's attachment paused that this worker has not answered yet, kept in chrome.storage.session,
// so that this worker as its session ends, or a worker started after this one stopped, fails them before it lets go of
// the attachment: a detach sends every request still paused (PLATFORM_FACTS.md), and Chrome neither lists them nor
// tells them again to a new listener.
import type { Send } from '../../shared/engine/egress-ledger.js';
import { FETCH_ANSWERS } from '../../shared/engine/paused-chain.js';
import { keepNewest } from '../../shared/engine/keep-newest.js';

/** The chrome.storage.session key; session storage outlives a stopped worker. */
export const PAUSED_RECORD_KEY = 'pausedRequests';

/*
 * How many request ids past the last one this worker heard of a new worker tries: a request Chrome paused and told a
 * worker that stopped before its listener ran was never heard of. Chrome numbers paused requests in one series for the
 * whole browser ("interception-job-<n>.<hop>" as seen on Chromium 156, one counter in its source), and a failRequest on
 * an id the attachment does not hold is refused harmlessly. Not covered: a redirect hop (<hop> above 0) never heard of,
 * and more than this many paused in the browser during a stopped worker's last moment.
 */
const PROBED_PAST_LAST = 64;
// The most unanswered requests kept: past it the oldest goes (the engine answers within a second, bar a lost worker).
const KEPT = 200;
const JOB_ID = /^interception-job-(\d+)\.(\d+)$/;

interface Unanswered extends Send {
  tabId: number;
  sessionId?: string;
  requestId: string;
}

interface Stored {
  /** The highest job number heard of. */
  last: number;
  unanswered: Unanswered[];
  /** Per driven tab, the child sessions (out-of-process frames) that paused a request. */
  sessions: [number, string[]][];
}

export class PausedRecord {
  private last = 0;
  private readonly unanswered = new Map<string, Unanswered>();
  private readonly sessions = new Map<number, Set<string>>();
  private writing: ReturnType<typeof setTimeout> | undefined;

  /** Fetch.requestPaused of a driven tab, heard before any guard answers it. */
  paused(tabId: number, sessionId: string | undefined, params: Record<string, unknown>): void {
    const paused = params as { requestId: string; resourceType?: string; request: { url: string; method: string } };
    const job = JOB_ID.exec(paused.requestId);
    if (job) this.last = Math.max(this.last, Number(job[1]));
    if (sessionId !== undefined) this.sessions.set(tabId, (this.sessions.get(tabId) ?? new Set()).add(sessionId));
    const kind = paused.resourceType === 'Document' ? 'navigation' : (paused.resourceType ?? 'Other');
    const { method, url } = paused.request;
    this.unanswered.set(key(tabId, sessionId, paused.requestId), {
      tabId,
      ...(sessionId === undefined ? {} : { sessionId }),
      requestId: paused.requestId,
      method,
      url,
      kind,
    });
    // One is added at a time: dropping the oldest keeps the bound, with no walk over the rest per pause.
    keepNewest(this.unanswered, KEPT);
    this.save();
  }

  /** A command is on its way to the tab: an answer to a paused request takes it off the record. */
  sent(tabId: number, method: string, params: Record<string, unknown>, sessionId: string | undefined): void {
    if (!FETCH_ANSWERS.has(method) || !this.unanswered.delete(key(tabId, sessionId, String(params['requestId']))))
      return;
    this.save();
  }

  /**
   * This worker lets go of the tab's attachment (the session ended): every request it paused that no guard answered,
   * and any it paused that this worker was not told of yet, is failed first, as the detach would send it; answers them.
   */
  async failLeft(tabId: number, toldHere: ToldHere): Promise<Send[]> {
    const left = {
      last: this.last,
      unanswered: [...this.unanswered.values()],
      sessions: new Map([[tabId, [...(this.sessions.get(tabId) ?? [])]]]),
    };
    this.ended(tabId);
    const failed = await failPaused(left, [tabId], toldHere, 'paused as the session ended');
    return failed.get(tabId) ?? [];
  }

  /** The attachment ended: what it paused went on or away with it. */
  ended(tabId: number): void {
    this.sessions.delete(tabId);
    for (const [at, entry] of this.unanswered) if (entry.tabId === tabId) this.unanswered.delete(at);
    this.save();
  }

  /** Written once per turn, however many requests paused in it: a stopped worker's last turn is what counts. */
  private save(): void {
    this.writing ??= setTimeout(() => {
      this.writing = undefined;
      const stored: Stored = {
        last: this.last,
        unanswered: [...this.unanswered.values()],
        sessions: [...this.sessions].map(([tabId, ids]) => [tabId, [...ids]]),
      };
      void chrome.storage.session.set({ [PAUSED_RECORD_KEY]: stored }).catch(() => undefined);
    });
  }
}

/*
 * How long a request the probe failed may still be told to this worker. Chrome tells a worker it starts of a request
 * its stopped predecessor's attachment pauses (a `location = …` while none ran), and that telling can come after the
 * probe's failRequest has settled (seen once in CI: the request named twice, by address and "not told"); so may a
 * request paused as a session ends.
 */
const TOLD_LATE_MS = 300;

/** Says whether this worker was told of a request an attachment paused (orphan-requests.ts names it by its address). */
export type ToldHere = (tabId: number, requestId: string) => boolean;

/** What an attachment left paused: those heard of, and where to look past the last heard of. */
interface Left {
  last: number;
  unanswered: readonly Unanswered[];
  sessions: ReadonlyMap<number, readonly string[]>;
}

/**
 * At a worker's start, before it lets go of the attachments a stopped one left (`tabIds`): fails every request the
 * stopped worker left paused there, and answers what each tab had failed (see `failPaused`).
 */
export async function failLeftPaused(tabIds: readonly number[], toldHere: ToldHere): Promise<Map<number, Send[]>> {
  const stored = ((await chrome.storage.session.get(PAUSED_RECORD_KEY).catch(() => ({}))) as Record<string, unknown>)[
    PAUSED_RECORD_KEY
  ] as Stored | undefined;
  await chrome.storage.session.remove(PAUSED_RECORD_KEY).catch(() => undefined);
  if (!stored || tabIds.length === 0) return new Map();
  const left = { ...stored, sessions: new Map(stored.sessions) };
  return failPaused(left, tabIds, toldHere, 'paused as the extension stopped');
}

/**
 * Fails every request `left` names in the tabs `tabIds`, those heard of and those past the last heard of (paused, but
 * not told yet, or told to a worker that stopped first), and answers what each tab had failed. A request never heard
 * of is named by its kind only (`notTold`), unless this worker is told of it after all (`toldHere`), which names it by
 * its address instead. The probes are answered by the browser, which tells what it paused before them first.
 */
async function failPaused(
  left: Left,
  tabIds: readonly number[],
  toldHere: ToldHere,
  notTold: string,
): Promise<Map<number, Send[]>> {
  const failed = new Map<number, Send[]>();
  const note = (tabId: number, send: Send) => failed.set(tabId, [...(failed.get(tabId) ?? []), send]);
  const fail = (tabId: number, sessionId: string | undefined, requestId: string) =>
    chrome.debugger
      .sendCommand(sessionId === undefined ? { tabId } : { tabId, sessionId }, 'Fetch.failRequest', {
        requestId,
        errorReason: 'Aborted',
      })
      .then(
        () => true,
        () => false,
      );
  const known = left.unanswered.filter((entry) => tabIds.includes(entry.tabId));
  const probed: [number, string][] = [];
  await Promise.all([
    ...known.map(async ({ tabId, sessionId, requestId, method, url, kind }) => {
      if (await fail(tabId, sessionId, requestId)) note(tabId, { ...(method ? { method } : {}), url, kind });
    }),
    ...tabIds.flatMap((tabId) =>
      [undefined, ...(left.sessions.get(tabId) ?? [])].flatMap((sessionId) =>
        Array.from({ length: PROBED_PAST_LAST }, async (_, index) => {
          const requestId = `interception-job-${left.last + 1 + index}.0`;
          if (await fail(tabId, sessionId, requestId)) probed.push([tabId, requestId]);
        }),
      ),
    ),
  ]);
  if (probed.length > 0) await new Promise((resolve) => setTimeout(resolve, TOLD_LATE_MS));
  for (const [tabId, requestId] of probed) if (!toldHere(tabId, requestId)) note(tabId, { url: '', kind: notTold });
  return failed;
}

function key(tabId: number, sessionId: string | undefined, requestId: string): string {
  return `${tabId}:${sessionId ?? ''}:${requestId}`;
}
