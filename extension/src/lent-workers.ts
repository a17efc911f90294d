// The site's workers that no tab owns, lent to a tab's gate while it judges an act there (Cdp.lendWorkers): each found
// by chrome.debugger.getTargets and attached by its own targetId beside the tab, its pauses told to the tab under a
// session of its own. A service worker's Fetch pauses its requests there. A shared worker's pauses nothing once it runs
// (measured, Chromium 156), so while lent it is closed instead (shared-worker-block.ts): each write it makes is told as
// a pause of a request already blocked. Each pause goes to the tab that borrowed its worker last; one no tab has goes
// on, and a worker none has is let go of at once: DevTools keeps an attached service worker alive.
import { urlOrigin } from '../../shared/engine/frame.js';
import { blockedPause, BLOCK_ALL, isBlockedPause, UNBLOCK_ALL } from './shared-worker-block.js';

const PROTOCOL_VERSION = '1.3';
const SESSION_PREFIX = 'worker:';
/** Every request a service worker makes, before it is sent. */
const PAUSE_ALL = { patterns: [{ urlPattern: '*', requestStage: 'Request' }] };

/** The session id a lent worker's events are told under, and its commands sent by (debugger-tab.ts). */
export function workerSession(targetId: string): string {
  return `${SESSION_PREFIX}${targetId}`;
}

/** The worker's target id a session of `workerSession` names; undefined for any other session. */
export function workerTarget(sessionId: string | undefined): string | undefined {
  return sessionId?.startsWith(SESSION_PREFIX) ? sessionId.slice(SESSION_PREFIX.length) : undefined;
}

/** What a tab's attachment reaches its lent workers by (debugger-tab.ts). */
export interface WorkerLender {
  /** Lends the tab the site's workers of `origins`, as Cdp.lendWorkers says; answers the give-back. */
  lend(origins: readonly string[], tab: Borrower): Promise<() => void>;
  /** A command to a lent worker, by its target id. */
  send(targetId: string, method: string, params: Record<string, unknown>): Promise<unknown>;
}

type Kind = 'service_worker' | 'shared_worker';

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

export class LentWorkers implements WorkerLender {
  /** In the order lent: the last that has a worker hears it. */
  private readonly lendings: Lending[] = [];
  /** Per worker attached (or being attached): its kind once its requests pause or are blocked; undefined if neither. */
  private readonly attachments = new Map<string, Promise<Kind | undefined>>();
  /** Per worker being let go of: a new attachment waits for the detach. */
  private readonly releasing = new Map<string, Promise<void>>();

  /**
   * Lends `tab` the service and shared workers of `origins` running now until the returned give-back; settles once
   * their requests pause (or are blocked). One the page starts later is missed: nothing tells the extension of it.
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
        if ((await this.attach(id)) === undefined) this.drop(lending, id);
      }),
    );
    return () => this.giveBack(lending);
  }

  send(targetId: string, method: string, params: Record<string, unknown>): Promise<unknown> {
    // A shared worker's write was blocked before the tab heard of it: there is nothing left to answer.
    if (isBlockedPause(method, params)) return Promise.resolve({});
    return chrome.debugger.sendCommand({ targetId }, method, params);
  }

  /**
   * chrome.debugger.onEvent from a worker's own target: a pause to the tab that has it, or let go on. Nothing else is
   * told: a shared worker's Network events would read to the tab as its own requests.
   */
  event(targetId: string, method: string, params: Record<string, unknown>): void {
    const paused = method === 'Fetch.requestPaused' ? params : blockedPause(method, params);
    if (!paused) return;
    const owner = this.lendings.findLast((lending) => lending.targets.has(targetId));
    if (owner) return owner.tab.deliver('Fetch.requestPaused', paused, workerSession(targetId));
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
  private attach(targetId: string): Promise<Kind | undefined> {
    let attachment = this.attachments.get(targetId);
    if (!attachment) {
      const made = (this.releasing.get(targetId) ?? Promise.resolve()).then(() => this.attachNow(targetId));
      attachment = made;
      this.attachments.set(targetId, made);
      void made.then((kind) => {
        if (kind === undefined && this.attachments.get(targetId) === made) this.attachments.delete(targetId);
      });
    }
    return attachment;
  }

  /**
   * Attaches a worker and pauses (a service worker) or blocks (a shared one) its requests: its kind once they do,
   * undefined (detached again) when they cannot.
   */
  private async attachNow(targetId: string): Promise<Kind | undefined> {
    const target = { targetId };
    const attached = await chrome.debugger.attach(target, PROTOCOL_VERSION).then(
      () => true,
      () => false,
    );
    if (!attached) return undefined;
    try {
      const { targetInfo } = (await chrome.debugger.sendCommand(target, 'Target.getTargetInfo', {})) as {
        targetInfo: { type: string };
      };
      if (targetInfo.type === 'service_worker') {
        await chrome.debugger.sendCommand(target, 'Fetch.enable', PAUSE_ALL);
        return targetInfo.type;
      }
      if (targetInfo.type === 'shared_worker') {
        await Promise.all(BLOCK_ALL.map(([method, params]) => chrome.debugger.sendCommand(target, method, params)));
        return targetInfo.type;
      }
    } catch {
      // Gone meanwhile, or refused: nothing of it pauses.
    }
    await chrome.debugger.detach(target).catch(() => undefined);
    return undefined;
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
      .then(async (kind) => {
        if (kind === undefined) return;
        const undo = kind === 'service_worker' ? [['Fetch.disable', {}] as const] : UNBLOCK_ALL;
        await Promise.all(
          undo.map(([method, params]) => chrome.debugger.sendCommand(target, method, params).catch(() => undefined)),
        );
        await chrome.debugger.detach(target).catch(() => undefined);
      })
      .finally(() => {
        if (this.releasing.get(targetId) === done) this.releasing.delete(targetId);
      });
    this.releasing.set(targetId, done);
  }
}
