// TabHost over a browser-level CDP socket: page targets are tabs, each attached once with flattened child sessions;
// a popup of an attached tab is guarded before it may send its first request; the browser itself saves no download.
import type { Cdp, CdpEvent } from '../../../shared/engine/cdp.js';
import { NavigationGuard, type RequestPattern } from '../../../shared/engine/navigation-guard.js';
import type { PolicyGate } from '../../../shared/engine/policy-gate.js';
import { siteOf } from '../../../shared/policy/site.js';
import type { HostTab, Popup, TabHost } from '../../../shared/engine/tab-host.js';
import { ToolError } from '../../../shared/protocol/errors.js';
import type { CdpConnection } from './cdp-connection.js';
import { POPUP_VERDICT } from '../../../shared/engine/popup-events.js';
import { followPopup } from '../../../shared/engine/popup-trail.js';
import { originOf, WorkerTargets } from './worker-targets.js';
import { isTaggedScript, SCRIPT_TAG } from '../../../shared/engine/script-initiator.js';

// What a new window pauses until its first document is judged (see `guardPopup`).
const EVERY_REQUEST: readonly RequestPattern[] = [{ urlPattern: '*', requestStage: 'Request' }];

interface TargetInfo {
  targetId: string;
  type: string;
  url: string;
  title: string;
  openerId?: string;
  /** The opener's frame that opened it (its target's main frame, or a frame inside it). */
  openerFrameId?: string;
}

/** One attached tab: its own session plus the child sessions Chrome auto-attaches under it. */
class AttachedTab implements Cdp {
  private readonly children = new Set<string>();
  /** Target ids of those child sessions (out-of-process iframes): a popup one of them opens names it as its opener. */
  readonly childTargets = new Set<string>();
  private readonly listeners = new Set<(event: CdpEvent) => void>();
  private readonly unsubscribe: () => void;
  /** The hold the latest agent's script asked for (see `send`), settled once it stands or could not. */
  private scriptHeld: Promise<void> = Promise.resolve();

  /** Target id per child session, to say whose frame ran a script. */
  private readonly childTarget = new Map<string, string>();
  /** Patterns the tab's own session pauses beyond what any Fetch.enable through it asks (see `pin`). */
  private pins: readonly RequestPattern[] = [];
  /** The patterns the tab's own session was last asked to pause, by whichever guard asked. */
  private fetchAsked: Record<string, unknown> | undefined;

  /**
   * `beforeScript`: an agent's script is about to be sent to the target with this id (the tab's or a child's): holds
   * what it needs held there, and settles once it is.
   */
  constructor(
    private readonly connection: CdpConnection,
    readonly sessionId: string,
    private readonly targetId: string,
    private readonly beforeSend: () => Promise<void>,
    private readonly onGone: () => void,
    private readonly beforeScript: (targetId: string) => Promise<void>,
  ) {
    this.unsubscribe = connection.on((event) => this.route(event));
  }

  async send<R>(method: string, params?: Record<string, unknown>, sessionId?: string): Promise<R> {
    await this.beforeSend();
    // Debugger.scriptParsed comes once the script runs: a message it posts to its site's service worker at once would
    // meet a worker not yet held (measured), so the hold goes up before it is sent.
    // Later commands queue behind that hold, as the extension's do (debugger-tab.ts): none overtakes the script.
    if (isTaggedScript(method, params ?? {}))
      this.scriptHeld = this.beforeScript(this.targetOf(sessionId)).catch(() => undefined);
    await this.scriptHeld;
    if (method.startsWith('Fetch.') && (sessionId ?? this.sessionId) === this.sessionId)
      params = this.pinned(method, params);
    return this.connection.send<R>(method, params, sessionId ?? this.sessionId);
  }

  /**
   * Every request of the tab's own session pauses too (`patterns`), whatever a guard's Fetch.enable asks, until the
   * returned function is called: then the session pauses what its guards last asked, no more.
   */
  pin(patterns: readonly RequestPattern[]): () => void {
    this.pins = patterns;
    return () => {
      this.pins = [];
      if (this.fetchAsked) void this.send('Fetch.enable', this.fetchAsked).catch(() => undefined);
    };
  }

  private pinned(method: string, params: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
    if (method === 'Fetch.disable') this.fetchAsked = undefined;
    if (method !== 'Fetch.enable') return params;
    this.fetchAsked = params ?? {};
    if (this.pins.length === 0) return params;
    const asked = (params?.['patterns'] as RequestPattern[] | undefined) ?? [];
    return { ...params, patterns: [...asked, ...this.pins] };
  }

  on(listener: (event: CdpEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  dispose(): void {
    this.unsubscribe();
    this.listeners.clear();
  }

  private route(event: CdpEvent): void {
    if (event.method === 'Connection.closed')
      return this.emit({ method: 'Inspector.detached', params: { reason: 'browser closed' } });
    const mine = event.sessionId === this.sessionId;
    const child = event.sessionId !== undefined && this.children.has(event.sessionId);
    if (!mine && !child) {
      if (event.method === 'Target.detachedFromTarget' && event.params['sessionId'] === this.sessionId) {
        this.emit({ method: 'Inspector.detached', params: { reason: 'target closed' } });
        this.onGone();
      }
      return;
    }
    if (event.method === 'Target.attachedToTarget') {
      const { targetId } = event.params['targetInfo'] as TargetInfo;
      this.children.add(String(event.params['sessionId']));
      this.childTargets.add(targetId);
      this.childTarget.set(String(event.params['sessionId']), targetId);
    }
    if (event.method === 'Target.detachedFromTarget') this.children.delete(String(event.params['sessionId']));
    if (event.method === 'Debugger.scriptParsed' && String(event.params['url']).startsWith(SCRIPT_TAG)) {
      // The site's service worker is held to its origin from now on (worker-targets.ts): the page's own requests go
      // their own way instead, where their initiators are told. Here, not in the engine: under chrome.debugger the
      // same switch made a late send's report go missing (test/extension/egress.test.ts), and nothing holds workers there.
      void this.send('Network.setBypassServiceWorker', { bypass: true }, mine ? undefined : event.sessionId).catch(
        () => undefined,
      );
    }
    this.emit(mine ? { method: event.method, params: event.params } : event);
  }

  /** The target a session of the tab is (the tab's own, or an out-of-process frame's). */
  private targetOf(sessionId: string | undefined): string {
    return sessionId === undefined || sessionId === this.sessionId
      ? this.targetId
      : (this.childTarget.get(sessionId) ?? this.targetId);
  }

  /** The session of the out-of-process frame `frameId` (its target has its id): a blank window it opens pauses there. */
  sessionOf(frameId: string): string | undefined {
    return [...this.children].find((sessionId) => this.childTarget.get(sessionId) === frameId);
  }
  /** An event for this tab's listeners that no session of the tab sent (what the host did for it). */
  tell(event: CdpEvent): void {
    this.emit(event);
  }

  private emit(event: CdpEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}

export class CdpTabHost implements TabHost {
  private readonly attached = new Map<string, Promise<AttachedTab>>();
  /** The same tabs once their attach finished, for the look-ups an event needs at once. */
  private readonly live = new Map<string, AttachedTab>();
  private readonly popupListeners = new Set<(popup: Popup) => Promise<void>>();
  private activeId: string | undefined;
  /** Settles once the browser took its download switch (see `refuseDownloads`). */
  private readonly noDownloads: Promise<void>;
  private readonly holding: Promise<void>;
  private readonly workers: WorkerTargets;

  /**
   * `gate` is the policy the engine enforces; the popup guard judges by it. `windowPerTab`: each new tab opens in
   * a window of its own, for a headless browser, where a background tab commits no frame (a screenshot of it would wait
   * for good) while every window draws.
   */
  constructor(
    private readonly connection: CdpConnection,
    private readonly gate: PolicyGate,
    private readonly options: { windowPerTab?: boolean } = {},
  ) {
    this.workers = new WorkerTargets(connection);
    connection.on((event) => this.onBrowserEvent(event));
    // A page-level auto-attach does not reach popups (they are new page targets); the browser-level one does, and
    // pauses each new page before its first request until we let it run. A window.open popup waits in its renderer,
    // which any CDP client's resume releases: so the launcher keeps ours the only client (no debugging port). Shared and
    // service workers come the same way, running ones too, for their holds (worker-targets.ts).
    this.holding = connection
      .send('Target.setAutoAttach', {
        autoAttach: true,
        waitForDebuggerOnStart: true,
        flatten: true,
        filter: [{ type: 'page' }, { type: 'shared_worker' }, { type: 'service_worker' }],
      })
      .then(() => undefined);
    this.noDownloads = this.refuseDownloads();
  }

  async list(): Promise<HostTab[]> {
    const { targetInfos } = await this.connection.send<{ targetInfos: TargetInfo[] }>('Target.getTargets', {
      filter: [{ type: 'page' }],
    });
    const pages = targetInfos.filter((info) => info.type === 'page');
    if (!pages.some((info) => info.targetId === this.activeId)) this.activeId = pages[0]?.targetId;
    return pages.map((info) => this.toTab(info));
  }

  async create(url: string, opts: { focus: boolean }): Promise<HostTab> {
    await this.holding;
    const { targetId } = await this.connection.send<{ targetId: string }>('Target.createTarget', {
      url,
      background: !opts.focus,
      ...(this.options.windowPerTab ? { newWindow: true } : {}),
    });
    if (opts.focus) this.activeId = targetId;
    const { targetInfo } = await this.connection.send<{ targetInfo: TargetInfo }>('Target.getTargetInfo', { targetId });
    return this.toTab(targetInfo);
  }

  async close(id: string): Promise<void> {
    await this.connection.send('Target.closeTarget', { targetId: id }).catch(() => {
      throw new ToolError('TAB_NOT_FOUND');
    });
    this.forget(id);
  }

  async activate(id: string): Promise<void> {
    await this.connection.send('Target.activateTarget', { targetId: id });
    this.activeId = id;
  }

  cdp(id: string): Promise<Cdp> {
    let tab = this.attached.get(id);
    if (!tab) {
      const attaching = this.attach(id);
      this.attached.set(id, attaching);
      attaching.then(
        (attached) => {
          if (this.attached.get(id) === attaching) this.live.set(id, attached);
        },
        () => this.attached.delete(id),
      );
      tab = attaching;
    }
    return tab;
  }

  onPopup(listener: (popup: Popup) => Promise<void>): () => void {
    this.popupListeners.add(listener);
    return () => this.popupListeners.delete(listener);
  }

  private async attach(id: string): Promise<AttachedTab> {
    await this.holding;
    const { sessionId } = await this.connection
      .send<{ sessionId: string }>('Target.attachToTarget', { targetId: id, flatten: true })
      .catch(() => {
        throw new ToolError('TAB_NOT_FOUND');
      });
    return this.tab(id, sessionId);
  }

  private tab(id: string, sessionId: string): AttachedTab {
    return new AttachedTab(
      this.connection,
      sessionId,
      id,
      () => this.noDownloads,
      () => this.forget(id),
      (targetId) => this.holdWorkers(targetId),
    );
  }

  /** A script runs in `targetId`: the workers of its origin reach that origin only (worker-targets.ts), once settled. */
  private async holdWorkers(targetId: string): Promise<void> {
    const origin = await this.originOf(targetId);
    if (origin !== undefined) await this.workers.scriptRan(origin);
  }

  /**
   * Every new page arrives here paused before its first request. A popup of a tab we drive is guarded first, in this
   * session, which becomes its tab's session; any other page, or any popup once no engine listens, is let go at once.
   */
  private onBrowserEvent(event: CdpEvent): void {
    if (event.method !== 'Target.attachedToTarget' || event.sessionId !== undefined) return;
    const sessionId = String(event.params['sessionId']);
    const info = event.params['targetInfo'] as TargetInfo;
    const waiting = event.params['waitingForDebugger'] === true;
    if (info.type !== 'page') return this.workers.attached(sessionId, info.url, waiting);
    if (!waiting) return;
    const openerId = info.openerId === undefined ? undefined : this.drivenTab(info.openerId);
    if (openerId === undefined || this.popupListeners.size === 0) {
      void this.connection.send('Runtime.runIfWaitingForDebugger', {}, sessionId).catch(() => undefined);
      void this.connection.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
      return;
    }
    void this.guardPopup({ id: info.targetId, openerId }, sessionId, info.openerId!, info.openerFrameId);
  }

  /**
   * The popup's document requests are held (Fetch) before it runs, in the very session that paused it (measured: a
   * second session attached to it came too late for its first request). Only browser-side commands answer before it runs
   * (Page.enable waits for its renderer), so this guard goes on first and the engine's page context follows, which
   * also guards the popup's iframes. This guard stays for the popup's life, because it alone knows the popup's main
   * frame from the start. The engine's guard comes to the same session later and joins its chain (paused-chain.ts): it
   * sees a request only once this one let it go, so it never answers one this guard still waits to judge.
   */
  private async guardPopup(
    popup: Popup,
    sessionId: string,
    openerTarget: string,
    openerFrameId: string | undefined,
  ): Promise<void> {
    const tab = this.tab(popup.id, sessionId);
    this.attached.set(popup.id, Promise.resolve(tab));
    this.live.set(popup.id, tab);
    // A page target's main frame has the target's id.
    const guard = new NavigationGuard(
      tab,
      this.gate,
      (frameId, inSession) => inSession === undefined && frameId === popup.id,
    );
    guard.onRefused(() => void this.closeIfBlank(popup.id));
    try {
      // Sent before the guard's Fetch.enable, so the popup's first request tells its initiator before it pauses.
      const telling = tab.send('Network.enable', {
        maxTotalBufferSize: 0,
        maxResourceBufferSize: 0,
        maxPostDataSize: 0,
      });
      telling.catch(() => undefined);
      const origins = await Promise.all([openerTarget, popup.openerId].map((id) => this.originOf(id)));
      const frameId = openerFrameId ?? openerTarget; // A target's main frame has the target's id.
      const tell = (event: CdpEvent, to = this.live.get(popup.openerId)) =>
        to?.tell(event.method === POPUP_VERDICT ? { ...event, sessionId: to.sessionOf(frameId) } : event);
      const opener = { origins, frameId, tell };
      // Every request of the window pauses until its first document is judged: a page the opener's script wrote (a
      // blob) is then held whole, and what it sends as it loads, before the browser's rules stand, is failed on its way.
      const unpin = tab.pin(EVERY_REQUEST);
      followPopup(
        tab,
        guard,
        opener,
        () => void this.closeIfBlank(popup.id),
        (whole) => {
          if (!whole) unpin();
        },
      );
      await guard.enable(undefined);
    } catch {
      // Never let an unguarded popup of a driven tab run.
      return void this.close(popup.id).catch(() => undefined);
    }
    void this.connection.send('Runtime.runIfWaitingForDebugger', {}, sessionId).catch(() => undefined);
    for (const listener of this.popupListeners) void listener(popup).catch(() => undefined);
  }

  /** A popup whose navigation was refused before it showed anything would stay an empty window: it is closed. */
  private async closeIfBlank(id: string): Promise<void> {
    const { targetInfo } = await this.connection
      .send<{ targetInfo: TargetInfo }>('Target.getTargetInfo', { targetId: id })
      .catch(() => ({ targetInfo: undefined }));
    if (targetInfo && (targetInfo.url === '' || siteOf(targetInfo.url).kind === 'inherits'))
      await this.close(id).catch(() => undefined);
  }

  /** The origin of the page or frame target `targetId` shows; undefined when it is gone or has none. */
  private async originOf(targetId: string): Promise<string | undefined> {
    const { targetInfo } = await this.connection
      .send<{ targetInfo: TargetInfo }>('Target.getTargetInfo', { targetId })
      .catch(() => ({ targetInfo: undefined }));
    return targetInfo ? originOf(targetInfo.url) : undefined;
  }

  /** The tab we drive that `targetId` is, or holds as one of its out-of-process frames. */
  private drivenTab(targetId: string): string | undefined {
    if (this.attached.has(targetId)) return targetId;
    return [...this.live].find(([, tab]) => tab.childTargets.has(targetId))?.[0];
  }

  /**
   * Chrome's own download switch, off for good: `download` takes a file before the browser would save it
   * (engine/download-capture.ts), and anything else a page starts (a blob: or data: URL, a same-site `<a download>`)
   * is refused rather than saved into this profile's folder, whatever the policy says.
   */
  private refuseDownloads(): Promise<void> {
    return this.connection.send('Browser.setDownloadBehavior', { behavior: 'deny' }).then(
      () => undefined,
      () => undefined,
    );
  }

  private forget(id: string): void {
    const tab = this.attached.get(id);
    this.attached.delete(id);
    this.live.delete(id);
    void tab?.then(
      (attached) => attached.dispose(),
      () => undefined,
    );
  }

  private toTab(info: TargetInfo): HostTab {
    return { id: info.targetId, url: info.url, title: info.title, active: info.targetId === this.activeId };
  }
}
