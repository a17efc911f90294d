// One agent's view of a browser's tabs: handles, the current tab, the tabs it opened, and a PageContext per tab.
import { ToolError } from '../protocol/errors.js';
import { PageContext } from './page-context.js';
import { maskedTab, type PolicyGate } from './policy-gate.js';
import type { TabSessionState, TabSessionStore } from './session-state.js';
import { TabHandles } from './tab-handles.js';
import type { HostTab, Popup, TabHost } from './tab-host.js';

export interface SessionTab extends HostTab {
  handle: string;
  current: boolean;
  /** Opened by this agent, so it may close it. */
  owned: boolean;
}

export interface TabInUse {
  hostId: string;
  handle: string;
  /** No handle was given: the current (or adopted) tab. */
  implicit: boolean;
  page: PageContext;
}

interface Attached {
  page: PageContext;
  stop: () => void;
}

export class TabSession {
  private readonly owned: Set<string>;
  private readonly attached = new Map<string, Promise<Attached>>();
  private readonly handles: TabHandles;
  private current: string | undefined;
  private readonly stopPopups: () => void;

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
    this.handles = new TabHandles(tag, initial?.tag === tag ? { handles: initial.handles, next: initial.nextHandle } : undefined);
    this.owned = new Set(initial?.owned);
    this.current = initial?.current;
    this.stopPopups = host.onPopup((popup) => this.popup(popup));
  }

  async list(): Promise<SessionTab[]> {
    const tabs = await this.host.list();
    const open = new Set(tabs.map((tab) => tab.id));
    for (const id of this.owned) if (!open.has(id)) this.forget(id);
    if (this.current !== undefined && !open.has(this.current)) this.current = undefined;
    const listed = tabs.map((tab) => ({
      ...maskedTab(this.gate, tab),
      handle: this.handles.handleFor(tab.id),
      current: tab.id === this.current,
      owned: this.owned.has(tab.id),
    }));
    this.changed();
    return listed;
  }

  /**
   * The tab a page operation runs on, which becomes current: the named one, else the current one, else (first use)
   * the browser's active tab — the fallback browser starts with one blank tab, and adopting it saves a call.
   */
  async use(handle: string | undefined): Promise<TabInUse> {
    const hostId = handle !== undefined ? this.handles.hostId(handle) : (this.current ?? (await this.adopt()));
    const tab = { hostId, handle: this.handles.handleFor(hostId), implicit: handle === undefined };
    try {
      const page = await this.page(hostId);
      this.current = hostId;
      this.changed();
      return { ...tab, page };
    } catch (error) {
      if (!(error instanceof ToolError && error.code === 'TAB_NOT_FOUND')) throw error;
      throw this.lost(tab);
    }
  }

  /** Forgets a tab found closed mid-call (its detach event may not have arrived yet) and says which one it was. */
  lost(tab: Omit<TabInUse, 'page'>): ToolError {
    this.forget(tab.hostId);
    return new ToolError('TAB_NOT_FOUND', `Tab ${tab.handle}${tab.implicit ? ' (the current tab)' : ''} was closed.`, {
      next: 'Call `tab_use` or `tabs` to pick a tab.',
    });
  }

  /** Opens a blank tab this agent owns and makes it current; callers navigate it. */
  async open(focus: boolean): Promise<TabInUse> {
    const tab = await this.host.create('about:blank', { focus });
    this.owned.add(tab.id);
    this.changed();
    return this.use(this.handles.handleFor(tab.id));
  }

  async select(handle: string, focus: boolean): Promise<SessionTab> {
    const hostId = this.handles.hostId(handle);
    const tab = (await this.list()).find((candidate) => candidate.id === hostId);
    if (!tab) throw new ToolError('TAB_NOT_FOUND', `Tab ${handle} was closed.`);
    if (focus) await this.host.activate(hostId);
    this.current = hostId;
    this.changed();
    return { ...tab, current: true, active: tab.active || focus };
  }

  /** Closes a tab this agent opened (default the current one). */
  async close(handle: string | undefined): Promise<string> {
    const hostId = handle !== undefined ? this.handles.hostId(handle) : this.current;
    if (hostId === undefined) throw new ToolError('NO_TAB', 'No current tab to close; pass tab.');
    const named = this.handles.handleFor(hostId);
    if (!this.owned.has(hostId)) {
      throw new ToolError('NOT_OWNED', `${named} was not opened by this agent, so it stays open.`, { next: 'Leave it open, or ask the person to close it.' });
    }
    await this.host.close(hostId);
    this.forget(hostId);
    return named;
  }

  async isOpen(hostId: string): Promise<boolean> {
    return (await this.host.list()).some((tab) => tab.id === hostId);
  }

  dispose(): void {
    this.stopPopups();
    for (const hostId of [...this.attached.keys()]) this.detach(hostId);
  }

  /**
   * A popup of a tab we drive gets the engine's page context, whose guard judges its every frame's requests like any
   * navigation of ours. It is attached, never read: the model reaches it through `tabs` like any tab. One known to be
   * heading for a site the person did not allow is closed instead.
   */
  private async popup(popup: Popup): Promise<void> {
    if (popup.url && !this.gate.allows({ url: popup.url }, 'read')) return this.host.close(popup.id);
    await this.page(popup.id).catch(async (error: unknown) => {
      // Refused at attach: by now it shows such a site.
      if (error instanceof ToolError && (error.code === 'POLICY_DENIED' || error.code === 'DOMAIN_CONFIRMATION_REQUIRED')) await this.host.close(popup.id);
      throw error;
    });
  }

  private async adopt(): Promise<string> {
    const tabs = await this.host.list();
    const tab = tabs.find((candidate) => candidate.active) ?? tabs[0];
    if (!tab) throw new ToolError('NO_TAB', 'The browser has no tabs open.');
    return tab.id;
  }

  private page(hostId: string): Promise<PageContext> {
    let attached = this.attached.get(hostId);
    if (!attached) {
      attached = this.attach(hostId);
      this.attached.set(hostId, attached);
      attached.catch(() => this.attached.delete(hostId));
    }
    return attached.then((entry) => entry.page);
  }

  private async attach(hostId: string): Promise<Attached> {
    // Judged before the debugger touches the tab: a tab showing a site the person did not allow is never attached.
    const shown = (await this.host.list()).find((tab) => tab.id === hostId);
    if (shown) this.gate.requireBeforeAttach(shown.url, `Tab ${this.handles.handleFor(hostId)}`);
    const cdp = await this.host.cdp(hostId);
    const page = new PageContext(cdp, this.gate, () => this.onPersonStop?.(`tab ${this.handles.handleFor(hostId)}`));
    // A detached debugger (tab closed, browser gone, DevTools took over) leaves a dead context: drop it so the
    // next call attaches afresh.
    const stop = cdp.on((event) => {
      if (event.method === 'Inspector.detached' && event.sessionId === undefined) this.detach(hostId);
    });
    try {
      await page.frames.init();
    } catch (error) {
      stop();
      page.dispose();
      throw error;
    }
    return { page, stop };
  }

  private detach(hostId: string): void {
    const attached = this.attached.get(hostId);
    this.attached.delete(hostId);
    void attached?.then(
      (entry) => {
        entry.stop();
        entry.page.dispose();
      },
      () => undefined,
    );
  }

  private forget(hostId: string): void {
    this.detach(hostId);
    this.owned.delete(hostId);
    this.handles.forget(hostId);
    if (this.current === hostId) this.current = undefined;
    this.changed();
  }

  private changed(): void {
    if (!this.store) return;
    const { handles, next } = this.handles.saved();
    const state: TabSessionState = { tag: this.handles.tag, handles, nextHandle: next, owned: [...this.owned] };
    if (this.current !== undefined) state.current = this.current;
    this.store.save(state);
  }
}
