// The site's workers that no tab owns, lent to a tab's gate while it judges an act there (Cdp.lendWorkers): each found
// by chrome.debugger.getTargets and attached by its own targetId beside the tab, its events told to the tab under a
// session of its own. A service worker's Fetch pauses its requests there; a shared worker's pauses nothing once it runs
// (measured, Chromium 156), so it is not taken. Each pause goes to the tab that borrowed its worker last; one no tab
// has goes on, and a worker none has is let go of at once: DevTools keeps an attached service worker alive.
import { urlOrigin } from '../../shared/engine/frame.js';

const PROTOCOL_VERSION = '1.3';
const SESSION_PREFIX = 'worker:';
/** Every request the worker makes, before it is sent. */
const PAUSE_ALL = { patterns: [{ urlPattern: '*', requestStage: 'Request' }] };

/** The session id a lent worker's events are told under, and its commands sent by (debugger-tab.ts). */
export function workerSession(targetId: string): string {
  return `${SESSION_PREFIX}${targetId}`;
}

/** The worker's target id a session of `workerSession` names; undefined for any other session. */
export function workerTarget(sessionId: string | undefined): string | undefined {
  return sessionId?.startsWith(SESSION_PREFIX) ? sessionId.slice(SESSION_PREFIX.length) : undefined;
}

/** A tab borrowing: hears of each worker it has (`told`) and then its events (`deliver`). */
export interface Borrower {
  told(sessionId: string): void;
  deliver(method: string, params: Record<string, unknown>, sessionId: string): void;
}

interface Lending {
  tab: Borrower;
  /** Target ids of its workers. */
  targets: Set<string>;
}

export class LentWorkers {
  /** In the order lent: the last that has a worker hears it. */
  private readonly lendings: Lending[] = [];
  /** Per worker attached (or being attached): settles true once its requests pause there. */
  private readonly attachments = new Map<string, Promise<boolean>>();
  /** Per worker being let go of: a new attachment waits for the detach. */
  private readonly releasing = new Map<string, Promise<void>>();

  /**
   * Lends `tab` the service workers of `origins` running now until the returned give-back; settles once their
   * requests pause. One the page starts later is not told of (nothing tells the extension a worker started).
   */
  async lend(origins: readonly string[], tab: Borrower): Promise<() => void> {
    const lending: Lending = { tab, targets: new Set() };
    this.lendings.push(lending);
    const wanted = new Set(origins);
    const own = chrome.runtime.getURL('');
    const targets = await chrome.debugger.getTargets().catch(() => []);
    const workers = targets.filter(
      (target) =>
        target.type === 'worker' &&
        target.tabId === undefined &&
        !target.url.startsWith(own) &&
        wanted.has(urlOrigin(target.url) ?? ''),
    );
    await Promise.all(
      workers.map(async ({ id }) => {
        // Counted as had before it is attached: a give-back meanwhile lets it go once the attach landed.
        lending.targets.add(id);
        tab.told(workerSession(id));
        if (!(await this.attach(id))) this.drop(lending, id);
      }),
    );
    return () => this.giveBack(lending);
  }

  /** chrome.debugger.onEvent from a worker's own target: to the tab that has it, or let go on. */
  event(targetId: string, method: string, params: Record<string, unknown>): void {
    const owner = this.lendings.findLast((lending) => lending.targets.has(targetId));
    if (owner) return owner.tab.deliver(method, params, workerSession(targetId));
    // Paused after its last tab gave it back, before the Fetch.disable landed: the act is over.
    if (method === 'Fetch.requestPaused')
      void chrome.debugger
        .sendCommand({ targetId }, 'Fetch.continueRequest', { requestId: params['requestId'] })
        .catch(() => undefined);
  }

  /** chrome.debugger.onDetach of a worker's own target: it stopped (or another let it go), and is had no more. */
  detached(targetId: string): void {
    this.attachments.delete(targetId);
    for (const lending of this.lendings) lending.targets.delete(targetId);
  }

  /** The worker's attachment, made once however many tabs borrow it. */
  private attach(targetId: string): Promise<boolean> {
    let attachment = this.attachments.get(targetId);
    if (!attachment) {
      const made = (this.releasing.get(targetId) ?? Promise.resolve()).then(() => this.attachNow(targetId));
      attachment = made;
      this.attachments.set(targetId, made);
      void made.then((pauses) => {
        if (!pauses && this.attachments.get(targetId) === made) this.attachments.delete(targetId);
      });
    }
    return attachment;
  }

  /** Attaches a worker and pauses its requests: true once they pause, false (detached again) when they cannot. */
  private async attachNow(targetId: string): Promise<boolean> {
    const target = { targetId };
    const attached = await chrome.debugger.attach(target, PROTOCOL_VERSION).then(
      () => true,
      () => false,
    );
    if (!attached) return false;
    try {
      const { targetInfo } = (await chrome.debugger.sendCommand(target, 'Target.getTargetInfo', {})) as {
        targetInfo: { type: string };
      };
      if (targetInfo.type === 'service_worker') {
        await chrome.debugger.sendCommand(target, 'Fetch.enable', PAUSE_ALL);
        return true;
      }
    } catch {
      // Gone meanwhile, or refused: nothing of it pauses.
    }
    await chrome.debugger.detach(target).catch(() => undefined);
    return false;
  }

  private drop(lending: Lending, targetId: string): void {
    lending.targets.delete(targetId);
    if (!this.lendings.some((each) => each.targets.has(targetId))) this.release(targetId);
  }

  private giveBack(lending: Lending): void {
    const index = this.lendings.indexOf(lending);
    if (index < 0) return;
    this.lendings.splice(index, 1);
    for (const targetId of lending.targets)
      if (!this.lendings.some((each) => each.targets.has(targetId))) this.release(targetId);
  }

  /** No tab has the worker: what it pauses goes on (the act is over), and the attachment that kept it alive goes. */
  private release(targetId: string): void {
    const attachment = this.attachments.get(targetId);
    if (!attachment) return;
    this.attachments.delete(targetId);
    const target = { targetId };
    const done: Promise<void> = attachment
      .then(async (pauses) => {
        if (!pauses) return;
        await chrome.debugger.sendCommand(target, 'Fetch.disable', {}).catch(() => undefined);
        await chrome.debugger.detach(target).catch(() => undefined);
      })
      .finally(() => {
        if (this.releasing.get(targetId) === done) this.releasing.delete(targetId);
      });
    this.releasing.set(targetId, done);
  }
}
