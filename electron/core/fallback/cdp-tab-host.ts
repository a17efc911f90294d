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
import { AttachedTab, type TargetInfo } from './attached-tab.js';
import { ReleasedPauses } from './released-pauses.js';

// What a new window pauses until its first document is judged (see `guardPopup`).
const EVERY_REQUEST: readonly RequestPattern[] = [{ urlPattern: '*', requestStage: 'Request' }];

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
    // Stands before any tab is attached: what a tab's session holds paused as it goes is failed there, never sent.
    const released = new ReleasedPauses(connection);
    this.workers = new WorkerTargets(connection, released);
    connection.on((event) => this.onBrowserEvent(event));
    // A page-level auto-attach does not reach popups (they are new page targets); the browser-level one does, and
    // pauses each new page before its first request until we let it run. A window.open popup waits in its renderer,
    // which any CDP client's resume releases: so the launcher keeps ours the only client (no debugging port). Shared and
    // service workers come the same way, running ones too, for their holds (worker-targets.ts).
    this.holding = Promise.all([
      connection.send('Target.setAutoAttach', {
        autoAttach: true,
        waitForDebuggerOnStart: true,
        flatten: true,
        filter: [{ type: 'page' }, { type: 'shared_worker' }, { type: 'service_worker' }],
      }),
      released.ready,
    ]).then(() => undefined);
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
      {
        beforeScript: (targetId, url) => this.holdWorkers(targetId, url),
        lend: (origins, take) => this.workers.lend(origins, take),
      },
    );
  }

  /**
   * A script runs in `targetId`, at `url` when its session told it: the workers of its origin reach that origin only
   * (worker-targets.ts), once settled. A target whose commit was not told yet (attached after it) is asked.
   */
  private async holdWorkers(targetId: string, url: string | undefined): Promise<void> {
    const origin = url === undefined ? await this.originOf(targetId) : originOf(url);
    if (origin !== undefined) await this.workers.scriptRan(origin);
  }

  /**
   * Every new page arrives here paused before its first request. A popup of a tab we drive is guarded first, in this
   * session, which becomes its tab's session; any other page, or any popup once no engine listens, is let go at once.
   */
  private onBrowserEvent(event: CdpEvent): void {
    if (event.method === 'Target.detachedFromTarget' && event.sessionId === undefined)
      return this.switchWorkerUpdatesOff(String(event.params['sessionId']));
    if (event.method !== 'Target.attachedToTarget' || event.sessionId !== undefined) return;
    const sessionId = String(event.params['sessionId']);
    const info = event.params['targetInfo'] as TargetInfo;
    const waiting = event.params['waitingForDebugger'] === true;
    if (info.type !== 'page') return this.workers.attached(sessionId, info.targetId, info.url, waiting);
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

  /**
   * A tab's session gone, however it closed (the person, the page), may take a service worker's session a route answered
   * in, which turns the browser's "update on reload" switch on as it goes (worker-update-switch.ts). Only a page's
   * session turns it off, and only once that session is gone: another tab's does, now.
   */
  private switchWorkerUpdatesOff(gone: string): void {
    const other = [...this.live.values()].find((tab) => tab.sessionId !== gone);
    void other?.send('ServiceWorker.setForceUpdateOnPageLoad', { forceUpdateOnPageLoad: false }).catch(() => undefined);
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
