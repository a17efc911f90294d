// Once an agent's script ran in a tab, the workers no session of the tab reaches (service and shared workers, whose
// requests belong to no tab) reach the script's origin only, for as long as the tab lives and a grace after: a shared
// worker the script starts, or a message it posts to the site's service worker, sends nowhere else, also once the tab
// is let go (a detach, the session ending) or the extension's worker restarts. The fallback holds the same workers from
// the browser's side (electron/core/fallback/worker-targets.ts); chrome.debugger hears of no worker as it starts, so
// declarativeNetRequest holds them in the network stack.
import { originRegex } from './hold-rules.js';
import type { Adopts, RuleSet } from './session-rules.js';
import { tabLives } from './tab-lives.js';
import { CLOSED_GRACE_MS, heldRecord, WORKER_HOLD_ALARM, WORKER_HOLD_KEY, type Held } from './worker-hold-record.js';

// These rules match only requests of no tab, as an act's (lent-workers.ts, above these) alone do besides.
const BLOCK_PRIORITY = 1;
const ALLOW_PRIORITY = 2;
/** The lowest priority above this hold's rules: an act's, which a restarted worker does not take back. */
export const ABOVE_WORKER_HOLD = ALLOW_PRIORITY + 1;

/**
 * This hold's rules, of requests of no tab at its priorities: the next worker takes back those a stopped one left (not
 * an act's, over with the worker that judged it).
 */
export const isWorkerRule: Adopts = (rule) =>
  rule.condition.tabIds?.includes(chrome.tabs.TAB_ID_NONE) === true && (rule.priority ?? 1) < ABOVE_WORKER_HOLD;

export class ScriptedWorkers {
  /** Per tab an agent's script ran in, its record (worker-hold-record.ts). */
  private held = new Map<number, Held>();
  /** Changes one after another, each written to storage before the rules follow it. */
  private work: Promise<void>;

  constructor(private readonly rules: RuleSet) {
    // A restarted worker takes the hold back as it was (the rules stood meanwhile: this set adopts them).
    this.work = this.reconcile().catch(() => undefined);
  }

  /**
   * A script runs in `origin` in `tabId` (undefined: one with no web origin, whose workers no rule can name); settles
   * once the rules stand, and never rejects.
   */
  scriptRan(tabId: number, origin: string | undefined): Promise<void> {
    // Every eval of the tab asks again: an origin held already costs no regex; the change that held it may still be under
    // way, and the queue's tail settles once it is.
    if (origin !== undefined && this.held.get(tabId)?.origins.includes(origin)) return this.work;
    if (origin === undefined || originRegex(origin) === undefined) return Promise.resolve();
    return this.queue(async () => {
      const record = this.held.get(tabId) ?? { origins: [] };
      if (record.origins.includes(origin)) return;
      this.held.set(tabId, { ...record, origins: [...record.origins, origin] });
      await this.save();
      await this.apply();
    });
  }

  /** The tab closed: what the script left in its pages is gone, but a worker its message woke may run a while. */
  closed(tabId: number): void {
    void this.queue(async () => {
      const record = this.held.get(tabId);
      if (!record || record.closedAt !== undefined) return;
      record.closedAt = Date.now();
      await this.save();
      await this.arm();
    });
  }

  /** WORKER_HOLD_ALARM went off: a closed tab's grace is over. */
  due(): void {
    void this.queue(() => this.reconcile());
  }

  private queue(change: () => Promise<void>): Promise<void> {
    this.work = this.work.then(change).catch(() => undefined);
    return this.work;
  }

  /**
   * Reads the record back (storage is the truth across restarts), counts a tab that closed unheard (while no worker
   * ran) as closed now, drops the tabs whose grace is over, and sets the rules and the next alarm from what is left.
   * Unread, nothing changes: the rules that stand keep holding.
   */
  private async reconcile(): Promise<void> {
    const { [WORKER_HOLD_KEY]: raw } = await chrome.storage.session.get(WORKER_HOLD_KEY);
    const parsed = heldRecord.safeParse(raw ?? []);
    this.held = new Map(parsed.success ? parsed.data : []);
    const now = Date.now();
    await Promise.all(
      [...this.held].map(async ([tabId, record]) => {
        if (record.closedAt === undefined && !(await tabLives(tabId))) record.closedAt = now;
      }),
    );
    for (const [tabId, record] of this.held)
      if (record.closedAt !== undefined && record.closedAt + CLOSED_GRACE_MS <= now) this.held.delete(tabId);
    await this.save();
    await this.apply();
    await this.arm();
  }

  private save(): Promise<void> {
    // A lost write costs only what a restart would remember: the rules below still hold for this worker's life.
    return chrome.storage.session.set({ [WORKER_HOLD_KEY]: [...this.held] }).catch(() => undefined);
  }

  private apply(): Promise<void> {
    const origins = [...new Set([...this.held.values()].flatMap((record) => record.origins))].sort();
    // Chrome refuses a set over its budget of regex rules (1,000, shared with the window holds): the workers of those
    // sites then reach no origin at all, their own included, rather than every one.
    return this.rules
      .replace(origins.flatMap((origin) => [blockRule(origin), allowRule(origin)]))
      .catch(() => this.rules.replace(origins.map(blockRule)))
      .catch(() => undefined);
  }

  private async arm(): Promise<void> {
    const ends = [...this.held.values()].flatMap((record) =>
      record.closedAt === undefined ? [] : [record.closedAt + CLOSED_GRACE_MS],
    );
    if (ends.length === 0) await chrome.alarms.clear(WORKER_HOLD_ALARM);
    else await chrome.alarms.create(WORKER_HOLD_ALARM, { when: Math.min(...ends) });
  }
}

/** A worker of `origin`'s host (a blob: one's is its creator's) reaches nothing… */
function blockRule(origin: string): object {
  return { priority: BLOCK_PRIORITY, action: { type: 'block' }, condition: workerCondition(origin) };
}

/** …but `origin` itself. */
function allowRule(origin: string): object {
  return {
    priority: ALLOW_PRIORITY,
    action: { type: 'allow' },
    condition: { ...workerCondition(origin), regexFilter: originRegex(origin), isUrlFilterCaseSensitive: false },
  };
}

function workerCondition(origin: string): object {
  return { tabIds: [chrome.tabs.TAB_ID_NONE], initiatorDomains: [new URL(origin).hostname] };
}
