// The tabs an agent's script ran in, kept in chrome.storage.session with the origins it ran at: while no engine follows
// such a tab's trail (a restarted worker, a session that ended, a detach), session rules keep what the tab sends to those
// origins (fail closed), until an engine attaches it again and follows what the script left behind from the start, or
// the script's documents are gone for good (the tab's top commits a document no script of ours ran in, or it closes).
import { z } from 'zod';
import { keepNewest } from '../../shared/engine/keep-newest.js';
import { scriptedTabRules } from './hold-rules.js';
import type { RuleSet } from './session-rules.js';
import { liveTabEntries } from './tab-lives.js';

/** The chrome.storage.session key: it outlives a stopped worker and clears with the browser, as tab ids do. */
export const SCRIPTED_TABS_KEY = 'scriptedTabs';

// Past it the oldest tab is forgotten (held no more once unfollowed): far past the tabs one agent's task scripts.
const KEPT = 64;

/** What is kept of a tab: the origins the script ran at, and whether the documents it ran in are gone (no hold). */
const kept = z.object({ origins: z.array(z.string()), gone: z.boolean() });
type Kept = z.infer<typeof kept>;
const record = z.array(z.tuple([z.number().int(), kept]));

/** How a top-level document came: `back` when it may be one kept in the back/forward cache, as it was. */
export interface TopCommit {
  url: string;
  back: boolean;
}

/**
 * Whether a new top document ends the script's: one it could not have written itself. A `blob:`, `data:`, `about:` or
 * `javascript:` document can be the dying page's own text (`location = URL.createObjectURL(…)` keeps its origin and
 * runs what the script wrote), so only a document fetched from a web address lifts the hold.
 */
const endsScript = ({ url, back }: TopCommit) => !back && /^https?:/i.test(url);

export class ScriptedTabs {
  private kept = new Map<number, Kept>();
  /** Tabs whose script trail an engine of this worker follows now: their rules are down. */
  private readonly followed = new Set<number>();
  /** Changes one after another, each written to storage before the rules follow it. */
  private work: Promise<void>;
  /** Changes queued and not yet over. */
  private queued = 0;
  /** Settles once the record is read back and its rules stand: before then, no stale attachment is let go of. */
  readonly ready: Promise<void>;
  private readonly onCommitted = (details: chrome.webNavigation.WebNavigationTransitionCallbackDetails) => {
    if (details.frameId !== 0) return;
    const back = details.transitionQualifiers.includes('forward_back');
    void this.queue(() => this.committed(details.tabId, { url: details.url, back }, false));
  };

  /**
   * Made on the worker's first turn: the commit listener is added there, so a stopped worker is started to hear of a
   * held tab's next document; it is taken off while nothing is kept, so no other navigation starts the worker.
   */
  constructor(private readonly rules: RuleSet) {
    this.listen(true);
    // A restarted worker follows none: every tab the record names is held until an engine follows it again.
    this.work = this.reconcile().catch(() => undefined);
    this.ready = this.work;
  }

  /** Whether a document an agent's script ran in may still be in the tab, as this worker or one before it knows. */
  has(tabId: number): boolean {
    return this.kept.get(tabId)?.gone === false;
  }

  /**
   * An agent's script is about to run in the tab, where it may reach `reached` (the origins of its frame and the tab's
   * top), its trail followed already (the engine follows it before it sends the script): kept, its rules down. Settles
   * once written.
   */
  ran(tabId: number, reached: readonly (string | undefined)[]): Promise<void> {
    // Every eval of the tab asks again: one kept already at these origins, with no change waiting its turn (a commit may
    // be about to mark it gone), changes nothing, and costs no turn of the queue.
    const before = this.kept.get(tabId);
    const unchanged =
      this.queued === 0 &&
      this.followed.has(tabId) &&
      before?.gone === false &&
      reached.every((origin) => origin === undefined || before.origins.includes(origin));
    if (unchanged) return this.work;
    this.followed.add(tabId);
    this.listen(true);
    return this.queue(async () => {
      const before = this.kept.get(tabId);
      const origins = [
        ...new Set([...(before?.origins ?? []), ...reached.filter((origin): origin is string => origin !== undefined)]),
      ];
      if (!before || before.gone || origins.length > before.origins.length) {
        // Newest last: past the bound the oldest goes.
        this.kept.delete(tabId);
        this.kept.set(tabId, { origins, gone: false });
        keepNewest(this.kept, KEPT);
        await this.save();
      }
      await this.apply();
    });
  }

  /** An engine follows the tab's trail again (a re-attach): its rules come down. */
  following(tabId: number): void {
    if (!this.kept.has(tabId) || this.followed.has(tabId)) return;
    this.followed.add(tabId);
    void this.queue(() => this.apply());
  }

  /** The tab's attachment ended or is about to: its rules stand until an engine follows it again. Settles once they do. */
  unfollowed(tabId: number): Promise<void> {
    if (!this.followed.delete(tabId) || !this.kept.has(tabId)) return this.work;
    return this.queue(() => this.apply());
  }

  /**
   * The attachment that follows the tab saw its top commit a new document (Page.frameNavigated, in order with the
   * scripts it sends, which webNavigation's events are not): the tab is held after it only if the script's may be back.
   */
  navigated(tabId: number, commit: TopCommit): void {
    void this.queue(() => this.committed(tabId, commit, true));
  }

  /** The tab closed: nothing of it is kept. */
  closed(tabId: number): void {
    this.followed.delete(tabId);
    // After the record is read back: a worker started by the close knows the tab only then.
    void this.queue(async () => {
      if (!this.kept.delete(tabId)) return;
      await this.save();
      await this.apply();
    });
  }

  /** The tabs kept that no engine follows, once the record is read back. */
  async unfollowedIds(): Promise<number[]> {
    await this.ready;
    return [...this.kept.keys()].filter((tabId) => this.has(tabId) && !this.followed.has(tabId));
  }

  /**
   * The tab's top committed a document. Heard by the events of whoever follows it (`byFollower`), never both: the
   * script's documents are gone when it is one fetched from the web, and may be back when it came back or forward.
   */
  private async committed(tabId: number, commit: TopCommit, byFollower: boolean): Promise<void> {
    const entry = this.kept.get(tabId);
    if (!entry || this.followed.has(tabId) !== byFollower) return;
    const gone = entry.gone ? !commit.back : endsScript(commit);
    if (gone === entry.gone) return;
    entry.gone = gone;
    await this.save();
    await this.apply();
  }

  private queue(change: () => Promise<void>): Promise<void> {
    this.queued++;
    this.work = this.work
      .then(change)
      .catch(() => undefined)
      .finally(() => this.queued--);
    return this.work;
  }

  /** Reads the record back (storage is the truth across restarts), drops the tabs closed meanwhile, holds the rest. */
  private async reconcile(): Promise<void> {
    for (const [tabId, entry] of await liveTabEntries(SCRIPTED_TABS_KEY, record)) this.kept.set(tabId, entry);
    await this.save();
    await this.apply();
  }

  private save(): Promise<void> {
    // A lost write costs only what a restart would remember: the rules below still hold for this worker's life.
    return chrome.storage.session.set({ [SCRIPTED_TABS_KEY]: [...this.kept] }).catch(() => undefined);
  }

  private apply(): Promise<void> {
    this.listen(this.kept.size > 0);
    const held = [...this.kept].filter(([tabId, entry]) => !entry.gone && !this.followed.has(tabId));
    // Chrome refuses a set over its budget of regex rules: those tabs then reach no other origin at all, rather than any.
    const rules = held.flatMap(([tabId, entry]) => scriptedTabRules(tabId, entry.origins));
    return this.rules
      .replace(rules)
      .catch(() => this.rules.replace(held.flatMap(([tabId]) => scriptedTabRules(tabId, []))))
      .catch(() => undefined);
  }

  private listen(on: boolean): void {
    const { onCommitted } = chrome.webNavigation;
    if (on === onCommitted.hasListener(this.onCommitted)) return;
    if (on) onCommitted.addListener(this.onCommitted);
    else onCommitted.removeListener(this.onCommitted);
  }
}
