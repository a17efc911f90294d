// Follows what an agent's script started after its eval returned: a request to another origin whose initiator is the
// script (through timers, promises, events and the code it left behind) is stopped for as long as the tab lives.
import type { CdpEvent } from './cdp.js';
import type { Send } from './egress-ledger.js';
import { AllowedOrigins } from './egress-origins.js';
import { frameOrigin, type Frame } from './frame.js';
import { HandlerSetters } from './handler-setters.js';
import type { RequestPattern } from './navigation-guard.js';
import type { PageContext } from './page-context.js';
import { networkEnableParams } from './network-log.js';
import { InitiatorVerdicts, SCRIPT_TAG_LINE, type Initiator, type Verdict } from './script-initiator.js';
import { ScriptCode } from './script-code.js';
import { ScriptCompiles } from './script-compiles.js';
import { GestureListeners } from './gesture-listeners.js';
import {
  POPUP_HELD,
  POPUP_OPENING,
  POPUP_STACK,
  POPUP_VERDICT,
  type PopupOpening,
  type PopupStack,
  type WindowVerdict,
} from './popup-events.js';
import { ScriptedDocuments } from './scripted-documents.js';
import { ReturningFrames } from './returning-frames.js';
import { UnpausedSends } from './unpaused-sends.js';
import { ScriptFrames } from './script-frames.js';
import { SrcdocSetters } from './srcdoc-setters.js';
import { UnloadListeners } from './unload-listeners.js';
import { egressHeld, openEgressWindow } from './egress-hold.js';
import { heldWhole } from './popup-trail.js';
import { LateSends } from './late-sends.js';
import { ScriptSockets } from './script-sockets.js';
import { RealmPauses } from './realm-pauses.js';
import { randomHex } from './random-hex.js';

// Async stacks (Debugger.setAsyncCallStackDepth) carry the script through setTimeout, promise jobs, events and image
// loads: measured on Chromium 156, a `new Image()` set in a `.then` has no synchronous stack at all, only async parents.
const ASYNC_DEPTH = 32;
// Every request of the tab pauses at the request stage once a script has run; the page's own continue at once.
const EVERY_REQUEST: readonly RequestPattern[] = [{ urlPattern: '*', requestStage: 'Request' }];

interface Paused {
  requestId: string;
  networkId?: string;
  resourceType: string;
  request: { url: string; method: string };
  responseStatusCode?: number;
  responseErrorReason?: string;
}

export class ScriptTrail {
  private started: Promise<void> | undefined;
  private serial = 0;
  private readonly nonce = randomHex(8);
  /** Per `session:requestId`: whether the agent's script started it, and what the browser calls it. */
  private readonly verdicts = new InitiatorVerdicts();
  /** Sessions armed, and the script URL of each worker session (a blob or data worker's code is not the page's own). */
  private readonly sessions = new Set<string | undefined>();
  private readonly workerUrls = new Map<string, string>();
  /** Worker sessions held whole: every request outside the tab's origins is blocked by the browser's rules. */
  private readonly wholeWorkers = new Set<string>();
  private allowed = new AllowedOrigins([]);
  /** The frames as the last `follow` listed them; the documents the script reached, for navigations with no stack. */
  private listed: Frame[] = [];
  private readonly documents = new ScriptedDocuments();
  private readonly written: ScriptFrames;
  private readonly setters: SrcdocSetters;
  private readonly returning: ReturningFrames;
  private readonly unpaused: UnpausedSends;
  private readonly handlers: HandlerSetters;
  /** Whose code a stack names: every judgement of the trail's asks it. */
  private readonly code: ScriptCode;
  private readonly compiles: ScriptCompiles;
  private readonly gestures: GestureListeners;
  private readonly unloads: UnloadListeners;
  private readonly sockets: ScriptSockets;
  private readonly realms: RealmPauses;
  private readonly late = new LateSends();

  /** An act of the agent's is under way, or was within `ms`: a gesture navigation then is the act's. */
  private readonly acting = (ms: number): boolean => this.page.input.actingWithin(ms);

  constructor(private readonly page: PageContext) {
    this.code = new ScriptCode(
      page.cdp,
      (sessionId, scriptId) =>
        this.written.ranHeld(sessionId, scriptId) || this.handlers.isHandler(sessionId, scriptId),
    );
    this.compiles = new ScriptCompiles(page.cdp, this.code);
    const byScript = this.code.paused.bind(this.code);
    this.returning = new ReturningFrames(
      page.cdp,
      page.frames.navigation,
      () => this.allowed,
      () => this.documents.evalRunning(),
      (sessionId, origins) => this.conditions(sessionId, origins),
      (sessionId) => this.unpaused.pending(sessionId),
    );
    this.unpaused = new UnpausedSends(this.returning);
    this.sockets = new ScriptSockets(page.cdp, {
      byScript: (sessionId, initiator) => this.code.initiator(sessionId, initiator),
      pausedInScript: byScript,
      refusedSockets: () => this.allowed.socketRules(),
      allows: (url) => this.allowed.allows(url),
      held: () => egressHeld(page),
      changed: (sessionId) => this.relift(sessionId),
      refused: (send) => this.late.note(send),
    });
    // A frame's realm is made as it is inserted: its owner's srcdoc breakpoint stands too before the page goes on. The
    // Function constructors' breakpoint pauses every realm's already (script-compiles.ts): set again only for the
    // script's realms; the WebSocket ones for every realm (realm-pauses.ts).
    const rearm = (sessionId: string | undefined, byScript: boolean) =>
      Promise.all([this.sockets.rearm(sessionId), byScript ? this.compiles.rearm(sessionId) : undefined]);
    this.realms = new RealmPauses(
      page.cdp,
      byScript,
      (sessionId) => this.setters.settled(sessionId),
      rearm,
      (sessionId, frameId) => sessionId === undefined && page.frames.isKnownMainFrame(frameId),
    );
    this.setters = new SrcdocSetters(page.cdp, byScript, (frameId) => this.written.hold(frameId), this.returning);
    this.handlers = new HandlerSetters(page, `__chromeMcpHandlers${this.nonce}`, byScript, (sessionId) =>
      this.setters.settled(sessionId),
    );
    this.gestures = new GestureListeners(page.cdp, byScript);
    this.unloads = new UnloadListeners(
      page.cdp,
      byScript,
      () => openEgressWindow(page),
      (sends) => sends.forEach((send) => this.late.note(send)),
    );
    this.written = new ScriptFrames(
      () => this.documents.evalRunning(),
      (frameId) => this.setters.requestedByScript(frameId),
      (sessionId, stack) => this.code.initiator(sessionId, { type: 'script', stack }),
    );
  }

  /** `source` tagged, so every request its code makes, now or later, is known as the script's. */
  tag(source: string): string {
    // On a line of its own after the script: a trailing line comment of the script cannot swallow it.
    return `${source}${SCRIPT_TAG_LINE}${this.nonce}/${++this.serial}`;
  }

  /** The tagged script was just sent on the session: what compiles while it runs is the script's (eval-spans.ts). */
  sent(sessionId: string | undefined): void {
    this.code.spans.behind(sessionId);
  }

  /**
   * Arms the tab (once; a later eval only refreshes the origins its frames have now): resolves when every session
   * pauses its requests and tells their initiators. Rejects when the browser would not, and the script must not run.
   */
  async follow(): Promise<void> {
    const frames = await this.page.frames.list();
    this.listed = frames;
    const readable = this.readable(frames);
    const origins = readable.map(frameOrigin);
    if (!this.allowed.same(origins)) this.allowed = new AllowedOrigins(origins);
    if (!this.started) {
      this.returning.learn(frames);
      this.started = this.start(frames.map((frame) => frame.sessionId));
      this.started.catch(() => (this.started = undefined));
    }
    await this.started;
    await this.handlers.arm(readable);
  }

  /**
   * Another caller reset the DOM agent of a session (the inspect op asks for its document and switches DOM off), which
   * drops the breakpoints that tell a srcdoc's setter: they are set again, and until they stand a srcdoc set is held.
   */
  async domReset(sessionId: string | undefined): Promise<void> {
    if (!this.started || !this.sessions.has(sessionId)) return;
    await this.setters.refresh(sessionId).catch(() => undefined);
  }

  /** The frames the person lets the agent read: what the script can reach, and where the handler policy goes. */
  private readable(frames: readonly Frame[]): Frame[] {
    return frames.filter((frame) => this.page.frames.allows(frame, 'read'));
  }

  /** The script is about to run in `frame` (the top document when none); call the returned function once it is over. */
  running(frame: Frame | undefined): () => void {
    const where = frame ?? this.listed.find((each) => each.ordinal === 0);
    return this.documents.running(this.listed, where && frameOrigin(where));
  }

  /**
   * How the trail follows a session of the tab, so the egress hold lifts only what is its own: a worker held whole
   * keeps its browser rules, a session that tells us its requests keeps its Network domain on.
   */
  followed(sessionId: string | undefined): 'whole' | 'requests' | undefined {
    if (sessionId !== undefined && this.wholeWorkers.has(sessionId)) return 'whole';
    return this.sessions.has(sessionId) ? 'requests' : undefined;
  }

  /** The origins a session keeps to past an eval's end: a held-whole window's (popup-trail.ts), a returning frame's. */
  keptRules(sessionId: string | undefined): AllowedOrigins | undefined {
    return heldWhole(this.page.cdp, sessionId) ?? this.returning.blocking(sessionId);
  }

  /** The session keeps Network on past an eval's end, for the trail: it is followed, or keeps rules of its own. */
  keepsNetwork(sessionId: string | undefined): boolean {
    return this.followed(sessionId) !== undefined || this.keptRules(sessionId) !== undefined;
  }

  /** The network conditions a session keeps past an eval's end: its kept or returning origins', after its sockets'. */
  liftedRules(sessionId: string | undefined): Record<string, unknown>[] {
    return this.conditions(sessionId, this.keptRules(sessionId) ?? this.returning.rules(sessionId));
  }

  /** A session's network conditions under `origins`: the script's open sockets keep theirs ahead of any (script-sockets.ts). */
  private conditions(sessionId: string | undefined, origins: AllowedOrigins | undefined): Record<string, unknown>[] {
    return [...this.sockets.rules(sessionId), ...(origins?.rules() ?? [])];
  }

  /** Sends a session's lifted rules again once the script's sockets there changed; a worker held whole keeps its own. */
  private async relift(sessionId: string | undefined): Promise<void> {
    if (this.followed(sessionId) === 'whole') return;
    await this.page.cdp
      .send(
        'Network.emulateNetworkConditionsByRule',
        { matchedNetworkConditions: this.liftedRules(sessionId) },
        sessionId,
      )
      .catch(() => undefined);
  }

  /** What was stopped since the last call, outside any eval (which reports its own): the next result names them. */
  takeLate(): { sends: Send[]; count: number } {
    return this.late.take();
  }

  private async start(sessionIds: (string | undefined)[]): Promise<void> {
    this.page.cdp.on((event) => this.onEvent(event));
    this.page.frames.navigation.interceptFirst((event) => this.onPaused(event));
    this.page.frames.navigation.stand(EVERY_REQUEST);
    this.page.frames.onWorkerStart((sessionId) => this.arm(sessionId, true));
    await Promise.all([
      ...[...new Set(sessionIds)].map((sessionId) => this.arm(sessionId)),
      ...this.page.frames.workerSessions().map((sessionId) => this.arm(sessionId, true).catch(() => undefined)),
    ]);
  }

  /** `worker`: a worker session, paused before its first line until this resolves. */
  private async arm(sessionId: string | undefined, worker = false): Promise<void> {
    const { cdp } = this.page;
    this.sessions.add(sessionId);
    const network = cdp.send('Network.enable', networkEnableParams(this.page.network), sessionId);
    if (worker) return this.armWorker(sessionId!, network);
    await Promise.all([
      network,
      cdp.send('Debugger.enable', {}, sessionId),
      // Event-listener breakpoints pause only with breakpoints active (measured on Chromium 156): the page's own
      // `debugger;` statements then pause too, and the srcdoc setters resume them at once, as every pause here.
      cdp.send('Debugger.setBreakpointsActive', { active: true }, sessionId),
      this.gestures.arm(sessionId),
      this.unloads.arm(sessionId),
      cdp.send('Debugger.setSkipAllPauses', { skip: false }, sessionId),
      cdp.send('Debugger.setAsyncCallStackDepth', { maxDepth: ASYNC_DEPTH }, sessionId),
      // Without it V8 tells a request's initiator by its top frame alone (measured on Chromium 156): a handler or listener
      // of the script's that calls the page's own send would name only the page's function. The cost, seen by pages that
      // probe for a debugger, is paid in a tab only once an agent's script has run there.
      cdp.send('Runtime.enable', {}, sessionId),
      // Until they stand, a srcdoc set after the eval is held whoever set it.
      this.setters.refresh(sessionId).catch(() => undefined),
      // The guard's patterns with the standing one for every request; an act's widening of the session is kept.
      this.page.frames.navigation.reenable(sessionId),
      // After Debugger and Runtime are on: the session's sockets and compiled functions pause at their constructor, in
      // each new realm too before any code reaches it.
      ...[this.sockets, this.compiles, this.realms].map((breakpoints) => breakpoints.arm(sessionId)),
    ]);
  }

  /**
   * A dedicated worker has no Fetch domain (measured: "'Fetch.enable' wasn't found"), so none of its requests can be
   * paused and judged one by one. One made from a blob or data URL runs code a script wrote, maybe ours: it keeps the
   * egress hold's browser rules for its life (it reaches the tab's own origins only). One whose code is a file of the
   * site is the page's own, and is left alone.
   */
  private async armWorker(sessionId: string, network: Promise<unknown>): Promise<void> {
    // The trail hears of the worker's attachment right after the frame registry, which asks this of it: one turn later.
    await Promise.resolve();
    if (!this.isWorkerOfScript(sessionId)) return void (await network);
    this.wholeWorkers.add(sessionId);
    const { cdp } = this.page;
    await Promise.all([
      network,
      cdp.send('Network.setBlockedURLs', { urlPatterns: this.allowed.blockPatterns() }, sessionId),
      cdp.send('Network.emulateNetworkConditionsByRule', { matchedNetworkConditions: this.allowed.rules() }, sessionId),
    ]);
  }

  private onEvent(event: CdpEvent): void {
    // A pause at a WebSocket or Function constructor, of the handler policy's, of an unload listener or of a gesture's
    // listener is told and resumed there; every other goes on to the srcdoc breakpoints.
    this.code.onEvent(event);
    if (this.realms.onEvent(event)) return;
    if (this.sockets.onEvent(event) || this.compiles.onEvent(event)) return;
    if (this.handlers.onEvent(event) || this.unloads.onEvent(event) || this.gestures.onEvent(event)) return;
    this.documents.onEvent(event);
    this.returning.onEvent(event);
    this.setters.onEvent(event);
    this.written.onEvent(event);
    switch (event.method) {
      case 'Network.requestWillBeSent': {
        const sent = event.params as {
          requestId: string;
          initiator?: Initiator;
          type?: string;
          frameId?: string;
          hasUserGesture?: boolean;
          request: { url: string };
        };
        const key = `${event.sessionId}:${sent.requestId}`;
        // A redirect reuses the id: a hop keeps the verdict of the request that started it.
        const started =
          this.isWorkerOfScript(event.sessionId) ||
          this.code.initiator(event.sessionId, sent.initiator) ||
          this.verdicts.peek(key)?.tainted === true ||
          this.gestures.scriptDispatched() ||
          this.documents.fromScript(sent, this.acting);
        // Asked even of a request already the script's: a document it loads into a frame may be one it wrote.
        const tainted = this.written.fromWritten(event.sessionId, sent, started) || started;
        const verdict = { tainted, kind: sent.type === 'Document' ? 'navigation' : (sent.type ?? 'Other') };
        if (event.sessionId !== undefined && this.wholeWorkers.has(event.sessionId)) {
          // No pause follows: the browser's rules block it, and this is where it is told.
          const url = (event.params as { request: { url: string; method: string } }).request;
          if (!this.allowed.allows(url.url)) this.late.note({ method: url.method, url: url.url, kind: verdict.kind });
          return;
        }
        // Before the verdict is told: a pause waiting for it is answered at once.
        if (tainted && !this.documents.evalRunning() && !this.allowed.allows(sent.request.url)) {
          const { method } = (event.params as { request: { method: string } }).request;
          this.unpaused.started(key, event.sessionId, { method, url: sent.request.url, kind: verdict.kind });
        }
        return this.verdicts.told(key, verdict);
      }
      case 'Network.loadingFailed':
      case 'Network.loadingFinished': {
        const key = `${event.sessionId}:${event.params['requestId']}`;
        const refused = this.unpaused.ended(
          key,
          event.method === 'Network.loadingFailed',
          event.params['blockedReason'],
        );
        if (refused) this.late.note(refused);
        return;
      }
      case POPUP_HELD:
        return this.late.note(event.params as unknown as Send);
      case POPUP_VERDICT: {
        // A request of a window the tab wrote into, which pauses here while the window's session tells its initiator.
        const { requestId, tainted, kind } = event.params as unknown as WindowVerdict;
        return this.verdicts.told(`${event.sessionId}:${requestId}`, { tainted, kind });
      }
      case POPUP_OPENING: {
        const opening = event.params as unknown as PopupOpening;
        // A gesture's window is the script's when a listener of the script's was the last the gesture ran (an act's too).
        const listened = opening.hasUserGesture === true && this.gestures.scriptListened();
        if (listened || this.documents.startedByScript(opening.frameId, opening.hasUserGesture, this.acting))
          opening.scripted();
        return;
      }
      case POPUP_STACK: {
        // The window's script ids are its opener's process's: a session of another process that knows the same id as
        // the script's only holds more.
        const { initiator, ours } = event.params as unknown as PopupStack;
        if ([...this.sessions].some((sessionId) => this.code.initiator(sessionId, initiator))) ours();
        return;
      }
      case 'Target.attachedToTarget': {
        const info = event.params['targetInfo'] as { type: string; url: string };
        if (info.type !== 'iframe') this.workerUrls.set(String(event.params['sessionId']), info.url);
        else if (this.started) void this.arm(String(event.params['sessionId'])).catch(() => undefined);
        return;
      }
      case 'Target.detachedFromTarget':
        this.workerUrls.delete(String(event.params['sessionId']));
        this.wholeWorkers.delete(String(event.params['sessionId']));
        this.sessions.delete(String(event.params['sessionId']));
        return;
    }
  }

  /** A worker made from a blob or data URL runs code some script wrote, which may be ours: it reaches its own origin only. */
  private isWorkerOfScript(sessionId: string | undefined): boolean {
    const url = sessionId === undefined ? undefined : this.workerUrls.get(sessionId);
    return url !== undefined && /^(blob|data):/.test(url);
  }

  /** Stops a paused request the script started towards another origin; the rest go on to the guard. */
  private onPaused(event: CdpEvent): boolean {
    const paused = event.params as unknown as Paused;
    if (paused.responseStatusCode !== undefined || paused.responseErrorReason !== undefined) return false;
    if (this.allowed.allows(paused.request.url)) return false;
    const key = `${event.sessionId}:${paused.networkId ?? paused.requestId}`;
    // A returning frame's offline rule stands: judged once it is lifted, the page's own goes out then; the script's waits.
    const judge = () => void (this.onPaused(event) || this.page.frames.navigation.judge(event));
    if (this.returning.judgeLater(event.sessionId, judge)) return this.unpaused.paused(key);
    const known = this.verdicts.take(key, paused.resourceType, (verdict: Verdict) => {
      // Not the script's: it goes on as the guard would have sent it.
      if (!verdict.tainted || !this.hold(event, paused, verdict.kind, key)) this.page.frames.navigation.judge(event);
    });
    return known === undefined || (known.tainted && this.hold(event, paused, known.kind, key));
  }

  private hold(event: CdpEvent, paused: Paused, kind: string, key: string): true {
    // Aborted leaves a frame on the page it had; a script's own request fails as a network error would.
    const errorReason = paused.resourceType === 'Document' ? 'Aborted' : 'BlockedByClient';
    void this.page.cdp
      .send('Fetch.failRequest', { requestId: paused.requestId, errorReason }, event.sessionId)
      .catch(() => undefined);
    this.unpaused.paused(key);
    this.late.note({ method: paused.request.method, url: paused.request.url, kind });
    return true;
  }
}
