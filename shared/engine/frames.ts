// A tab's frames: the tab session's frame tree plus auto-attached child sessions (out-of-process iframes), stable
// ordinals per frame, and one isolated world per frame where our in-page library runs unseen by the page.
import { CdpCommandError, type Cdp, type CdpEvent } from './cdp.js';
import { isErrorCode, ToolError } from '../protocol/errors.js';
import type { AccessLevel } from '../policy/levels.js';
import { noAnswerWithin, withDeadline } from './deadline.js';
import { NavigationGuard } from './navigation-guard.js';
import { pageLibrarySource } from './page/library.js';
import { PERSON_STOP_BINDING } from './presence.js';
import { isOpaqueBlank, type DocumentPlace, type PolicyGate } from './policy-gate.js';

export interface Frame {
  /** Stable per tab: 0 is the main frame; refs of frame N are prefixed `fN`. */
  ordinal: number;
  frameId: string;
  /** Child session holding this frame (out-of-process iframe); undefined for the tab's own session. */
  sessionId: string | undefined;
  parentFrameId: string | undefined;
  url: string;
  /** The document's security origin, which an about:blank or srcdoc frame takes from its maker. */
  origin?: string;
  /** Why the frame cannot be read, when its session did not answer the listing; the frame is then known only from its attachment. */
  unreadable?: string;
}

interface FrameTree {
  frame: { id: string; parentId?: string; url: string; urlFragment?: string; securityOrigin?: string };
  childFrames?: FrameTree[];
}

/** An out-of-process iframe's session, with what its attachment told of its root frame. */
interface ChildSession {
  enabled: Promise<void>;
  frameId: string;
  parentFrameId: string | undefined;
  url: string;
}

const WORLD_NAME = '__chrome_mcp__';
// One hung out-of-process iframe must not stall every op on the tab: its session gets a short bound and is then
// listed as unreadable. The main session, which every op needs, gets longer, so a heavy page is slow rather than failed.
const CHILD_LIST_TIMEOUT_MS = 2_000;
const MAIN_LIST_TIMEOUT_MS = 15_000;
const SILENT = Symbol('silent');

export class FrameRegistry {
  private readonly ordinals = new Map<string, number>();
  private readonly worlds = new Map<string, Promise<number>>();
  private readonly childSessions = new Map<string, ChildSession>();
  private readonly unsubscribe: () => void;
  private ready: Promise<void> | undefined;
  /** Bumped by every event that can change the frame tree or a frame's URL; a kept list is valid only for its own. */
  private treeGeneration = 0;
  private listed: { generation: number; frames: Frame[] } | undefined;
  /** The main frame as its navigation events last told it; kept live so acts learn the URL without a round trip. */
  private main: { id: string; url: string; origin?: string } | undefined;
  /** Each frame's document as its last navigation told it, so a policy check never judges an older document. */
  private readonly places = new Map<string, DocumentPlace>();
  /** Every frame the last listing found, by id: a frame's parent is looked up here. */
  private readonly seen = new Map<string, Frame>();
  /** Holds every document request of the tab and its child sessions until the policy allows the site. */
  readonly navigation: NavigationGuard;
  /** What each new worker of the tab waits for before it runs (the egress hold putting its rules on it). */
  private readonly workerPreparers = new Set<(sessionId: string) => Promise<unknown>>();
  /** The sessions of the tab's workers that are running now. */
  private readonly workers = new Set<string>();

  constructor(
    readonly cdp: Cdp,
    private readonly gate: PolicyGate,
  ) {
    this.unsubscribe = cdp.on((event) => this.onEvent(event));
    this.navigation = new NavigationGuard(cdp, gate, (frameId, sessionId) => sessionId === undefined && frameId !== undefined && frameId === this.main?.id);
  }

  /** The sessions of the tab's running workers (dedicated ones: the page's own session attaches those). */
  workerSessions(): string[] {
    return [...this.workers];
  }

  /** `prepare` runs on each worker the tab starts from now on, before the worker's first line; returns the undo. */
  onWorkerStart(prepare: (sessionId: string) => Promise<unknown>): () => void {
    this.workerPreparers.add(prepare);
    return () => this.workerPreparers.delete(prepare);
  }

  dispose(): void {
    this.unsubscribe();
    this.navigation.dispose([undefined, ...this.childSessions.keys()]);
  }

  /**
   * Where the frame's document is now: its last navigation, else what the listing said. A sandboxed srcdoc or blank
   * frame has an opaque origin; its content came from the frame that made it, so it stands where its parent does.
   */
  placeOf(frame: Frame): DocumentPlace {
    const own = this.places.get(frame.frameId) ?? { url: frame.url, origin: frame.origin };
    const parent = frame.parentFrameId === undefined ? undefined : this.seen.get(frame.parentFrameId);
    return parent && isOpaqueBlank(own) ? this.placeOf(parent) : own;
  }

  /** Throws the policy's refusal when the frame's own site does not allow `need`. */
  require(frame: Frame, need: AccessLevel): void {
    this.gate.require(this.placeOf(frame), need, frame.ordinal === 0 ? undefined : `Frame f${frame.ordinal}`);
  }

  allows(frame: Frame, need: AccessLevel): boolean {
    return this.gate.allows(this.placeOf(frame), need);
  }

  /** Enables what frame tracking needs, once per attached tab. */
  init(): Promise<void> {
    this.ready ??= this.enableSession(undefined).catch((error) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  /**
   * Every frame in tree order (parents before children). Re-read from the browser when a frame event came since the
   * last read; otherwise the last answer stands, which spares every op a round trip per session (most over
   * chrome.debugger).
   */
  async list(): Promise<Frame[]> {
    await this.init();
    if (this.listed?.generation === this.treeGeneration) return this.listed.frames.map((frame) => this.shown(frame));
    const generation = this.treeGeneration;
    const children = [...this.childSessions];
    const [main, ...trees] = await Promise.all([
      withDeadline(this.frameTree(undefined), MAIN_LIST_TIMEOUT_MS, () => {
        throw new ToolError('TIMEOUT', `The tab ${noAnswerWithin(MAIN_LIST_TIMEOUT_MS)}.`);
      }),
      ...children.map(([sessionId, child]) =>
        withDeadline<FrameTree | undefined | typeof SILENT>(child.enabled.then(() => this.frameTree(sessionId)), CHILD_LIST_TIMEOUT_MS, () => SILENT),
      ),
    ]);
    // Ordinals are minted in this order, after every answer is in: the main frame is always 0.
    const flat: Frame[] = [];
    const visit = (tree: FrameTree, sessionId: string | undefined) => {
      flat.push({
        ordinal: this.ordinalOf(tree.frame.id),
        frameId: tree.frame.id,
        sessionId,
        parentFrameId: tree.frame.parentId,
        url: urlOf(tree.frame),
        ...(tree.frame.securityOrigin === undefined ? {} : { origin: tree.frame.securityOrigin }),
      });
      for (const child of tree.childFrames ?? []) visit(child, sessionId);
    };
    if (main) visit(main, undefined);
    children.forEach(([sessionId, child], index) => {
      const tree = trees[index];
      if (tree === SILENT) {
        const { frameId, parentFrameId, url } = child;
        flat.push({ ordinal: this.ordinalOf(frameId), frameId, sessionId, parentFrameId, url, unreadable: noAnswerWithin(CHILD_LIST_TIMEOUT_MS) });
      } else if (tree) {
        child.url = urlOf(tree.frame);
        visit(tree, sessionId);
      }
    });
    const frames = orderByTree(flat);
    this.seen.clear();
    for (const frame of frames) this.seen.set(frame.frameId, frame);
    // Only a complete answer, with no event in between, is worth keeping: a silent frame is asked again next time.
    if (generation === this.treeGeneration && !frames.some((frame) => frame.unreadable)) this.listed = { generation, frames: frames.map((frame) => ({ ...frame })) };
    return frames.map((frame) => this.shown(frame));
  }

  /**
   * A frame as ops see it. The path and query of a frame whose site may not be read are the person's business (an
   * account number in a bank's iframe URL), so such a frame is named by its origin alone.
   */
  private shown(frame: Frame): Frame {
    if (this.allows(frame, 'read')) return { ...frame };
    return { ...frame, url: originOf(this.placeOf(frame)) };
  }

  /** The main frame's id, URL and origin: asked once, then followed through navigation events (Page is enabled by init). */
  async mainFrameUrl(): Promise<{ id: string; url: string; origin?: string }> {
    await this.init();
    if (!this.main) {
      const tree = await this.frameTree(undefined);
      if (!tree) throw new ToolError('TAB_NOT_FOUND', 'The tab did not answer for its main frame.');
      this.main ??= { id: tree.frame.id, url: urlOf(tree.frame), ...(tree.frame.securityOrigin === undefined ? {} : { origin: tree.frame.securityOrigin }) };
    }
    return { ...this.main };
  }

  /** Throws the policy's refusal when the tab's top document does not allow `need`. */
  async requireMain(need: AccessLevel): Promise<void> {
    const main = await this.mainFrameUrl();
    this.gate.require(this.places.get(main.id) ?? main, need);
  }

  /** The session's frame tree; undefined when the session is gone or refuses. */
  private frameTree(sessionId: string | undefined): Promise<FrameTree | undefined> {
    return this.cdp.send<{ frameTree: FrameTree }>('Page.getFrameTree', {}, sessionId).then(
      (result) => result.frameTree,
      () => undefined,
    );
  }

  async frameByOrdinal(ordinal: number): Promise<Frame> {
    const frame = (await this.list()).find((candidate) => candidate.ordinal === ordinal);
    if (!frame) throw new ToolError('FRAME_NOT_FOUND', `Frame f${ordinal} is gone.`);
    return frame;
  }

  async mainFrame(): Promise<Frame> {
    return this.frameByOrdinal(0);
  }

  /**
   * Calls `__cm.<name>(...args)` from the page library inside the frame's isolated world.
   * `handles` are object ids passed as extra leading arguments (elements found earlier).
   */
  async call<R>(frame: Frame, name: string, args: unknown[] = [], opts: { handles?: string[]; returnHandle?: boolean } = {}): Promise<R> {
    const handles = opts.handles ?? [];
    const declaration = `function(...a){return globalThis.__cm.${name}(...a)}`;
    const run = async (): Promise<R> => {
      // The backstop under every op: nothing of ours runs in, or reads from, a document whose site may not be read.
      this.require(frame, 'read');
      const executionContextId = await this.world(frame);
      const params: Record<string, unknown> = {
        functionDeclaration: declaration,
        arguments: [...handles.map((objectId) => ({ objectId })), ...args.map((value) => ({ value }))],
        returnByValue: !opts.returnHandle,
        awaitPromise: true,
      };
      // An object argument fixes the context; otherwise name the world explicitly.
      if (handles.length === 0) params['executionContextId'] = executionContextId;
      else params['objectId'] = handles[0];
      const result = await this.cdp.send<CallResult>('Runtime.callFunctionOn', params, frame.sessionId);
      if (result.exceptionDetails) {
        const description = result.exceptionDetails.exception?.description ?? result.exceptionDetails.text;
        throw pageScriptError(description);
      }
      return (opts.returnHandle ? result.result.objectId : result.result.value) as R;
    };
    try {
      return await run();
    } catch (error) {
      if (!isContextGone(error)) throw error;
      // The frame navigated since the world was made: a fresh world has none of the old refs.
      this.worlds.delete(frame.frameId);
      return run();
    }
  }

  /** Releases remote objects we no longer need, so long sessions do not leak page memory. */
  release(frame: Frame, objectIds: string[]): void {
    for (const objectId of objectIds) void this.cdp.send('Runtime.releaseObject', { objectId }, frame.sessionId).catch(() => undefined);
  }

  private world(frame: Frame): Promise<number> {
    let world = this.worlds.get(frame.frameId);
    if (!world) {
      world = this.createWorld(frame);
      this.worlds.set(frame.frameId, world);
      world.catch(() => this.worlds.delete(frame.frameId));
    }
    return world;
  }

  private async createWorld(frame: Frame): Promise<number> {
    const { executionContextId } = await this.cdp
      .send<{ executionContextId: number }>('Page.createIsolatedWorld', { frameId: frame.frameId, worldName: WORLD_NAME, grantUniveralAccess: false }, frame.sessionId)
      .catch((error: unknown) => {
        throw new ToolError('FRAME_UNREADABLE', `Frame f${frame.ordinal} (${frame.url}) cannot run scripts: ${messageOf(error)}`);
      });
    const [installed] = await Promise.all([
      this.cdp.send<CallResult>('Runtime.evaluate', { expression: pageLibrarySource(), contextId: executionContextId, returnByValue: true }, frame.sessionId),
      // Only our world can reach the binding: it is added to contexts of that name, and without Runtime.enable (which
      // would replay the console) only to those that exist already, so each new top-frame world asks again.
      frame.sessionId === undefined && frame.parentFrameId === undefined
        ? this.cdp.send('Runtime.addBinding', { name: PERSON_STOP_BINDING, executionContextName: WORLD_NAME }).catch(() => undefined)
        : undefined,
    ]);
    if (installed.exceptionDetails) throw new ToolError('INTERNAL', `Page library failed to install: ${installed.exceptionDetails.text}`);
    return executionContextId;
  }

  private ordinalOf(frameId: string): number {
    let ordinal = this.ordinals.get(frameId);
    if (ordinal === undefined) {
      ordinal = this.ordinals.size;
      this.ordinals.set(frameId, ordinal);
    }
    return ordinal;
  }

  /**
   * Child sessions start paused (waitForDebuggerOnStart), so an iframe's own later navigations are held by the guard
   * before it can make one; `resume` lets the child run once that is in place, and runs even when enabling failed.
   */
  private async enableSession(sessionId: string | undefined, resume = false): Promise<void> {
    try {
      await Promise.all([
        this.navigation.enable(sessionId),
        this.cdp.send('Page.enable', {}, sessionId),
        this.cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true }, sessionId),
      ]);
    } finally {
      if (resume) void this.cdp.send('Runtime.runIfWaitingForDebugger', {}, sessionId).catch(() => undefined);
    }
  }

  /** A worker that could not be prepared stays paused: run, it would send past what should have held it. */
  private async startWorker(sessionId: string): Promise<void> {
    const prepared = Promise.all([...this.workerPreparers].map((prepare) => prepare(sessionId))).then(() => true, () => false);
    if (!(await withDeadline(prepared, CHILD_LIST_TIMEOUT_MS, () => false))) return;
    await this.cdp.send('Runtime.runIfWaitingForDebugger', {}, sessionId).catch(() => undefined);
  }

  private onEvent(event: CdpEvent): void {
    if (TREE_EVENTS.has(event.method)) this.treeGeneration++;
    switch (event.method) {
      case 'Target.attachedToTarget': {
        const sessionId = String(event.params['sessionId']);
        const info = event.params['targetInfo'] as { type: string; targetId: string; parentFrameId?: string; url: string };
        const waiting = event.params['waitingForDebugger'] === true;
        if (info.type !== 'iframe') {
          // Workers are not ours to read, but auto-attach paused them: they run once what watches their requests is on.
          this.workers.add(sessionId);
          if (waiting) void this.startWorker(sessionId);
          return;
        }
        const enabled = this.enableSession(sessionId, waiting).catch(() => undefined);
        // An iframe target's id is the id of the frame it holds.
        this.childSessions.set(sessionId, { enabled, frameId: info.targetId, parentFrameId: info.parentFrameId, url: info.url });
        return;
      }
      case 'Target.detachedFromTarget':
        this.childSessions.delete(String(event.params['sessionId']));
        this.workers.delete(String(event.params['sessionId']));
        return;
      case 'Page.frameNavigated': {
        const frame = event.params['frame'] as FrameTree['frame'];
        this.worlds.delete(frame.id);
        const place = { url: urlOf(frame), ...(frame.securityOrigin === undefined ? {} : { origin: frame.securityOrigin }) };
        this.places.set(frame.id, place);
        if (event.sessionId === undefined && frame.parentId === undefined) this.main = { id: frame.id, ...place };
        const child = event.sessionId === undefined ? undefined : this.childSessions.get(event.sessionId);
        if (child?.frameId === frame.id) child.url = urlOf(frame);
        return;
      }
      case 'Page.frameDetached':
        this.worlds.delete(String(event.params['frameId']));
        this.places.delete(String(event.params['frameId']));
        return;
      case 'Page.navigatedWithinDocument': {
        // Same document, same origin: only the URL moves.
        const frameId = String(event.params['frameId']);
        const place = this.places.get(frameId);
        if (place) place.url = String(event.params['url']);
        if (event.sessionId === undefined && this.main && this.main.id === frameId) this.main.url = String(event.params['url']);
        return;
      }
      case 'Inspector.detached':
        this.main = undefined;
        this.places.clear();
        this.worlds.clear();
        this.childSessions.clear();
        this.ready = undefined;
        return;
    }
  }
}

// Events after which a kept frame list may be wrong: a frame came, went, moved process, or changed URL.
const TREE_EVENTS = new Set([
  'Target.attachedToTarget',
  'Target.detachedFromTarget',
  'Page.frameAttached',
  'Page.frameDetached',
  'Page.frameNavigated',
  'Page.navigatedWithinDocument',
  'Inspector.detached',
]);

interface CallResult {
  result: { value?: unknown; objectId?: string };
  exceptionDetails?: { text: string; exception?: { description?: string } };
}

/** Page-library functions throw `CODE: message` to report a typed failure. */
function pageScriptError(description: string): ToolError {
  const match = /([A-Z_]{4,}): (.*)/s.exec(description);
  if (match && isErrorCode(match[1])) return new ToolError(match[1], match[2]!.split('\n    at ')[0]);
  return new ToolError('INTERNAL', `Page script failed: ${description.split('\n')[0]}`);
}

function isContextGone(error: unknown): boolean {
  return error instanceof CdpCommandError && /Cannot find context|Execution context was destroyed|Cannot find object/i.test(error.cdpMessage);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function originOf(place: DocumentPlace): string {
  try {
    const origin = new URL(place.url).origin;
    return origin === 'null' ? (place.origin ?? place.url.split(/[?#]/)[0]!) : origin;
  } catch {
    return '(unknown)';
  }
}

function urlOf(frame: FrameTree['frame']): string {
  return frame.url + (frame.urlFragment ?? '');
}

function orderByTree(frames: Frame[]): Frame[] {
  const byParent = new Map<string | undefined, Frame[]>();
  const ids = new Set(frames.map((frame) => frame.frameId));
  for (const frame of frames) {
    const parent = frame.parentFrameId && ids.has(frame.parentFrameId) ? frame.parentFrameId : undefined;
    const siblings = byParent.get(parent) ?? [];
    siblings.push(frame);
    byParent.set(parent, siblings);
  }
  const ordered: Frame[] = [];
  const walk = (parent: string | undefined) => {
    for (const frame of byParent.get(parent) ?? []) {
      ordered.push(frame);
      walk(frame.frameId);
    }
  };
  walk(undefined);
  return ordered;
}
