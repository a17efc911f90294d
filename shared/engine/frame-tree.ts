// A tab's frame tree: its own session's frames plus auto-attached child sessions (out-of-process iframes), listed in
// tree order with stable ordinals per frame.
import type { Send } from './egress-ledger.js';
import type { Cdp, CdpEvent } from './cdp.js';
import { ToolError } from '../protocol/errors.js';
import { noAnswerWithin, withDeadline } from './deadline.js';
import { NavigationGuard } from './navigation-guard.js';
import type { Frame, MainFrame } from './frame.js';
import type { FramePlaces } from './frame-places.js';
import type { PolicyGate } from './policy-gate.js';

interface FrameTreeNode {
  frame: { id: string; parentId?: string; url: string; urlFragment?: string; securityOrigin?: string };
  childFrames?: FrameTreeNode[];
}

/** An out-of-process iframe's session, with what its attachment told of its root frame. */
interface ChildSession {
  enabled: Promise<void>;
  frameId: string;
  parentFrameId: string | undefined;
  url: string;
}

// One hung out-of-process iframe must not stall every op on the tab: its session gets a short bound and is then
// listed as unreadable. The main session, which every op needs, gets longer, so a heavy page is slow rather than failed.
export const CHILD_LIST_TIMEOUT_MS = 2_000;
const MAIN_LIST_TIMEOUT_MS = 15_000;
const SILENT = Symbol('silent');

export class FrameTree {
  private readonly ordinals = new Map<string, number>();
  private readonly childSessions = new Map<string, ChildSession>();
  private readonly unsubscribe: () => void;
  private ready: Promise<void> | undefined;
  /** Bumped by every event that can change the frame tree or a frame's URL; a kept list is valid only for its own. */
  private treeGeneration = 0;
  private listed: { generation: number; frames: Frame[] } | undefined;
  /** Holds every document request of the tab and its child sessions until the policy allows the site. */
  readonly navigation: NavigationGuard;

  constructor(
    private readonly cdp: Cdp,
    gate: PolicyGate,
    private readonly places: FramePlaces,
  ) {
    this.unsubscribe = cdp.on((event) => this.onEvent(event));
    const isMainDocument = (frameId: string | undefined, sessionId: string | undefined) =>
      sessionId === undefined && places.isMain(frameId);
    this.navigation = new NavigationGuard(cdp, gate, isMainDocument);
  }

  /** Answers what the tab's sessions held paused and were failed as the guard let go (navigation-guard.ts). */
  dispose(): Promise<Send[]> {
    this.unsubscribe();
    return this.navigation.dispose([undefined, ...this.childSessions.keys()]);
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
    if (this.listed?.generation === this.treeGeneration)
      return this.listed.frames.map((frame) => this.places.shown(frame));
    const generation = this.treeGeneration;
    const children = [...this.childSessions];
    const [main, ...trees] = await Promise.all([
      withDeadline(this.frameTree(undefined), MAIN_LIST_TIMEOUT_MS, () => {
        throw new ToolError('TIMEOUT', `The tab ${noAnswerWithin(MAIN_LIST_TIMEOUT_MS)}.`);
      }),
      ...children.map(([sessionId, child]) =>
        withDeadline<FrameTreeNode | undefined | typeof SILENT>(
          child.enabled.then(() => this.frameTree(sessionId)),
          CHILD_LIST_TIMEOUT_MS,
          () => SILENT,
        ),
      ),
    ]);
    // Ordinals are minted in this order, after every answer is in: the main frame is always 0.
    const flat: Frame[] = [];
    const visit = (tree: FrameTreeNode, sessionId: string | undefined) => {
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
        flat.push({
          ordinal: this.ordinalOf(frameId),
          frameId,
          sessionId,
          parentFrameId,
          url,
          unreadable: noAnswerWithin(CHILD_LIST_TIMEOUT_MS),
        });
      } else if (tree) {
        child.url = urlOf(tree.frame);
        visit(tree, sessionId);
      }
    });
    const frames = orderByTree(flat);
    this.places.remember(frames);
    // Only a complete answer, with no event in between, is worth keeping: a silent frame is asked again next time.
    if (generation === this.treeGeneration && !frames.some((frame) => frame.unreadable))
      this.listed = { generation, frames: frames.map((frame) => ({ ...frame })) };
    return frames.map((frame) => this.places.shown(frame));
  }

  /** The main frame's id, URL and origin: asked once, then followed through navigation events (Page is enabled by init). */
  async mainFrameUrl(): Promise<MainFrame> {
    await this.init();
    const known = this.places.main();
    if (known) return known;
    const tree = await this.frameTree(undefined);
    if (!tree) throw new ToolError('TAB_NOT_FOUND', 'The tab did not answer for its main frame.');
    const { id, securityOrigin } = tree.frame;
    const origin = securityOrigin === undefined ? {} : { origin: securityOrigin };
    return this.places.main({ id, url: urlOf(tree.frame), ...origin })!;
  }

  /** The session's frame tree; undefined when the session is gone or refuses. */
  private frameTree(sessionId: string | undefined): Promise<FrameTreeNode | undefined> {
    return this.cdp.send<{ frameTree: FrameTreeNode }>('Page.getFrameTree', {}, sessionId).then(
      (result) => result.frameTree,
      () => undefined,
    );
  }

  async frameByOrdinal(ordinal: number): Promise<Frame> {
    const frame = (await this.list()).find((candidate) => candidate.ordinal === ordinal);
    if (!frame) throw new ToolError('FRAME_NOT_FOUND', `Frame f${ordinal} is gone.`);
    return frame;
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
        this.cdp.send(
          'Target.setAutoAttach',
          { autoAttach: true, waitForDebuggerOnStart: true, flatten: true },
          sessionId,
        ),
      ]);
    } finally {
      if (resume) void this.cdp.send('Runtime.runIfWaitingForDebugger', {}, sessionId).catch(() => undefined);
    }
  }

  private onEvent(event: CdpEvent): void {
    if (TREE_EVENTS.has(event.method)) this.treeGeneration++;
    switch (event.method) {
      case 'Target.attachedToTarget': {
        const sessionId = String(event.params['sessionId']);
        const info = event.params['targetInfo'] as {
          type: string;
          targetId: string;
          parentFrameId?: string;
          url: string;
        };
        // Workers are the worker sessions' (worker-sessions.ts); only iframes hold frames.
        if (info.type !== 'iframe') return;
        const enabled = this.enableSession(sessionId, event.params['waitingForDebugger'] === true).catch(
          () => undefined,
        );
        // An iframe target's id is the id of the frame it holds.
        this.childSessions.set(sessionId, {
          enabled,
          frameId: info.targetId,
          parentFrameId: info.parentFrameId,
          url: info.url,
        });
        return;
      }
      case 'Target.detachedFromTarget':
        this.childSessions.delete(String(event.params['sessionId']));
        return;
      case 'Page.frameNavigated': {
        // Where its document stands is the places' (frame-places.ts); a child session's root frame URL is kept here.
        const frame = event.params['frame'] as FrameTreeNode['frame'];
        const child = event.sessionId === undefined ? undefined : this.childSessions.get(event.sessionId);
        if (child?.frameId === frame.id) child.url = urlOf(frame);
        return;
      }
      case 'Inspector.detached':
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

/** A frame's URL; "" while it has committed no document, which Chrome reports as ":" (measured, Chromium 156). */
export function urlOf(frame: { url: string; urlFragment?: string }): string {
  if (frame.url === ':') return '';
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
