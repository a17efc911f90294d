// Keeps a refused site from getting even the first request of a window a driven page opens, at any time, a site the
// agent may not read from getting that of one opened while the agent acts, and any other origin from getting that of a
// window an agent's script opens: declarativeNetRequest session rules block it in the network stack, where
// chrome.debugger cannot reach in time.
import { urlOrigin } from '../../shared/engine/frame.js';
import { keptResults } from '../../shared/engine/kept-results.js';
import { EVAL_ACTIVATION_MS } from '../../shared/engine/scripted-documents.js';
import type { Policy } from '../../shared/policy/policy.js';
import { holdRules, refusedRules, scriptHoldRules, type HoldScope } from './hold-rules.js';
import { ScriptHoldRecord } from './script-hold-record.js';
import type { RuleSet, UnnumberedRule } from './session-rules.js';

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

/** What a driven tab's frames are known to hold; `ready` settles once Chrome's own list of them is merged in. */
interface TabFrames {
  /** Each frame's URL. */
  urls: Map<number, string>;
  ready: Promise<void>;
}

/**
 * One set of session rules for every driven tab that is acting or in its tail, rebuilt (in one call, so there is never
 * a moment without rules) only when what it is made of changes: an act that changes nothing costs no rule update, and
 * no Chrome call at all, as the open tabs and the driven tabs' frames are kept current from events.
 */
export class NewWindowHolds {
  /** Acts running per driven tab; a tab at 0 is in its tail. */
  private readonly acting = new Map<number, number>();
  private readonly tails = new Map<number, ReturnType<typeof setTimeout>>();
  /** Driven tabs an agent's script ran in lately, with the timer that ends their hold (see `scriptRan`). */
  private readonly scripted = new Map<number, ReturnType<typeof setTimeout>>();
  /** When the script holds' rules stood in Chrome, for the windows Chrome tells of after they came down. */
  private readonly record = new ScriptHoldRecord();
  /** Windows opened under a script hold, with their opener (see `scriptOpened`). */
  private readonly scriptWindows = new Map<number, number>();
  /** When each open tab was first heard of; the tabs open when the worker first held count as heard of long ago. */
  private readonly tabs = new Map<number, number>();
  /** The web site of each frame of the tabs held so far, per tab. */
  private readonly frames = new Map<number, TabFrames>();
  private watching: Promise<void> | undefined;
  private policy: Policy | undefined;
  /** The policy the driven tabs stand under between acts too (`follow`). */
  private standing: (() => Policy) | undefined;
  /** Rule updates one after another, each from what is held when its turn comes. */
  private updating: Promise<void> = Promise.resolve();
  /** The rules last built, and what they were built from (`rulesFor`). */
  private built:
    { key: string; standing: Policy | undefined; policy: Policy | undefined; rules: UnnumberedRule[] } | undefined;

  /** `guarded`: tabs the engine's debugger guards already, whose every request it judges itself. */
  constructor(
    private readonly guarded: () => Iterable<number>,
    private readonly rules: RuleSet,
  ) {}

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
        this.tails.set(
          tabId,
          setTimeout(() => {
            this.tails.delete(tabId);
            if (this.acting.get(tabId) === 0) this.acting.delete(tabId);
            void this.refresh().catch(() => undefined);
          }, TAIL_MS),
        );
      }
    }
  }

  /**
   * An agent's script is about to start in `tabId`, or started: a window it opens (from a timer it left, say) gets no
   * first request outside the tab's own origins. For as long as the eval's gesture lets a script open windows
   * (scripted-documents.ts), counted from the script's start, which Chrome's popup blocker counts from too: a window
   * opened later with no gesture is refused. Resolves once the rules are in Chrome (at once when they already were), so
   * a script sent after it cannot open a window faster than its hold lands, however busy the machine.
   */
  scriptRan(tabId: number): Promise<void> {
    clearTimeout(this.scripted.get(tabId));
    this.scripted.set(
      tabId,
      setTimeout(() => {
        this.scripted.delete(tabId);
        void this.refresh().catch(() => undefined);
      }, EVAL_ACTIVATION_MS),
    );
    return this.refresh();
  }

  /**
   * While any tab is driven (`guarded`), a window one of them opens never gets its first request to a site `policy`
   * refuses, whoever opened it and whenever: the page, a script the agent left, a click of the person's. The rules cannot
   * tell openers apart, so a young tab another tab of the driven sites opens there is blocked too: the policy refuses
   * that site to the agent, and a person's tab is only held for the moment it is young (SETTLED_TAB_MS).
   */
  follow(policy: () => Policy): void {
    this.standing = policy;
    this.changed();
  }

  /** The driven tabs or the policy changed: the rules follow. */
  changed(): void {
    void this.refresh().catch(() => undefined);
  }

  /**
   * Whether a navigation to `url` of a window `openerId` opened met the script hold's block: a hold of the opener that
   * does not let `url` through stood at some moment from `from` (the navigation's start) to `to` (its error). Chrome's
   * own times, not now: its word may come after the hold ended.
   */
  heldForScript(openerId: number, url: string, from: number, to?: number): boolean {
    return this.record.held(openerId, url, from, to);
  }

  /** Whether a script hold of `openerId` stood at `at` (Chrome's time of a window it opened). */
  scriptStood(openerId: number, at: number): boolean {
    return this.record.stood(openerId, at);
  }

  /**
   * `tabId` is a window `openerId` opened under its script hold: it stays in the script holds' rules while the opener's
   * stands, however old and even once the engine guards it. The engine's guard judges the window's requests by the
   * policy, which may allow a site the script may not send to (measured on Chromium 156: a window.open that kept its
   * opener was attached before its first request, the rules then left it out, and the request reached the site; so did
   * a form the script posted into a blank window it had opened and named).
   */
  scriptOpened(tabId: number, openerId: number): void {
    this.scriptWindows.set(tabId, openerId);
  }

  /** Whether `tabId` is a window opened under its opener's script hold (`scriptOpened`). */
  openedUnderScript(tabId: number): boolean {
    return this.scriptWindows.has(tabId);
  }

  /**
   * The tabs under a script's hold. An act's own hold replaces it while the act runs and in its tail: a window the act
   * opens is the act's, judged by the policy, which a script hold cannot tell from one its timer opens.
   */
  private scriptHeld(): number[] {
    return [...this.scripted.keys()].filter((tabId) => !this.acting.has(tabId));
  }

  private refresh(): Promise<void> {
    const next = this.updating.then(() => this.update());
    this.updating = next.catch(() => undefined);
    return next;
  }

  private async update(): Promise<void> {
    const acting = [...this.acting.keys()];
    const scripted = this.scriptHeld();
    const driven = this.drivenTabs();
    const standing = this.standing?.();
    const [actScope, scriptScope, drivenScope] = await Promise.all([
      acting.length > 0 && this.policy ? this.scope(acting) : undefined,
      scripted.length > 0 ? this.scope(scripted, this.windowsOf(scripted)) : undefined,
      driven.length > 0 && standing ? this.scope(driven) : undefined,
    ]);
    const origins = this.originsOf(scripted);
    const held = new Map(scriptScope ? scripted.map((tabId) => [tabId, this.originsOf([tabId])]) : []);
    const asked = Date.now();
    await this.rules.replace(this.rulesFor(standing, drivenScope, actScope, scriptScope, origins));
    this.record.landed(asked, Date.now(), held);
  }

  /**
   * The rules for what is held, the very array built last time when nothing it is made of changed: every eval asks for
   * them twice (before its script, and as it starts), and building them (regexes from the policy's patterns) cost the
   * worker 0.2–0.3 ms an eval. Policies are replaced whole, never changed in place, so one is known by its identity.
   */
  private rulesFor(
    standing: Policy | undefined,
    drivenScope: HoldScope | undefined,
    actScope: HoldScope | undefined,
    scriptScope: HoldScope | undefined,
    origins: string[],
  ): UnnumberedRule[] {
    const key = JSON.stringify([drivenScope, actScope, scriptScope, origins]);
    const built = this.built;
    if (built?.key === key && built.standing === standing && built.policy === this.policy) return built.rules;
    const rules = [
      ...(drivenScope && standing ? refusedRules(standing, drivenScope) : []),
      ...(actScope && this.policy ? holdRules(this.policy, actScope) : []),
      ...(scriptScope ? scriptHoldRules(scriptScope, origins) : []),
    ];
    this.built = { key, standing, policy: this.policy, rules };
    return rules;
  }

  /** The windows the tabs opened under their script holds. */
  private windowsOf(openers: number[]): Set<number> {
    return new Set([...this.scriptWindows].flatMap(([tabId, openerId]) => (openers.includes(openerId) ? [tabId] : [])));
  }

  /** The web origins of the tabs' frames, as far as they are known. */
  private originsOf(tabIds: number[]): string[] {
    const urls = tabIds.flatMap((tabId) => [...(this.frames.get(tabId)?.urls.values() ?? [])]);
    return [...new Set(urls.flatMap((url) => urlOrigin(url) ?? []))].filter((origin) => origin !== 'null').sort();
  }

  /**
   * Who the rules are about: the tabs never held, and the sites of the held tabs' frames (the openers). `kept`: tabs
   * held even when settled or guarded.
   */
  private async scope(held: number[], kept: ReadonlySet<number> = new Set<number>()): Promise<HoldScope | undefined> {
    await this.watch();
    await Promise.all(held.map((tabId) => this.framesOf(tabId).ready));
    const urls = held.flatMap((tabId) => [...(this.frames.get(tabId)?.urls.values() ?? [])]);
    const initiatorDomains = [...new Set(urls.flatMap(webHost))].sort();
    // A page with no web site (about:blank, file:) opens windows with an opaque initiator no rule can name.
    if (initiatorDomains.length === 0) return undefined;
    const now = Date.now();
    // A tab not heard of yet is held: it may be a popup whose tabs.onCreated is still on its way.
    const excluded = new Set([...this.tabs].flatMap(([tabId, at]) => (now - at >= SETTLED_TAB_MS ? [tabId] : [])));
    for (const tabId of this.guarded()) if (this.tabs.has(tabId)) excluded.add(tabId);
    for (const tabId of kept) excluded.delete(tabId);
    return { excludedTabIds: [...excluded].sort((a, b) => a - b), initiatorDomains };
  }

  /*
   * Listeners added on first use, not at the worker's top level: what they keep lives in this worker's memory, so a
   * stopped worker needs no waking for them, and the person's browsing (a commit in any tab) never wakes it.
   */
  private watch(): Promise<void> {
    this.watching ??= (async () => {
      chrome.tabs.onCreated.addListener((tab) => {
        if (tab.id === undefined) return;
        this.tabs.set(tab.id, Date.now());
        // Once settled it is left out of the rules, not held for as long as they happen to stand unchanged.
        if (this.anyHeld()) setTimeout(() => this.changed(), SETTLED_TAB_MS);
      });
      chrome.tabs.onReplaced.addListener((added, removed) => {
        this.tabs.set(added, this.tabs.get(removed) ?? Date.now());
        this.forget(removed);
      });
      chrome.tabs.onRemoved.addListener((tabId) => this.forget(tabId));
      chrome.webNavigation.onCommitted.addListener((details) => this.committed(details));
      // One heard of before this answer came keeps its (later) time.
      for (const tab of await chrome.tabs.query({}))
        if (tab.id !== undefined && !this.tabs.has(tab.id)) this.tabs.set(tab.id, 0);
    })();
    return this.watching;
  }

  private forget(tabId: number): void {
    this.tabs.delete(tabId);
    this.frames.delete(tabId);
    this.record.forget(tabId);
    this.scriptWindows.delete(tabId);
  }

  /** The tab's frames, asked of Chrome once; commits seen while the answer is on its way are newer, so they win. */
  private framesOf(tabId: number): TabFrames {
    let frames = this.frames.get(tabId);
    if (!frames) {
      const urls = new Map<number, string>();
      const ready = chrome.webNavigation.getAllFrames({ tabId }).then(
        (list) => {
          for (const frame of list ?? []) if (!urls.has(frame.frameId)) urls.set(frame.frameId, frame.url);
          if (this.held(tabId)) void this.refresh().catch(() => undefined);
        },
        () => undefined,
      );
      frames = { urls, ready };
      this.frames.set(tabId, frames);
    }
    return frames;
  }

  private committed(details: chrome.webNavigation.WebNavigationTransitionCallbackDetails): void {
    let frames = this.frames.get(details.tabId);
    if (!frames) return;
    if (details.frameId === 0) {
      // A page restored from the back/forward cache brings its frames back without a commit of theirs: ask again.
      if (details.transitionQualifiers.includes('forward_back')) {
        this.frames.delete(details.tabId);
        frames = this.framesOf(details.tabId);
      } else {
        frames.urls.clear();
      }
    }
    frames.urls.set(details.frameId, details.url);
    // The opener's sites changed mid-act (its click navigated): the rules follow now, not at the next act.
    if (this.held(details.tabId)) void this.refresh().catch(() => undefined);
  }

  private held(tabId: number): boolean {
    return this.acting.has(tabId) || this.scripted.has(tabId) || this.drivenTabs().includes(tabId);
  }

  private anyHeld(): boolean {
    return this.acting.size > 0 || this.scripted.size > 0 || this.drivenTabs().length > 0;
  }

  /** The tabs the standing rules are about: every driven one, once there is a policy to follow. */
  private drivenTabs(): number[] {
    return this.standing ? [...this.guarded()] : [];
  }
}

/** The host of an http(s) URL (none for any other); the frames' URLs are asked about on every eval. */
const webHost = keptResults((url): string[] => {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? [parsed.hostname] : [];
  } catch {
    return [];
  }
});
