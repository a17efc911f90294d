// The agents' view of a browser's tabs: handles, each agent's current tab, the tabs they opened, and a PageContext per tab.
import { ToolError } from '../protocol/errors.js';
import type { AgentContext } from '../protocol/operations.js';
import { AgentCurrents } from './agent-currents.js';
import type { Dialog } from './dialogs.js';
import type { Send } from './egress-ledger.js';
import type { PageContext } from './page-context.js';
import { maskedTab, type PolicyGate } from './policy-gate.js';
import type { SavedDialog, TabSessionState, TabSessionStore } from './session-state.js';
import { TabHandles } from './tab-handles.js';
import { TabSetups } from './tab-setups.js';
import { NewTabs, type OpenedTab } from './new-tabs.js';
import { attachPopup } from './popup-attach.js';
import { attachTab, type AttachedTab } from './tab-attach.js';
import { attachForRestore } from './restore-attach.js';
import type { HostTab, Popup, TabHost } from './tab-host.js';

export interface SessionTab extends HostTab {
  handle: string;
  /** The asking agent's current tab. */
  current: boolean;
  /** Another agent's current tab: `tab_use` leaves it to that agent. */
  taken: boolean;
  /** Opened by an agent, so an agent may close it. */
  owned: boolean;
  /** The JavaScript dialog open on it, when the engine is attached and one is. */
  dialog?: Dialog;
}

export interface TabInUse {
  hostId: string;
  handle: string;
  /** No handle was given: the agent's current (or adopted) tab. */
  implicit: boolean;
  page: PageContext;
}

export class TabSession {
  private readonly owned: Set<string>;
  private readonly attached = new Map<string, Promise<AttachedTab>>();
  /** The same tabs' contexts once attached, for what a listing shows without waiting (an open dialog). */
  private readonly pages = new Map<string, PageContext>();
  /** The start's attaches still trying (restoreSetups), by tab. */
  private readonly reattaching = new Map<string, Promise<boolean>>();
  private readonly handles: TabHandles;
  private readonly currents: AgentCurrents;
  private readonly stopPopups: () => void;
  /** Acts watching for the tabs they open (new-tabs.ts). */
  private readonly popupWatchers = new Set<(popup: Popup) => void>();
  /** Where tabs an act opened are going, until their tab strip shows it (a fallback popup shows nothing before it commits). */
  private readonly heading = new Map<string, string>();
  /** Dialogs open when an earlier run of the host stopped, by tab, for the first attach to name (dialogs.ts). */
  private readonly savedDialogs: Map<string, SavedDialog>;
  /** What an earlier run of the host lost on each tab (routes, a trace), for the next call there to name. */
  readonly setups: TabSetups;

  /**
   * `store` carries the state across restarts of the host (see session-state.ts); without one it lives in memory.
   * `onPersonStop` hears the person press Esc in a tab while the agent acts there, with the tab's handle.
   */
  constructor(
    private readonly host: TabHost,
    private readonly gate: PolicyGate,
    tag: string,
    private readonly store?: TabSessionStore,
    private readonly onPersonStop?: (where: string) => void,
  ) {
    const initial = store?.initial;
    this.handles = new TabHandles(
      tag,
      initial?.tag === tag ? { handles: initial.handles, next: initial.nextHandle } : undefined,
    );
    this.owned = new Set(initial?.owned);
    this.savedDialogs = new Map(initial?.dialogs);
    this.setups = new TabSetups(initial?.setups);
    this.currents = new AgentCurrents(initial);
    this.stopPopups = host.onPopup((popup) => this.popup(popup));
  }

  /**
   * Attaches the tabs whose routes an earlier run of the host kept, which sets them again there (tab-setups.ts), and
   * those an agent's script ran in that no engine follows now, which follows the script there again.
   */
  restoreSetups(): void {
    for (const hostId of this.setups.pendingTabs())
      void this.attachAgain(hostId).then((attached) => {
        if (!attached) this.setups.notRestored(hostId);
      });
    void this.host.scriptedTabs?.().then((hostIds) => {
      for (const hostId of hostIds) void this.attachAgain(hostId);
    });
  }

  /** The open tabs, `current` marking the agent's own. */
  async list(agent: AgentContext): Promise<SessionTab[]> {
    this.currents.prune(agent);
    const tabs = await this.openTabs(agent.id);
    return this.listed(tabs, agent.id, this.currents.of(agent.id));
  }

  /** The open tabs, `current` marking the tab an agent used last: what `status` shows. */
  async overview(): Promise<SessionTab[]> {
    const tabs = await this.openTabs(undefined);
    return this.listed(tabs, undefined, this.currents.latest());
  }

  /**
   * The tab a page operation runs on, which becomes the agent's current tab: the named one, else its current one,
   * else (first use) the one it adopts.
   */
  async use(agent: AgentContext, handle: string | undefined): Promise<TabInUse> {
    this.currents.prune(agent);
    const { hostId, adopted } =
      handle !== undefined ? { hostId: this.handles.hostId(handle), adopted: false } : await this.currentOf(agent);
    const tab = { hostId, handle: this.handles.handleFor(hostId), implicit: handle === undefined };
    try {
      const page = await this.page(hostId);
      // Before the call's own work, so what it loads is in the log (network-log.ts).
      if (agent.devtools) await page.network.start();
      this.currents.set(agent.id, hostId);
      this.changed();
      return { ...tab, page };
    } catch (error) {
      // Refused at attach (a site the person did not allow): the next call adopts afresh, maybe another tab by then.
      if (adopted) this.currents.unset(agent.id, hostId);
      if (!(error instanceof ToolError && error.code === 'TAB_NOT_FOUND')) throw error;
      throw this.lost(agent, tab);
    }
  }

  /** After a call: what it set up on its tab (routes, a trace) is saved, for a restarted host to name as lost. */
  remember(): void {
    this.changed();
  }

  /** Forgets a tab found closed mid-call (its detach event may not have arrived yet) and says which one it was. */
  lost(agent: AgentContext, tab: Omit<TabInUse, 'page'>): ToolError {
    this.forget(tab.hostId, agent.id);
    return closedError(tab.handle, tab.implicit);
  }

  /** Opens a blank tab the agents own and makes it this agent's current tab; callers navigate it. */
  async open(agent: AgentContext, focus: boolean): Promise<TabInUse> {
    const tab = await this.host.create('about:blank', { focus });
    this.owned.add(tab.id);
    this.changed();
    return this.use(agent, this.handles.handleFor(tab.id));
  }

  async select(agent: AgentContext, handle: string, focus: boolean): Promise<SessionTab> {
    const hostId = this.handles.hostId(handle);
    const tab = (await this.list(agent)).find((candidate) => candidate.id === hostId);
    if (!tab) throw new ToolError('TAB_NOT_FOUND', `Tab ${handle} was closed.`);
    if (focus) await this.host.activate(hostId);
    this.currents.set(agent.id, hostId);
    this.changed();
    return { ...tab, current: true, active: tab.active || focus };
  }

  /** Closes a tab an agent opened (default the agent's current one). */
  async close(agent: AgentContext, handle: string | undefined): Promise<{ handle: string; leftGuard: boolean }> {
    this.currents.prune(agent);
    const hostId = handle !== undefined ? this.handles.hostId(handle) : this.currents.of(agent.id);
    if (hostId === undefined) throw new ToolError('NO_TAB', 'No current tab to close; pass tab.');
    const named = this.handles.handleFor(hostId);
    if (!this.owned.has(hostId)) {
      throw new ToolError('NOT_OWNED', `${named} was not opened by this agent, so it stays open.`, {
        next: 'Leave it open, or ask the person to close it.',
      });
    }
    // Closing is leaving: a "leave site?" guard the close meets is answered by leaving, never left to hang the call.
    const page = await this.attached.get(hostId)?.then(
      (entry) => entry.page,
      () => undefined,
    );
    const close = () => this.host.close(hostId);
    let guard = false;
    if (page) ({ guard } = await page.dialogs.leavingPast(() => page.frames.releaseWorkers().then(close)));
    else await close();
    this.forget(hostId, agent.id);
    return { handle: named, leftGuard: guard };
  }

  /** Watches an act in `openerId` for the tabs it opens; `page` is the opener's. */
  newTabs(page: PageContext, openerId: string): NewTabs {
    return new NewTabs(page, openerId, (listener) => {
      this.popupWatchers.add(listener);
      return () => this.popupWatchers.delete(listener);
    });
  }

  /**
   * Tabs an act opened become the agents' own, as if opened with `tab_new`: the agent may close and resize them. Listed
   * at once with where they are going. Answers their handles.
   */
  claimOpened(opened: OpenedTab[]): { handle: string; url: string }[] {
    const claimed = opened.map((tab) => {
      this.owned.add(tab.hostId);
      if (tab.url) this.heading.set(tab.hostId, tab.url);
      return { handle: this.handles.handleFor(tab.hostId), url: maskedTab(this.gate, { url: tab.url, title: '' }).url };
    });
    if (claimed.length > 0) this.changed();
    return claimed;
  }

  /** Whether agents may change how a tab is shown (its viewport): a tab one opened, or any in a browser we launched. */
  mayReshape(hostId: string): boolean {
    return this.host.personsTabs !== true || this.owned.has(hostId);
  }

  async isOpen(hostId: string): Promise<boolean> {
    return (await this.host.list()).some((tab) => tab.id === hostId);
  }

  /** Drops every page context; answers, once settled, what the tabs held paused and failed rather than let go. */
  async dispose(): Promise<Send[]> {
    this.stopPopups();
    return (await Promise.all([...this.attached.keys()].map((hostId) => this.detach(hostId)))).flat();
  }

  /** A popup of a tab we drive: acts watching for the tabs they open hear of it, then the engine attaches it. */
  private async popup(popup: Popup): Promise<void> {
    for (const watcher of this.popupWatchers) watcher(popup);
    await attachPopup(popup, this.host, this.gate, (hostId) => this.page(hostId), this.pages.get(popup.openerId));
  }

  /** The agent's current tab, else the one it adopts now; TAB_NOT_FOUND, once, when someone else closed its current tab. */
  private async currentOf(agent: AgentContext): Promise<{ hostId: string; adopted: boolean }> {
    const closed = this.currents.takeClosed(agent.id);
    if (closed !== undefined) {
      this.changed();
      throw closedError(closed, true);
    }
    const current = this.currents.of(agent.id);
    return current !== undefined
      ? { hostId: current, adopted: false }
      : { hostId: await this.adopt(agent), adopted: true };
  }

  /**
   * An agent's first tab: the browser's active one (the fallback browser starts with one blank tab, and adopting it
   * saves a call), unless another agent is on it: then a blank tab of its own, in the background like `tab_new`.
   * Claimed before anything else is awaited, so two agents starting at once never adopt the same tab.
   */
  private async adopt(agent: AgentContext): Promise<string> {
    const tabs = await this.host.list();
    const tab = tabs.find((candidate) => candidate.active) ?? tabs[0];
    if (!tab) throw new ToolError('NO_TAB', 'The browser has no tabs open.');
    if (!this.currents.heldByOther(agent.id, tab.id)) {
      this.currents.set(agent.id, tab.id);
      return tab.id;
    }
    const opened = await this.host.create('about:blank', { focus: false });
    this.owned.add(opened.id);
    this.currents.set(agent.id, opened.id);
    return opened.id;
  }

  /** The browser's tabs, after forgetting those closed since; `by` is the agent looking, who needs no report. */
  private async openTabs(by: string | undefined): Promise<HostTab[]> {
    const tabs = await this.host.list();
    const open = new Set(tabs.map((tab) => tab.id));
    for (const id of [...this.owned, ...this.currents.tabs()]) if (!open.has(id)) this.forget(id, by);
    return tabs;
  }

  /** `agent`: who asks (none for `status`); `current`: the tab to mark as current. */
  private listed(tabs: HostTab[], agent: string | undefined, current: string | undefined): SessionTab[] {
    const listed = tabs.map((tab) => {
      const dialog = this.pages.get(tab.id)?.dialogs.open;
      return {
        ...maskedTab(this.gate, { ...tab, url: tab.url || (this.heading.get(tab.id) ?? '') }),
        handle: this.handles.handleFor(tab.id),
        current: tab.id === current,
        taken: agent !== undefined && this.currents.heldByOther(agent, tab.id),
        owned: this.owned.has(tab.id),
        ...(dialog ? { dialog } : {}),
      };
    });
    this.changed();
    return listed;
  }

  private page(hostId: string): Promise<PageContext> {
    let attached = this.attached.get(hostId);
    if (!attached) {
      attached = this.attach(hostId);
      this.attached.set(hostId, attached);
      // Its routes stay to set again: the start's attach tries again (restoreSetups), and so does the next call.
      attached.catch(() => this.attached.delete(hostId));
    }
    return attached.then((entry) => entry.page);
  }

  /** A tab attached at the host's start, tried again while its attach is refused for a while (restore-attach.ts). */
  private attachAgain(hostId: string): Promise<boolean> {
    // A policy change mid-way calls restoreSetups again: the tries already under way are the ones that count.
    let trying = this.reattaching.get(hostId);
    if (!trying) {
      trying = attachForRestore(
        hostId,
        () => this.page(hostId),
        this.host,
        (message) => console.warn(`chrome-mcp: ${message}`),
      ).finally(() => this.reattaching.delete(hostId));
      this.reattaching.set(hostId, trying);
    }
    return trying;
  }

  private async attach(hostId: string): Promise<AttachedTab> {
    const named = this.handles.handleFor(hostId);
    const attached = await attachTab(hostId, {
      host: this.host,
      gate: this.gate,
      setups: this.setups,
      named,
      savedDialog: this.savedDialogs.get(hostId),
      onPersonStop: () => this.onPersonStop?.(`tab ${named}`),
      agentDrives: () => this.agentDrives(hostId),
      detach: () => void this.detach(hostId),
    });
    const { page } = attached;
    this.savedDialogs.delete(hostId);
    this.pages.set(hostId, page);
    page.dialogs.onChange = () => this.changed();
    return attached;
  }

  /** An agent's current tab, or one the agents opened; in a browser of ours, every tab. */
  private agentDrives(hostId: string): boolean {
    return this.host.personsTabs !== true || this.owned.has(hostId) || this.currents.tabs().includes(hostId);
  }

  /** Answers what the tab held paused and failed as its context let go (page-context.ts). */
  private async detach(hostId: string): Promise<Send[]> {
    const attached = this.attached.get(hostId);
    this.attached.delete(hostId);
    this.pages.delete(hostId);
    const entry = await attached?.catch(() => undefined);
    entry?.stop();
    return (await entry?.page.dispose()) ?? [];
  }

  /** A tab gone: `by` is the agent that closed it or found it closed; any other agent on it hears on its next call. */
  private forget(hostId: string, by: string | undefined): void {
    void this.detach(hostId);
    this.owned.delete(hostId);
    this.heading.delete(hostId);
    this.setups.forget(hostId);
    if (this.currents.tabs().includes(hostId)) this.currents.forget(hostId, this.handles.handleFor(hostId), by);
    this.handles.forget(hostId);
    this.changed();
  }

  /** The dialogs open on attached tabs whose words are known, to name after a restart. */
  private openDialogs(): Array<[string, SavedDialog]> {
    return [...this.pages].flatMap(([hostId, page]) => {
      const dialog = page.dialogs.open;
      return dialog && (!dialog.unseen || dialog.known)
        ? [[hostId, { kind: dialog.kind, message: dialog.message }]]
        : [];
    });
  }

  private changed(): void {
    if (!this.store) return;
    const { handles, next } = this.handles.saved();
    const state: TabSessionState = {
      tag: this.handles.tag,
      handles,
      nextHandle: next,
      owned: [...this.owned],
      dialogs: [...this.savedDialogs, ...this.openDialogs()],
      setups: this.setups.saved(this.pages),
      ...this.currents.saved(),
    };
    this.store.save(state);
  }
}

function closedError(handle: string, implicit: boolean): ToolError {
  return new ToolError('TAB_NOT_FOUND', `Tab ${handle}${implicit ? ' (the current tab)' : ''} was closed.`, {
    next: 'Call `tab_use` or `tabs` to pick a tab.',
  });
}
