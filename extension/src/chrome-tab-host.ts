// The engine's TabHost inside the person's Chrome: chrome.tabs of normal and popup windows, one chrome.debugger attach
// per tab kept until it detaches, agent tabs in the "Chrome MCP" group, word of driven tabs' popups, and rules holding
// what the agent's acts and scripts start that no attachment follows: first requests, workers, windows, scripted tabs.
import type { Cdp } from '../../shared/engine/cdp.js';
import { urlOrigin } from '../../shared/engine/frame.js';
import { POPUP_HELD } from '../../shared/engine/popup-events.js';
import type { HostTab, Popup, TabHost } from '../../shared/engine/tab-host.js';
import { DEFAULT_POLICY, type Policy } from '../../shared/policy/policy.js';
import { ToolError } from '../../shared/protocol/errors.js';
import { attachDebugger, focusedWindowId, hasId, hostTab, judged, tabIdOf } from './chrome-tabs.js';
import { DebuggerTab, TARGET_CLOSED } from './debugger-tab.js';
import { isPopupHoldRule, isScriptedTabRule } from './hold-rules.js';
import { NewWindowHolds } from './new-window-hold.js';
import { OpenerTells } from './opener-tells.js';
import { LentWorkers } from './lent-workers.js';
import { letGo, sweepStaleAttachments } from './let-go.js';
import { OrphanRequests } from './orphan-requests.js';
import { PausedRecord } from './paused-record.js';
import type { LinkPolicy } from './policy-holder.js';
import { PopupHolds } from './popup-holds.js';
import { PreloadingSwitch } from './preloading.js';
import { ScriptWindows } from './script-windows.js';
import { ScriptedTabs } from './scripted-tabs.js';
import { isWorkerRule, ScriptedWorkers } from './scripted-workers.js';
import { SessionRules } from './session-rules.js';
import { addToAgentGroup } from './tab-group.js';
import { TabChanges } from './tab-changes.js';
import { TopUrls } from './top-urls.js';

export class ChromeTabHost implements TabHost {
  /** The person's own Chrome: a tab no agent opened is theirs (its dialogs theirs to answer, its size theirs). */
  readonly personsTabs = true;
  /** Attach in progress or done, per tab (possibly detached since: cdp() checks). */
  private readonly attaching = new Map<number, Promise<DebuggerTab>>();
  /** Attached tabs, for routing chrome.debugger events synchronously. */
  private readonly live = new Map<number, DebuggerTab>();
  /** Detach in progress per tab; an attach waits for it, so the two never interleave. */
  private readonly detaching = new Map<number, Promise<void>>();
  private readonly popupListeners = new Set<(popup: Popup) => Promise<void>>();
  private readonly rules = new SessionRules();
  /** Attached tabs are excluded from it: the debugger already judges their every request. */
  private readonly newWindows = new NewWindowHolds(() => this.live.keys(), this.rules.set());
  private readonly workers = new ScriptedWorkers(this.rules.set(isWorkerRule));
  /** The site's workers no tab owns, lent to a tab's gate during an act (Cdp.lendWorkers). */
  private readonly lentWorkers = new LentWorkers(this.rules.set());
  /** The tabs an agent's script ran in: held by rules while no engine follows them. */
  private readonly scripted = new ScriptedTabs(this.rules.set(isScriptedTabRule));
  /** The URL each child session (an out-of-process frame) was attached at, to say which origin ran a script there. */
  private readonly childUrls = new Map<string, string>();
  private readonly tells = new OpenerTells((tabId) => this.live.get(tabId));
  /** What the attachments paused and no guard answered yet, for the next worker to fail should this one stop. */
  private readonly paused = new PausedRecord();
  private readonly scriptWindows = new ScriptWindows(this.newWindows, (openerId, method, params) =>
    this.tells.tell(openerId, { method, params }),
  );
  private readonly popups = new PopupHolds(
    this.rules.set(isPopupHoldRule),
    (openerId, method, params) => this.tells.tell(openerId, { method, params }),
    (tabId) => this.newWindows.openedUnderScript(tabId),
  );
  /**
   * Attachments outlive a stopped worker (measured): the new worker lets go of them before attaching anew, once the
   * windows the old one followed are held by rules instead and what it left paused there is failed.
   */
  private readonly swept = Promise.all([this.popups.ready, this.scripted.ready]).then(() =>
    sweepStaleAttachments(...this.orphans.naming),
  );
  /** Requests an attachment no engine holds paused: failed, and named to their tab or a kept window's opener. */
  private readonly orphans = new OrphanRequests((tabId, send) => {
    void this.popups.failed(tabId, send).then((window) => {
      if (!window) this.tells.tell(tabId, { method: POPUP_HELD, params: { ...send } });
    });
  });
  /** Chrome's "Preload pages", turned off before the first script of the agent's runs. */
  private readonly preloading = new PreloadingSwitch();
  /** Word of each tab's next update, detach or close: the engine's attaches at start try again then (TabHost.nextChange). */
  private readonly changes = new TabChanges();
  readonly nextChange = (id: string, ms: number): Promise<void> => this.changes.next(tabIdOf(id), ms);
  /** Each tab's top URL, kept current by the navigation events. */
  private readonly topUrls = new TopUrls();
  /** The policy of the link now driving tabs; none before the first link, when no engine listens either. */
  private linkPolicy: LinkPolicy = { current: () => DEFAULT_POLICY, loaded: new Promise(() => undefined) };

  async list(): Promise<HostTab[]> {
    // Popup windows too: a page's window.open with features (sign-in, share) opens one, and the agent must find it.
    const [normal, popups, focused] = await Promise.all([
      chrome.tabs.query({ windowType: 'normal' }),
      chrome.tabs.query({ windowType: 'popup' }),
      focusedWindowId(),
    ]);
    return [...normal, ...popups].filter(hasId).map((tab) => hostTab(tab, focused));
  }

  async create(url: string, opts: { focus: boolean }): Promise<HostTab> {
    const windowId = await focusedWindowId();
    const tab =
      windowId === undefined
        ? (await chrome.windows.create({ url, focused: opts.focus, type: 'normal' }))?.tabs?.[0]
        : await chrome.tabs.create({ windowId, url, active: opts.focus });
    if (!tab || !hasId(tab)) throw new ToolError('INTERNAL', 'Chrome opened no tab.');
    if (opts.focus && windowId !== undefined) await chrome.windows.update(windowId, { focused: true });
    // The group only labels the tab for the person: a window that cannot hold groups still gets the tab.
    await addToAgentGroup(tab).catch(() => undefined);
    return hostTab(tab, opts.focus ? tab.windowId : undefined);
  }

  async close(id: string): Promise<void> {
    const tabId = tabIdOf(id);
    await chrome.tabs.remove(tabId).catch(() => {
      throw new ToolError('TAB_NOT_FOUND');
    });
    this.removed(tabId);
  }

  async activate(id: string): Promise<void> {
    const tab = await chrome.tabs.update(tabIdOf(id), { active: true }).catch(() => undefined);
    if (!tab) throw new ToolError('TAB_NOT_FOUND');
    await chrome.windows.update(tab.windowId, { focused: true });
  }

  async cdp(id: string): Promise<Cdp> {
    const tabId = tabIdOf(id);
    const attempt = this.attached(tabId);
    const tab = await attempt;
    if (tab.attached) return tab;
    // Detached since it was made (the tab crashed, the person pressed Cancel on the debugging bar): attach afresh.
    if (this.attaching.get(tabId) === attempt) this.attaching.delete(tabId);
    return this.attached(tabId);
  }

  /** A new listener (a new session's engine) is handed the windows kept from before that none follows now. */
  onPopup(listener: (popup: Popup) => Promise<void>): () => void {
    this.popupListeners.add(listener);
    // After the last session's detaches: what it still followed is handed over once let go of.
    void Promise.all(this.detaching.values())
      .then(() => this.popups.unfollowedIds())
      .then((tabIds) => {
        for (const tabId of tabIds) this.followAgain(tabId, [listener]);
      });
    return () => this.popupListeners.delete(listener);
  }

  /** The tabs an agent's script ran in that no engine follows now, once the last session's detaches are done. */
  async scriptedTabs(): Promise<string[]> {
    await Promise.all(this.detaching.values());
    return (await this.scripted.unfollowedIds()).map(String);
  }

  /** The policy of the link now driving tabs: windows they open never reach a site it refuses, between acts too. */
  follow(policy: LinkPolicy): void {
    this.linkPolicy = policy;
    this.newWindows.follow(() => policy.current());
  }

  /** The link's policy changed: the standing rules follow it at once, not at the next act. */
  policyChanged(): void {
    this.newWindows.changed();
  }

  holdNewWindows<T>(openerId: string, policy: Policy, run: () => Promise<T>): Promise<T> {
    return this.newWindows.hold(tabIdOf(openerId), policy, run);
  }

  /**
   * webNavigation.onCreatedNavigationTarget, registered at the worker's top level: a tab a page opened (window.open, a
   * target=_blank link or form). It names its real opener, where tabs.onCreated's openerTabId names whichever tab was
   * active, not the background tab the agent drives. chrome.debugger cannot hold a new tab before its first request,
   * so this arrives while the popup may already be loading: the engine closes it when its URL is refused, and guards it
   * otherwise. During an act (holdNewWindows) a refused one never loaded: its first request was blocked.
   */
  popupOpened(details: { sourceTabId: number; tabId: number; url: string; timeStamp: number }): void {
    if (!this.live.has(details.sourceTabId)) return this.scriptWindows.stray(details, this.swept);
    this.scriptWindows.opened(details);
    // The script hold stands only for the eval's activation; its script may drive the window later (popup-attach.ts).
    const popup = this.popupOf(details.tabId, details.sourceTabId, details.url);
    for (const listener of this.popupListeners) void listener(popup).catch(() => undefined);
  }

  /** A window kept from before a re-attach, handed to the engine to follow again as it was judged (popup-holds.ts). */
  private followAgain(tabId: number, listeners: Iterable<(popup: Popup) => Promise<void>>): void {
    const kept = this.popups.offer(tabId);
    if (!kept) return;
    // Judged once, and for good when refused (popup-attach.ts): never by the safe default a link starts from.
    void this.linkPolicy.loaded
      .then(() => chrome.tabs.get(tabId))
      .then(
        (tab) => {
          const popup = { ...this.popupOf(tabId, kept.openerId, tab.url || tab.pendingUrl || ''), kept: judged(kept) };
          for (const listener of listeners) void listener(popup).catch(() => undefined);
        },
        () => this.popups.closed(tabId),
      );
  }

  /** A window of `openerId` for the engine to follow: what it tells goes to the opener's trail, what it judges is kept. */
  private popupOf(tabId: number, openerId: number, url: string): Popup {
    return {
      id: String(tabId),
      openerId: String(openerId),
      ...(url ? { url } : {}),
      tellOpener: (event) => this.tells.tell(openerId, event),
      // A word that comes once the attachment ended keeps the judgement, not the follow.
      keep: (judgement) => this.popups.keep(tabId, openerId, judgement, this.live.has(tabId)),
    };
  }

  /** chrome.debugger.onEvent, registered at the worker's top level. */
  onEvent(source: chrome.debugger.DebuggerSession, method: string, params: Record<string, unknown> | undefined): void {
    if (source.tabId === undefined) {
      if (source.targetId !== undefined) this.lentWorkers.event(source.targetId, method, params ?? {});
      return;
    }
    if (method === 'Target.attachedToTarget' && params)
      this.childUrls.set(String(params['sessionId']), (params['targetInfo'] as { url: string }).url);
    if (method === 'Target.detachedFromTarget' && params) this.childUrls.delete(String(params['sessionId']));
    if (method === 'Debugger.scriptParsed' && this.live.get(source.tabId)?.sentScript(String(params?.['url'])))
      this.scriptRan(source.tabId);
    if (method === 'Page.frameRequestedNavigation' && params) this.scriptWindows.requested(source.tabId, params);
    if (method === 'Page.frameNavigated' && params && source.sessionId === undefined)
      this.topNavigated(source.tabId, params);
    const tab = this.live.get(source.tabId);
    if (tab && method === 'Fetch.requestPaused' && params) this.paused.paused(source.tabId, source.sessionId, params);
    if (tab) return tab.dispatch(method, params ?? {}, source.sessionId);
    if (method === 'Fetch.requestPaused' && params) this.orphans.paused(source.tabId, source, params);
  }

  /**
   * An agent's script this attachment sent started in the tab (the engine tags its every eval, script-initiator.ts):
   * what it may start that no debugger session of the tab reaches is held: the windows it opens (the workers of its
   * origin already are). One an earlier attachment sent, told of again on a re-attach, starts nothing now: a hold
   * counted from then would outlast its gesture, blocking a window the person opens there and failing a kept window's
   * navigation before the engine that follows the window again could name it.
   */
  private scriptRan(tabId: number): void {
    this.scriptWindows.listen();
    // Counted again from its start; the rules are those its sending armed, so no update follows. Its workers were held
    // before it was sent (attach's beforeScript), which nothing here changes.
    void this.newWindows.scriptRan(tabId).catch(() => undefined);
  }

  /** Page.frameNavigated of a tab's own session: a new top document ends what the script left in the old one. */
  private topNavigated(tabId: number, params: Record<string, unknown>): void {
    const { frame, type } = params as { frame: { parentId?: string; url: string }; type?: string };
    if (frame.parentId === undefined)
      this.scripted.navigated(tabId, { url: frame.url, back: type === 'BackForwardCacheRestore' });
  }

  /** A script about to run: the tab kept as scripted (top and frame origins), its origin's workers held to it. */
  private async holdScript(tabId: number, sessionId: string | undefined): Promise<void> {
    const top = urlOrigin(await this.topUrls.url(tabId));
    const origin = sessionId === undefined ? top : urlOrigin(this.childUrls.get(sessionId) ?? '');
    await Promise.all([
      this.scripted.ran(tabId, [top, origin]),
      this.live.has(tabId) ? this.workers.scriptRan(tabId, origin) : undefined,
    ]);
  }

  /**
   * chrome.debugger.onDetach: the attachment is gone, and the next command attaches afresh. What an agent's script
   * started in the tab stays held: the page it ran in lives on.
   */
  ended(tabId: number, reason: string): void {
    this.paused.ended(tabId);
    this.live.get(tabId)?.detached(reason);
    this.live.delete(tabId);
    this.scriptWindows.ended(tabId);
    this.popups.unfollowed(tabId);
    void this.scripted.unfollowed(tabId);
    this.newWindows.changed();
    // An attach refused while another debugger held the tab may pass now.
    this.changes.changed(tabId);
  }

  /** chrome.debugger.onDetach of a target attached by its id: a lent worker stopped, or was let go of. */
  workerEnded(targetId: string): void {
    this.lentWorkers.detached(targetId);
  }

  /** tabs.onRemoved: the tab is gone, and with its pages what the scripts left there (its workers' hold has a grace). */
  removed(tabId: number): void {
    this.popups.closed(tabId);
    this.tells.forget(tabId);
    this.scripted.closed(tabId);
    this.ended(tabId, TARGET_CLOSED);
    this.workers.closed(tabId);
  }

  /** The worker hold's alarm (WORKER_HOLD_ALARM) went off. */
  workerHoldDue(): void {
    this.workers.due();
  }

  /**
   * Lets go of every tab, so the next session starts from fresh attachments (and Chrome's debugging bar goes away); what
   * they hold paused is failed first (let-go.ts). Call before the engine is disposed: the tabs end at once, so its last
   * commands (a Fetch.disable, which lets every paused request go like a detach) never reach Chrome.
   */
  async detachAll(): Promise<void> {
    const attempts = [...this.attaching];
    this.attaching.clear();
    this.popups.letGo();
    const end = (tabId: number, tab: DebuggerTab) => {
      tab.detached('session ended');
      if (this.live.get(tabId) === tab) this.live.delete(tabId);
    };
    for (const [tabId, tab] of this.live) end(tabId, tab);
    await Promise.all(
      attempts.map(([tabId, attempt]) => {
        // An attach still in flight is let go of too once it lands; a new attach of the tab waits for all of it.
        const done: Promise<void> = attempt
          .then(async (tab) => {
            end(tabId, tab);
            this.popups.unfollowed(tabId);
            // What a script left in the tab is held by rules before the detach leaves it unfollowed.
            await this.scripted.unfollowed(tabId);
            return letGo(tabId, this.paused, ...this.orphans.naming);
          })
          .catch(() => undefined)
          .finally(() => {
            if (this.detaching.get(tabId) === done) this.detaching.delete(tabId);
          });
        this.detaching.set(tabId, done);
        return done;
      }),
    );
    this.newWindows.changed();
  }

  /** The tab's attachment, made once however many calls ask at the same time. */
  private attached(tabId: number): Promise<DebuggerTab> {
    let attempt = this.attaching.get(tabId);
    if (!attempt) {
      const made = this.attach(tabId);
      attempt = made;
      this.attaching.set(tabId, made);
      made.catch(() => {
        if (this.attaching.get(tabId) === made) this.attaching.delete(tabId);
      });
    }
    return attempt;
  }

  private async attach(tabId: number): Promise<DebuggerTab> {
    await this.swept;
    await this.detaching.get(tabId);
    await attachDebugger(tabId);
    // The script's windows and its site's workers are held before it is sent: Debugger.scriptParsed comes once it
    // already runs (measured: a message it posts to the site's service worker at once got out before those rules).
    const holdWindows = () => {
      this.scriptWindows.listen();
      return this.newWindows.scriptRan(tabId);
    };
    const tab = new DebuggerTab(
      tabId,
      async (sessionId) => {
        // A hold Chrome refused leaves the script as guarded as before the hold existed: it runs all the same. Preloading
        // left on would let the browser send what the script puts in a link: then it is refused (PRELOADING_ON).
        const holds = Promise.allSettled([holdWindows(), this.holdScript(tabId, sessionId)]);
        await Promise.all([holds, this.preloading.off()]);
        this.tells.scriptSent(tab);
      },
      (method, params, sessionId) => this.paused.sent(tabId, method, params, sessionId),
      holdWindows,
      this.lentWorkers,
      // Held by rules until the engine follows again what a script left there (shared/engine/tab-attach.ts).
      this.scripted.has(tabId)
        ? {
            following: () => {
              if (this.live.get(tabId) === tab) this.scripted.following(tabId);
            },
          }
        : undefined,
    );
    this.live.set(tabId, tab);
    this.newWindows.changed();
    // A window kept from before, attached again for any reason (an agent's call on it): followed again as well.
    this.followAgain(tabId, this.popupListeners);
    return tab;
  }
}
