// The windows of driven tabs the engine follows (popup-trail.ts), kept in chrome.storage.session with what the engine
// judged each by, so a restarted worker or a new session follows them again as before; while none follows a window the
// opener's script opened or drove, session rules keep what it sends to its opener's origins (fail closed), and a page
// of it they block is named to the opener as the script's.
import { AllowedOrigins } from '../../shared/engine/egress-origins.js';
import type { Send } from '../../shared/engine/egress-ledger.js';
import { POPUP_HELD, type PopupJudgement } from '../../shared/engine/popup-events.js';
import { popupHoldRules } from './hold-rules.js';
import { POPUP_RECORD_KEY, popupRecord, POPUPS_KEPT, type KeptPopup } from './popup-record.js';
import type { RuleSet } from './session-rules.js';
import { liveTabEntries } from './tab-lives.js';

export class PopupHolds {
  private kept = new Map<number, KeptPopup>();
  /** Windows the engine follows through this worker's attachment now: their rules are down. */
  private readonly followed = new Set<number>();
  /** Windows handed to the engine to follow again, not followed yet: not handed again until let go of. */
  private readonly offered = new Set<number>();
  /** Windows whose rules stand in Chrome, and when those of others last came down (their word may come after). */
  private held = new Set<number>();
  private readonly releasedAt = new Map<number, number>();
  /** Changes one after another, each written to storage before the rules follow it. */
  private work: Promise<void>;
  private listening = false;
  /** Settles once the record is read back and its rules stand: before then, no stale attachment is let go of. */
  readonly ready: Promise<void>;

  /**
   * `tell`: hands a pseudo-event to the opener's trail; `openedByScript`: whether a window was opened under its
   * opener's script hold (new-window-hold.ts), which the host knows before the engine judges anything.
   */
  constructor(
    private readonly rules: RuleSet,
    private readonly tell: (openerId: number, method: string, params: Record<string, unknown>) => void,
    private readonly openedByScript: (tabId: number) => boolean,
  ) {
    // A restarted worker follows none: what the record says the script opened is held until the engine follows it.
    this.work = this.reconcile().catch(() => undefined);
    this.ready = this.work;
  }

  /**
   * The engine follows `tabId` (`followed`: through a live attachment), judged by `judgement`: kept, the script's mark
   * never lost once set, and its rules down while followed.
   */
  keep(tabId: number, openerId: number, judgement: PopupJudgement, followed: boolean): void {
    // Marked now, not in turn: a detach heard before the turn comes then wins (unfollowed).
    if (followed) {
      this.followed.add(tabId);
      this.offered.delete(tabId);
    }
    void this.queue(async () => {
      const before = this.kept.get(tabId);
      const scripted = judgement.scripted || before?.scripted === true || this.openedByScript(tabId);
      const next = { openerId, ...judgement, scripted, whole: judgement.whole || before?.whole === true };
      if (JSON.stringify(before) !== JSON.stringify(next)) {
        this.kept.set(tabId, next);
        // Past the bound the oldest window is forgotten: the one least likely still driven.
        for (const oldest of this.kept.keys()) if (this.kept.size > POPUPS_KEPT) this.drop(oldest);
        await this.save();
      }
      await this.apply();
    });
  }

  /** The window's attachment ended (a detach, the session ending): until followed again, its rules hold it. */
  unfollowed(tabId: number): void {
    this.offered.delete(tabId);
    if (!this.followed.delete(tabId) || !this.kept.has(tabId)) return;
    void this.queue(() => this.apply());
  }

  /** The tab closed: as a window, nothing of it is kept. */
  closed(tabId: number): void {
    this.offered.delete(tabId);
    this.followed.delete(tabId);
    if (!this.kept.has(tabId)) return;
    void this.queue(async () => {
      this.drop(tabId);
      await this.save();
      await this.apply();
    });
  }

  /**
   * A request of `tabId` was failed for want of an engine: named to its opener when `tabId` is a window kept (and sent
   * outside its opener's origins). Resolves to whether it is one.
   */
  async failed(tabId: number, send: Send): Promise<boolean> {
    await this.ready;
    const kept = this.kept.get(tabId);
    if (kept && !new AllowedOrigins(kept.origins).allows(send.url)) this.tell(kept.openerId, POPUP_HELD, { ...send });
    return kept !== undefined;
  }

  /** The session ended: what was handed to its engine and not followed yet is handed to the next one. */
  letGo(): void {
    this.offered.clear();
  }

  /** What `tabId` was judged by, if it is kept and neither followed nor handed to the engine yet; marks it handed. */
  offer(tabId: number): KeptPopup | undefined {
    const kept = this.kept.get(tabId);
    if (!kept || this.followed.has(tabId) || this.offered.has(tabId)) return undefined;
    this.offered.add(tabId);
    return kept;
  }

  /** The windows kept that no engine follows, once the record is read back. */
  async unfollowedIds(): Promise<number[]> {
    await this.ready;
    return [...this.kept.keys()].filter((tabId) => !this.followed.has(tabId));
  }

  private drop(tabId: number): void {
    this.kept.delete(tabId);
    this.releasedAt.delete(tabId);
    this.followed.delete(tabId);
    this.offered.delete(tabId);
  }

  private queue(change: () => Promise<void>): Promise<void> {
    this.work = this.work.then(change).catch(() => undefined);
    return this.work;
  }

  /** Reads the record back (storage is the truth across restarts), drops the windows closed meanwhile, holds the rest. */
  private async reconcile(): Promise<void> {
    this.kept = new Map(await liveTabEntries(POPUP_RECORD_KEY, popupRecord));
    await this.save();
    await this.apply();
  }

  private save(): Promise<void> {
    // A lost write costs only what a restart would remember: the rules below still hold for this worker's life.
    return chrome.storage.session.set({ [POPUP_RECORD_KEY]: [...this.kept] }).catch(() => undefined);
  }

  /** The rules of the windows the script opened or drove that no engine follows, one set per opener's origins. */
  private async apply(): Promise<void> {
    const groups = new Map<string, { origins: string[]; tabIds: number[] }>();
    for (const [tabId, kept] of this.kept) {
      if (!kept.scripted || this.followed.has(tabId)) continue;
      const key = kept.origins.join(' ');
      const group = groups.get(key) ?? { origins: kept.origins, tabIds: [] };
      group.tabIds.push(tabId);
      groups.set(key, group);
    }
    if (groups.size > 0) this.listen();
    const rules = [...groups.values()].flatMap((group) => popupHoldRules(group.tabIds, group.origins));
    const held = new Set([...groups.values()].flatMap((group) => group.tabIds));
    // Chrome refuses a set over its budget of regex rules: those windows then reach no origin at all, rather than any.
    await this.rules
      .replace(rules)
      .catch(() =>
        this.rules.replace(rules.filter((rule) => (rule as { action: { type: string } }).action.type === 'block')),
      )
      .catch(() => undefined);
    const landed = Date.now();
    for (const tabId of this.held) if (!held.has(tabId)) this.releasedAt.set(tabId, landed);
    this.held = held;
  }

  /** Whether a navigation of `tabId` that failed at `at` (Chrome's time) met this hold's rules. */
  private blockedHere(tabId: number, at: number): boolean {
    return this.held.has(tabId) || (this.releasedAt.get(tabId) ?? -Infinity) >= at;
  }

  /*
   * Added once a window is held, not at the worker's top level: the person's browsing never wakes a stopped worker, and
   * a worker no core links to has no agent to name a hold to.
   */
  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    chrome.webNavigation.onErrorOccurred.addListener((details) => {
      const kept = this.kept.get(details.tabId);
      if (!kept || details.frameId !== 0 || !/ERR_BLOCKED_BY_CLIENT/.test(details.error)) return;
      // Judged by when Chrome failed it, not now: the engine may follow the window again before this word comes.
      if (!this.blockedHere(details.tabId, details.timeStamp)) return;
      // As the script hold names a window it blocked (script-windows.ts): no session saw the request's method.
      this.tell(kept.openerId, POPUP_HELD, { url: details.url, kind: 'navigation' });
      void chrome.tabs.remove(details.tabId).catch(() => undefined);
    });
  }
}
