// The engine's TabHost over the app's own browser windows: one BrowserWindow per tab, one webContents.debugger attach
// per tab kept until it detaches, popups opened by us and guarded by the engine before their first request.
import type { BrowserWindow, HandlerDetails, LoadURLOptions, Session } from 'electron';
import type { Cdp } from '../../../shared/engine/cdp.js';
import type { PolicyGate } from '../../../shared/engine/policy-gate.js';
import type { HostTab, Popup, TabHost } from '../../../shared/engine/tab-host.js';
import { ToolError } from '../../../shared/protocol/errors.js';
import { DebuggerCdp } from './debugger-cdp.js';
import { heldForScript } from './script-popup.js';

export interface WindowTabHostOptions {
  /** Makes a hidden tab window (see fallback-window.ts); tests pass a fake. */
  openWindow: () => BrowserWindow;
  /** The partition the windows live in: its downloads follow the policy. */
  session: Pick<Session, 'on' | 'removeListener'>;
  /** The policy the engine enforces; the host needs its downloads switch. */
  gate: PolicyGate;
  /** The person's setting: show the windows, or keep them hidden. Read on each new tab and each activate. */
  showWindows: () => boolean;
}

interface Tab {
  window: BrowserWindow;
  cdp: DebuggerCdp | undefined;
}

const BLANK = 'about:blank';

export class WindowTabHost implements TabHost {
  private readonly tabs = new Map<string, Tab>();
  private readonly popupListeners = new Set<(popup: Popup) => Promise<void>>();
  private activeId: string | undefined;
  private closed = false;
  private readonly onWillDownload = (event: { preventDefault(): void }): void => {
    // The engine's guard refuses the downloads it can see; this catches the rest (a blob: or data: URL, `<a download>`).
    if (!this.options.gate.current().downloads) event.preventDefault();
  };

  constructor(private readonly options: WindowTabHostOptions) {
    options.session.on('will-download', this.onWillDownload);
  }

  async list(): Promise<HostTab[]> {
    if (this.activeId === undefined || !this.tabs.has(this.activeId)) this.activeId = this.tabs.keys().next().value;
    return [...this.tabs].map(([id, tab]) => this.toTab(id, tab));
  }

  async create(url: string, opts: { focus: boolean }): Promise<HostTab> {
    const id = await this.open(url === BLANK ? undefined : url);
    if (opts.focus) await this.activate(id);
    else this.reveal(this.tab(id), false);
    return this.toTab(id, this.tab(id));
  }

  async close(id: string): Promise<void> {
    const tab = this.tab(id);
    this.forget(id);
    tab.cdp?.close();
    // destroy, not close: a page's beforeunload must not keep a tab the agent closed.
    if (!tab.window.isDestroyed()) tab.window.destroy();
  }

  async activate(id: string): Promise<void> {
    const tab = this.tab(id);
    this.activeId = id;
    this.reveal(tab, true);
  }

  async cdp(id: string): Promise<Cdp> {
    const tab = this.tab(id);
    if (tab.cdp?.attached) return tab.cdp;
    try {
      tab.cdp = new DebuggerCdp(tab.window.webContents.debugger);
    } catch (error) {
      // Another debugger holds the window: explained, never retried in a loop.
      throw new ToolError(
        'DETACHED',
        `Could not attach to the tab: ${error instanceof Error ? error.message : String(error)}.`,
      );
    }
    return tab.cdp;
  }

  onPopup(listener: (popup: Popup) => Promise<void>): () => void {
    this.popupListeners.add(listener);
    return () => this.popupListeners.delete(listener);
  }

  /** Lets go of every tab and closes its window: the app's browser is done (fallback closed, app quitting). */
  closeAll(): void {
    this.closed = true;
    this.options.session.removeListener('will-download', this.onWillDownload);
    for (const [id, tab] of [...this.tabs]) {
      this.forget(id);
      tab.cdp?.close();
      if (!tab.window.isDestroyed()) tab.window.destroy();
    }
  }

  get size(): number {
    return this.tabs.size;
  }

  /** A new tab window at about:blank, tracked until it closes; `url` then loads without waiting for it. */
  private async open(url: string | undefined): Promise<string> {
    if (this.closed) throw new ToolError('BROWSER_CLOSED');
    const window = this.options.openWindow();
    const contents = window.webContents;
    const id = String(contents.id);
    this.tabs.set(id, { window, cdp: undefined });
    contents.once('destroyed', () => this.forget(id));
    window.on('focus', () => {
      if (this.tabs.has(id)) this.activeId = id;
    });
    // Every window.open, target=_blank link or form comes here and opens as our own tab (see popup below).
    contents.setWindowOpenHandler((details) => {
      void this.popup(id, details);
      return { action: 'deny' };
    });
    // A committed blank document first, so the engine judges and attaches to a real page before anything loads.
    await contents.loadURL(BLANK);
    if (url !== undefined) void contents.loadURL(url).catch(() => undefined);
    return id;
  }

  /**
   * A page asked for a new window. Electron's own popup would start loading before the engine could guard it, so it is
   * refused and opened as our tab instead: blank, shown to the engine (which attaches its guard) when its opener is a
   * tab the engine drives, then sent where the page asked, with its referrer and any form body. The new tab has no
   * `window.opener`; a page that needs one loses that link, which the fallback accepts for a guard that is never late.
   * Our own load names none of the opener's stack, so a window the opener's agent script opened towards another origin
   * (from a timer it left, a form it submits) is told apart first, by the opener's trail, and never opened at all.
   */
  private async popup(openerId: string, details: HandlerDetails): Promise<void> {
    const { url, referrer, postBody } = details;
    // Asked at once, in Electron's handler: the trail answers of the opener's documents as they are when it opens.
    const opener = this.tabs.get(openerId);
    const cdp = opener?.cdp;
    const askTrail = opener && cdp?.attached && url && url !== BLANK;
    if (askTrail && heldForScript((event) => cdp.tell(event), opener.window.webContents.getURL(), details)) return;
    const id = await this.open(undefined).catch(() => undefined);
    if (id === undefined) return;
    this.reveal(this.tab(id), details.disposition !== 'background-tab');
    const driven = this.tabs.get(openerId)?.cdp?.attached === true;
    if (driven) {
      const popup: Popup = { id, openerId, ...(url && url !== BLANK ? { url } : {}) };
      await Promise.allSettled([...this.popupListeners].map((listener) => listener(popup)));
    }
    const tab = this.tabs.get(id);
    if (!tab || tab.window.isDestroyed() || !url || url === BLANK) return;
    const load: LoadURLOptions = { httpReferrer: referrer };
    if (postBody) {
      load.postData = postBody.data;
      load.extraHeaders = `content-type: ${postBody.contentType}${postBody.boundary ? `; boundary=${postBody.boundary}` : ''}`;
    }
    void tab.window.webContents.loadURL(url, load).catch(() => undefined);
  }

  /** Shows a tab's window when the person wants to see the app's browser; `focus` brings it to the front. */
  private reveal(tab: Tab, focus: boolean): void {
    if (!this.options.showWindows() || tab.window.isDestroyed()) return;
    if (focus) {
      tab.window.show();
      tab.window.focus();
    } else if (!tab.window.isVisible()) {
      tab.window.showInactive();
    }
  }

  private tab(id: string): Tab {
    const tab = this.tabs.get(id);
    if (!tab || tab.window.isDestroyed()) throw new ToolError('TAB_NOT_FOUND');
    return tab;
  }

  private forget(id: string): void {
    this.tabs.delete(id);
    if (this.activeId === id) this.activeId = undefined;
  }

  private toTab(id: string, tab: Tab): HostTab {
    const contents = tab.window.webContents;
    return { id, url: contents.getURL() || BLANK, title: contents.getTitle(), active: id === this.activeId };
  }
}
