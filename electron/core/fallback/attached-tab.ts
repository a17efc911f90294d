// One tab the fallback drives, as the engine's Cdp: its own session plus the child sessions Chrome auto-attaches under
// it; an agent's script is sent only once what it needs held stands, and Fetch patterns a popup's guard pins are kept.
import type { Cdp, CdpEvent } from '../../../shared/engine/cdp.js';
import type { RequestPattern } from '../../../shared/engine/navigation-guard.js';
import type { CdpConnection } from './cdp-connection.js';
import { isTaggedScript, SCRIPT_TAG } from '../../../shared/engine/script-initiator.js';
import { GiveBacks } from '../../../shared/engine/give-backs.js';
import { PausedChain } from '../../../shared/engine/paused-chain.js';
import type { Borrower } from './lent-workers.js';

export interface TargetInfo {
  targetId: string;
  type: string;
  url: string;
  title: string;
  openerId?: string;
  /** The opener's frame that opened it (its target's main frame, or a frame inside it). */
  openerFrameId?: string;
}

/** What the host does for one tab about the browser's workers no tab owns (worker-targets.ts). */
export interface TabWorkers {
  /**
   * An agent's script is about to be sent to the target with this id (the tab's or a child's), whose document is at
   * `url` when its session told it: holds what it needs held there, and settles once it is.
   */
  beforeScript(targetId: string, url: string | undefined): Promise<void>;
  /** Lends the tab the workers of `origins`, as Cdp.lendWorkers says; answers the give-back. */
  lend(origins: readonly string[], tab: Borrower): Promise<() => void>;
}

/** One attached tab: its own session plus the child sessions Chrome auto-attaches under it. */
export class AttachedTab implements Cdp {
  private readonly children = new Set<string>();
  /** Target ids of those child sessions (out-of-process iframes): a popup one of them opens names it as its opener. */
  readonly childTargets = new Set<string>();
  private readonly listeners = new Set<(event: CdpEvent) => void>();
  private readonly unsubscribe: () => void;
  private readonly lent = new GiveBacks();
  /** The sessions lent workers' pauses are told under: answered at the browser's interceptor (lent-workers.ts). */
  private readonly browserPauses = new Set<string>();
  /** The hold the latest agent's script asked for (see `send`), settled once it stands or could not. */
  private scriptHeld: Promise<void> = Promise.resolve();

  /** Target id per child session, to say whose frame ran a script. */
  private readonly childTarget = new Map<string, string>();
  /**
   * Per target of the tab, the URL its document committed last, told by its own session: a script sent after an answer
   * from that document is sent after its commit was told, so this is where the script runs, without asking the browser.
   */
  private readonly shown = new Map<string, string>();
  /** Sessions whose document has service workers bypassed since an agent's script ran there (see `route`). */
  private readonly bypassed = new Set<string>();
  /** Patterns the tab's own session pauses beyond what any Fetch.enable through it asks (see `pin`). */
  private pins: readonly RequestPattern[] = [];
  /** The patterns the tab's own session was last asked to pause, by whichever guard asked. */
  private fetchAsked: Record<string, unknown> | undefined;
  /** The host's guard on a popup and the engine's guard after it answer through this one chain (`guardPopup`). */
  readonly pausedChain = new PausedChain(this);

  constructor(
    private readonly connection: CdpConnection,
    readonly sessionId: string,
    private readonly targetId: string,
    private readonly beforeSend: () => Promise<void>,
    private readonly onGone: () => void,
    private readonly workers: TabWorkers,
  ) {
    this.unsubscribe = connection.on((event) => this.route(event));
  }

  async send<R>(method: string, params?: Record<string, unknown>, sessionId?: string): Promise<R> {
    await this.beforeSend();
    // Debugger.scriptParsed comes once the script runs: a message it posts to its site's service worker at once would
    // meet a worker not yet held (measured), so the hold goes up before it is sent.
    // Later commands queue behind that hold, as the extension's do (debugger-tab.ts): none overtakes the script.
    if (isTaggedScript(method, params ?? {})) {
      const targetId = this.targetOf(sessionId);
      this.scriptHeld = this.workers.beforeScript(targetId, this.shown.get(targetId)).catch(() => undefined);
    }
    await this.scriptHeld;
    if (sessionId !== undefined && this.browserPauses.has(sessionId)) {
      this.pausedChain.sent(method, params, sessionId);
      return this.connection.send<R>(method, params);
    }
    const own = (sessionId ?? this.sessionId) === this.sessionId;
    // The engine's restore may switch the bypass off: the next script there switches it on again.
    if ((method === 'Network.setBypassServiceWorker' && params?.['bypass'] !== true) || method === 'Network.disable')
      this.bypassed.delete(sessionId ?? this.sessionId);
    if (method.startsWith('Fetch.') && own) params = this.pinned(method, params);
    // Every answer to a paused request, whoever sends it, comes through here: the chain keeps what is left unanswered.
    this.pausedChain.sent(method, params, own ? undefined : sessionId);
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

  async lendWorkers(origins: readonly string[], told: (sessionId: string) => void): Promise<() => void> {
    const giveBack = await this.workers.lend(origins, {
      told: (sessionId) => {
        this.browserPauses.add(sessionId);
        told(sessionId);
      },
      deliver: (event) => this.emit(event),
    });
    return this.lent.keep(giveBack);
  }

  on(listener: (event: CdpEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  dispose(): void {
    this.unsubscribe();
    this.listeners.clear();
    // A worker lent to a tab that went would pause what it sends for nobody to answer.
    this.lent.all();
  }

  private route(event: CdpEvent): void {
    if (event.method === 'Connection.closed')
      return this.emit({ method: 'Inspector.detached', params: { reason: 'browser closed' } });
    const mine = event.sessionId === this.sessionId;
    const child = event.sessionId !== undefined && this.children.has(event.sessionId);
    if (!mine && !child) {
      if (event.method === 'Target.detachedFromTarget' && event.params['sessionId'] === this.sessionId) {
        this.emit({ method: 'Inspector.detached', params: { reason: 'target closed' } });
        this.lent.all();
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
    if (event.method === 'Target.detachedFromTarget') {
      const sessionId = String(event.params['sessionId']);
      this.children.delete(sessionId);
      this.bypassed.delete(sessionId);
      this.shown.delete(this.childTarget.get(sessionId) ?? '');
    }
    if (event.method === 'Page.frameNavigated') {
      // A target's main frame has the target's id; a child frame's commit says nothing of where the target is.
      const frame = event.params['frame'] as { id: string; url: string };
      if (frame.id === this.targetOf(event.sessionId)) {
        this.shown.set(frame.id, frame.url);
        this.bypassed.delete(event.sessionId!);
      }
    }
    if (
      event.method === 'Debugger.scriptParsed' &&
      String(event.params['url']).startsWith(SCRIPT_TAG) &&
      !this.bypassed.has(event.sessionId!)
    ) {
      // The site's service worker is held to its origin from now on (worker-targets.ts): the page's own requests go
      // their own way instead, where their initiators are told. Here, not in the engine: under chrome.debugger the
      // same switch made a late send's report go missing (test/extension/egress.test.ts), and nothing holds workers there.
      // Once per document of the session, not per script: a command saved on every eval.
      this.bypassed.add(event.sessionId!);
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
