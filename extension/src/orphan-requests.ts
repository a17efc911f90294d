// Requests paused by an attachment no engine of this worker holds: failed rather than let go (a detach would send them)
// and named, as they pause and when a worker's sweep or a session's end lets go of what they hold (let-go.ts).
import type { Send } from '../../shared/engine/egress-ledger.js';
import { keepNewest } from '../../shared/engine/keep-newest.js';
import type { TellFailed } from './let-go.js';
import type { ToldHere } from './paused-record.js';

// The most requests named by address kept (`told`).
const KEPT_TOLD = 200;

export class OrphanRequests {
  /** Requests failed as they paused, as `tabId:requestId`: named by address, so a later sweep does not name them again. */
  private readonly told = new Set<string>();

  /** `name` says which request of a tab failed for want of an engine (to the tab, or a kept window's opener). */
  constructor(private readonly name: TellFailed) {}

  /** How let-go.ts names what it fails, and whether this worker named a request already. */
  get naming(): [TellFailed, ToldHere] {
    return [this.name, (tabId, requestId) => this.told.has(`${tabId}:${requestId}`)];
  }

  /**
   * A request paused by an attachment no engine of this worker holds (a stopped worker's, before the sweep lets go of
   * it; or one being let go of): none will answer it, and the detach would send it, past every rule set since
   * (measured on Chromium 156: a kept window's navigation a stopped worker's attachment paused reached its site once the
   * next worker detached, its block rules standing). Failed instead, and named: a kept window's to its opener, any other
   * tab's to its own next eval (a script's `location = …` while the worker was stopped, say).
   */
  paused(tabId: number, source: chrome.debugger.DebuggerSession, params: Record<string, unknown>): void {
    const paused = params as { requestId: string; resourceType?: string; request: { url: string; method: string } };
    this.told.add(`${tabId}:${paused.requestId}`);
    // Asked of only just after a failure (paused-record.ts): the latest are kept, and a long session does not grow it.
    keepNewest(this.told, KEPT_TOLD);
    void chrome.debugger
      .sendCommand(source, 'Fetch.failRequest', { requestId: paused.requestId, errorReason: 'Aborted' })
      .catch(() => undefined);
    const kind = paused.resourceType === 'Document' ? 'navigation' : (paused.resourceType ?? 'Other');
    const send: Send = { method: paused.request.method, url: paused.request.url, kind };
    this.name(tabId, send);
  }
}
