// The site's workers that no tab owns, lent to a tab's gate while it judges an act there (Cdp.lendWorkers): each found
// by chrome.debugger.getTargets and attached by its own targetId beside the tab, the writes it makes told to the tab as
// pauses under a session of its own, of requests the act's rules stopped (lent-worker-writes.ts). Each pause goes to the
// tab that borrowed its worker last, and a worker none has is let go of at once: DevTools keeps an attached service
// worker alive. A worker that starts while lent, or that the act wakes, chrome.debugger never hears of: the same rules
// stop its writes, though no card can show them.
import { urlOrigin } from '../../shared/engine/frame.js';
import { CLOSING, isStoppedPause, OBSERVING, stoppedPause, type WorkerSetup } from './lent-worker-writes.js';
import { ABOVE_WORKER_HOLD } from './scripted-workers.js';
import type { RuleSet } from './session-rules.js';

const PROTOCOL_VERSION = '1.3';
const SESSION_PREFIX = 'worker:';
// The gate's writes (risk.ts isWrite), as declarativeNetRequest names methods.
const WRITE_METHODS = ['post', 'put', 'patch', 'delete'];

/**
 * While tabs borrow the workers of `origins`, every worker of no tab at their hosts is refused its writes: those lent
 * are told to the gate, which sends a released one again from the act's frame; one the act starts or wakes (a shared
 * worker its click names afresh, a service worker it wakes) has nothing to tell it by, and its Send is only stopped.
 */
function actRules(origins: Iterable<string>): object[] {
  const hosts = [
    ...new Set([...origins].flatMap((origin) => (/^https?:/.test(origin) ? [new URL(origin).hostname] : []))),
  ];
  if (hosts.length === 0) return [];
  const condition = {
    tabIds: [chrome.tabs.TAB_ID_NONE],
    initiatorDomains: hosts.sort(),
    requestMethods: WRITE_METHODS,
  };
  // Above the scripted-worker hold's rules, the only others of requests of no tab: while an act is judged, this decides.
  return [{ priority: ABOVE_WORKER_HOLD, action: { type: 'block' }, condition }];
}

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

/** A tab borrowing: hears of each worker it has (`told`) and then its events (`deliver`). */
export interface Borrower {
  told(sessionId: string): void;
  deliver(method: string, params: Record<string, unknown>, sessionId: string): void;
}

interface Lending {
  tab: Borrower;
  /** Target ids of its workers. */
  targets: Set<string>;
  origins: readonly string[];
}

export class LentWorkers implements WorkerLender {
  /** In the order lent: the last that has a worker hears it. */
  private readonly lendings: Lending[] = [];
  /** Per worker attached (or being attached): how it was set up once its writes are told; undefined if they cannot be. */
  private readonly attachments = new Map<string, Promise<WorkerSetup | undefined>>();
  /** Per worker being let go of: a new attachment waits for the detach. */
  private readonly releasing = new Map<string, Promise<void>>();

  /** `rules`: the set that refuses the lent origins' workers their writes while any tab borrows them. */
  constructor(private readonly rules: RuleSet) {}

  /**
   * Lends `tab` the service and shared workers of `origins` running now until the returned give-back; settles once
   * the act's rules stand and the workers tell their writes. One the page starts later is not lent: nothing tells the
   * extension of it.
   */
  async lend(origins: readonly string[], tab: Borrower): Promise<() => void> {
    const lending: Lending = { tab, targets: new Set(), origins };
    this.lendings.push(lending);
    const wanted = new Set(origins);
    const own = chrome.runtime.getURL('');
    const [targets, stopped] = await Promise.all([chrome.debugger.getTargets().catch(() => []), this.refuseWrites()]);
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
        if ((await this.attach(id, stopped ? OBSERVING : CLOSING)) === undefined) this.drop(lending, id);
      }),
    );
    return () => this.giveBack(lending);
  }

  send(targetId: string, method: string, params: Record<string, unknown>): Promise<unknown> {
    // A write stopped before the tab heard of it: there is nothing left to answer.
    if (isStoppedPause(method, params)) return Promise.resolve({});
    return chrome.debugger.sendCommand({ targetId }, method, params);
  }

  /**
   * chrome.debugger.onEvent from a worker's own target: a write, to the tab that has the worker. Nothing else is told: a
   * worker's Network events would read to the tab as its own requests.
   */
  event(targetId: string, method: string, params: Record<string, unknown>): void {
    const paused = stoppedPause(method, params);
    if (!paused) return;
    const owner = this.lendings.findLast((lending) => lending.targets.has(targetId));
    // None after its last tab gave it back: the act is over, and its rules fell with it.
    owner?.tab.deliver('Fetch.requestPaused', paused, workerSession(targetId));
  }

  /** chrome.debugger.onDetach of a worker's own target: it stopped (or another let it go), and is had no more. */
  detached(targetId: string): void {
    this.attachments.delete(targetId);
    for (const lending of this.lendings) lending.targets.delete(targetId);
  }

  /** The worker's attachment, made once however many tabs borrow it (the first says how: `setUp`). */
  private attach(targetId: string, setUp: WorkerSetup): Promise<WorkerSetup | undefined> {
    let attachment = this.attachments.get(targetId);
    if (!attachment) {
      const made = (this.releasing.get(targetId) ?? Promise.resolve()).then(() => this.attachNow(targetId, setUp));
      attachment = made;
      this.attachments.set(targetId, made);
      void made.then((setUp) => {
        if (setUp === undefined && this.attachments.get(targetId) === made) this.attachments.delete(targetId);
      });
    }
    return attachment;
  }

  /** Attaches a worker and sets it up: `setUp` once it is, undefined (detached again) when it cannot be. */
  private async attachNow(targetId: string, setUp: WorkerSetup): Promise<WorkerSetup | undefined> {
    const target = { targetId };
    const attached = await chrome.debugger.attach(target, PROTOCOL_VERSION).then(
      () => true,
      () => false,
    );
    if (!attached) return undefined;
    try {
      await Promise.all(setUp.on.map(([method, params]) => chrome.debugger.sendCommand(target, method, params)));
      return setUp;
    } catch {
      // Gone meanwhile, or refused: nothing of it is told.
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
    void this.refuseWrites();
    for (const targetId of lending.targets)
      if (!this.lendings.some((each) => each.targets.has(targetId))) this.release(targetId);
  }

  /** Sets the act rules of the origins lent now; settles to whether they stand (Chrome may refuse them). */
  private refuseWrites(): Promise<boolean> {
    return this.rules.replace(actRules(this.lendings.flatMap((lending) => lending.origins))).then(
      () => true,
      () => false,
    );
  }

  /** No tab has the worker: the attachment that kept it alive goes. */
  private release(targetId: string): void {
    const attachment = this.attachments.get(targetId);
    if (!attachment) return;
    this.attachments.delete(targetId);
    const target = { targetId };
    const done: Promise<void> = attachment
      .then(async (setUp) => {
        if (setUp === undefined) return;
        await Promise.all(
          setUp.off.map(([method, params]) =>
            chrome.debugger.sendCommand(target, method, params).catch(() => undefined),
          ),
        );
        await chrome.debugger.detach(target).catch(() => undefined);
      })
      .finally(() => {
        if (this.releasing.get(targetId) === done) this.releasing.delete(targetId);
      });
    this.releasing.set(targetId, done);
  }
}
