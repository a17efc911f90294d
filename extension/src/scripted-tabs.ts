// The tabs an agent's script ran in, kept in chrome.storage.session with the origins it ran at: while no engine follows
// such a tab's trail (a restarted worker, a session that ended, a detach), session rules keep what the tab sends to those
// origins (fail closed), until an engine attaches it again and follows what the script left behind from the start.
import { z } from 'zod';
import { scriptedTabRules } from './hold-rules.js';
import type { RuleSet } from './session-rules.js';
import { tabLives } from './tab-lives.js';

/** The chrome.storage.session key: it outlives a stopped worker and clears with the browser, as tab ids do. */
export const SCRIPTED_TABS_KEY = 'scriptedTabs';

// Past it the oldest tab is forgotten (held no more once unfollowed): far past the tabs one agent's task scripts.
const KEPT = 64;
const record = z.array(z.tuple([z.number().int(), z.array(z.string())]));

export class ScriptedTabs {
  private kept = new Map<number, string[]>();
  /** Tabs whose script trail an engine of this worker follows now: their rules are down. */
  private readonly followed = new Set<number>();
  /** Changes one after another, each written to storage before the rules follow it. */
  private work: Promise<void>;
  /** Settles once the record is read back and its rules stand: before then, no stale attachment is let go of. */
  readonly ready: Promise<void>;

  constructor(private readonly rules: RuleSet) {
    // A restarted worker follows none: every tab the record names is held until an engine follows it again.
    this.work = this.reconcile().catch(() => undefined);
    this.ready = this.work;
  }

  /** Whether an agent's script ran in the tab, as this worker or one before it knows. */
  has(tabId: number): boolean {
    return this.kept.has(tabId);
  }

  /**
   * An agent's script is about to run in the tab, where it may reach `reached` (the origins of its frame and the tab's
   * top), its trail followed already (the engine follows it before it sends the script): kept, its rules down. Settles
   * once written.
   */
  ran(tabId: number, reached: readonly (string | undefined)[]): Promise<void> {
    this.followed.add(tabId);
    return this.queue(async () => {
      const origins = this.kept.get(tabId);
      const added = reached.filter((origin): origin is string => origin !== undefined && !origins?.includes(origin));
      if (!origins || added.length > 0) {
        // Newest last: past the bound the oldest goes.
        this.kept.delete(tabId);
        this.kept.set(tabId, [...new Set([...(origins ?? []), ...added])]);
        for (const oldest of this.kept.keys()) if (this.kept.size > KEPT) this.kept.delete(oldest);
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

  /** The tab closed: nothing of it is kept. */
  closed(tabId: number): void {
    this.followed.delete(tabId);
    if (!this.kept.delete(tabId)) return;
    void this.queue(async () => {
      await this.save();
      await this.apply();
    });
  }

  /** The tabs kept that no engine follows, once the record is read back. */
  async unfollowedIds(): Promise<number[]> {
    await this.ready;
    return [...this.kept.keys()].filter((tabId) => !this.followed.has(tabId));
  }

  private queue(change: () => Promise<void>): Promise<void> {
    this.work = this.work.then(change).catch(() => undefined);
    return this.work;
  }

  /** Reads the record back (storage is the truth across restarts), drops the tabs closed meanwhile, holds the rest. */
  private async reconcile(): Promise<void> {
    const { [SCRIPTED_TABS_KEY]: raw } = await chrome.storage.session.get(SCRIPTED_TABS_KEY);
    const parsed = record.safeParse(raw ?? []);
    const lives = await Promise.all(
      (parsed.success ? parsed.data : []).map(async (entry) => (await tabLives(entry[0])) && entry),
    );
    for (const entry of lives) if (entry) this.kept.set(entry[0], entry[1]);
    await this.save();
    await this.apply();
  }

  private save(): Promise<void> {
    // A lost write costs only what a restart would remember: the rules below still hold for this worker's life.
    return chrome.storage.session.set({ [SCRIPTED_TABS_KEY]: [...this.kept] }).catch(() => undefined);
  }

  private apply(): Promise<void> {
    const held = [...this.kept].filter(([tabId]) => !this.followed.has(tabId));
    // Chrome refuses a set over its budget of regex rules: those tabs then reach no other origin at all, rather than any.
    const rules = held.flatMap(([tabId, origins]) => scriptedTabRules(tabId, origins));
    return this.rules
      .replace(rules)
      .catch(() => this.rules.replace(held.flatMap(([tabId]) => scriptedTabRules(tabId, []))))
      .catch(() => undefined);
  }
}
