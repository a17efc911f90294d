// Keeps a refused site from getting even the first request of a window a driven page opens while the agent acts:
// declarativeNetRequest session rules block it in the network stack, where chrome.debugger cannot reach in time.
import type { Policy } from '../../shared/policy/policy.js';
import { holdRules, type HoldRule, type HoldScope } from './hold-rules.js';

/*
 * How long a tab stays held after its act returns: a page may open its window a moment after the click (a handler that
 * awaits a fetch or a timer), and the act returns as soon as its input is out and any navigation settled. 1.5 s covers
 * the common "click, await something short, window.open". Not longer, because DNR cannot tell openers apart: while the
 * rules are up, a window that another tab of the same site opens towards a site the agent may not read is blocked too,
 * and that tab may be the person's. Chrome would let a popup through for the 5 s a click's activation lasts; one opened
 * after the tail is what it was before the hold: closed by the engine once it is told of it (popupOpened).
 */
const TAIL_MS = 1_500;

/*
 * A tab Chrome has shown for this long has sent its first request: from then on it is the person's tab or a popup the
 * engine has judged (closed, or attached and guarded), so it is no longer held. Younger ones may still be a popup whose
 * first request is on its way.
 */
const SETTLED_TAB_MS = 2_000;

/**
 * One set of session rules for every driven tab that is acting or in its tail, rebuilt (in one call, so there is never
 * a moment without rules) only when what it is made of changes: an act that changes nothing costs no rule update.
 */
export class NewWindowHolds {
  /** Acts running per driven tab; a tab at 0 is in its tail. */
  private readonly acting = new Map<number, number>();
  private readonly tails = new Map<number, ReturnType<typeof setTimeout>>();
  /** When each tab was first seen since the hold went up; the tabs open then count as seen long ago. */
  private seen: Map<number, number> | undefined;
  private policy: Policy | undefined;
  private ids: number[] = [];
  private shape = '[]';
  private nextId = 1;
  /** Rule updates one after another; session rules outlive a stopped worker, so the first clears what one left. */
  private updating: Promise<void> = clearSessionRules();

  /** `guarded`: tabs the engine's debugger guards already, whose every request it judges itself. */
  constructor(private readonly guarded: () => Iterable<number>) {}

  /** Runs `run` (an act in `tabId`) with the first request of new windows held to `policy`, and a tail after it. */
  async hold<T>(tabId: number, policy: Policy, run: () => Promise<T>): Promise<T> {
    clearTimeout(this.tails.get(tabId));
    this.tails.delete(tabId);
    this.acting.set(tabId, (this.acting.get(tabId) ?? 0) + 1);
    this.policy = policy;
    try {
      // A hold Chrome refused (over its regex budget) leaves the act as guarded as before the hold existed.
      await this.refresh().catch(() => undefined);
      return await run();
    } finally {
      const left = (this.acting.get(tabId) ?? 1) - 1;
      this.acting.set(tabId, left);
      if (left === 0) {
        this.tails.set(tabId, setTimeout(() => {
          this.tails.delete(tabId);
          if (this.acting.get(tabId) === 0) this.acting.delete(tabId);
          void this.refresh().catch(() => undefined);
        }, TAIL_MS));
      }
    }
  }

  private refresh(): Promise<void> {
    const next = this.updating.then(() => this.update());
    this.updating = next.catch(() => undefined);
    return next;
  }

  private async update(): Promise<void> {
    const held = [...this.acting.keys()];
    const scope = held.length > 0 && this.policy ? await this.scope(held) : undefined;
    if (!scope) this.seen = undefined;
    const rules = scope && this.policy ? holdRules(this.policy, scope) : [];
    const shape = JSON.stringify(rules);
    if (shape === this.shape) return;
    // Ids are never reused within a worker, so a late removal can never take rules that replaced them.
    const addRules: HoldRule[] = rules.map((rule) => ({ id: this.nextId++, ...rule }));
    await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: this.ids, addRules: addRules as unknown as chrome.declarativeNetRequest.Rule[] });
    this.ids = addRules.map((rule) => rule.id);
    this.shape = shape;
  }

  /** Who the rules are about: the tabs never held, and the sites of the held tabs' frames (the openers). */
  private async scope(held: number[]): Promise<HoldScope | undefined> {
    const [tabs, ...frames] = await Promise.all([
      chrome.tabs.query({}),
      ...held.map((tabId) => chrome.webNavigation.getAllFrames({ tabId }).catch(() => null)),
    ]);
    const initiatorDomains = [...new Set(frames.flatMap((list) => (list ?? []).flatMap((frame) => webHost(frame.url))))].sort();
    // A page with no web site (about:blank, file:) opens windows with an opaque initiator no rule can name.
    if (initiatorDomains.length === 0) return undefined;
    const now = Date.now();
    const seen = this.seen ?? new Map<number, number>();
    const first = !this.seen;
    this.seen = seen;
    const open = new Set<number>();
    for (const tab of tabs) {
      if (tab.id === undefined) continue;
      open.add(tab.id);
      if (!seen.has(tab.id)) seen.set(tab.id, first ? 0 : now);
    }
    for (const tabId of seen.keys()) if (!open.has(tabId)) seen.delete(tabId);
    const excluded = new Set([...seen].flatMap(([tabId, at]) => (now - at >= SETTLED_TAB_MS ? [tabId] : [])));
    for (const tabId of this.guarded()) if (open.has(tabId)) excluded.add(tabId);
    return { excludedTabIds: [...excluded].sort((a, b) => a - b), initiatorDomains };
  }
}

function webHost(url: string): string[] {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? [parsed.hostname] : [];
  } catch {
    return [];
  }
}

async function clearSessionRules(): Promise<void> {
  const stale = await chrome.declarativeNetRequest.getSessionRules().catch(() => []);
  if (stale.length === 0) return;
  await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: stale.map((rule) => rule.id) }).catch(() => undefined);
}
