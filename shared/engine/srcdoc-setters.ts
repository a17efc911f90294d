// Who changed a frame after an eval returned, where Chrome names no one: its owner's attributes (a srcdoc set) or its
// document's tree (written through contentDocument, or opened anew). DOM breakpoints pause whoever does it (any realm, any API), the
// paused stack tells the agent's script from the page, and the page resumes at once.
import type { Cdp, CdpEvent } from './cdp.js';
import type { ReturningFrames } from './returning-frames.js';
import type { PausedStack } from './script-code.js';

type Setter = 'script' | 'page';

// Attributes whose change navigates the frame; a change of another one tells nothing of the next navigation.
const NAVIGATING = new Set(['src', 'srcdoc']);

interface FrameTree {
  frame: { id: string };
  childFrames?: FrameTree[];
}

const ELEMENT_NODE = 1;

interface DescribedNode {
  backendNodeId: number;
  nodeType: number;
  children?: DescribedNode[];
}

/** Debugger.paused as the trail reads it: why, where, and the async stack that led there. */
export interface Paused extends PausedStack {
  reason: string;
  data?: { nodeId?: number; type?: string };
}

export class SrcdocSetters {
  /** Per `session:nodeId` of a frame owner with a breakpoint, the frame it shows. */
  private readonly owners = new Map<string, string>();
  /**
   * Per `session:nodeId` of a frame's document with a breakpoint on its tree, or of its root element with one on its
   * removal, that frame.
   */
  private readonly documents = new Map<string, string>();
  /**
   * Frames just attached whose breakpoint is not yet set: a page commonly inserts a frame and sets its srcdoc in one task,
   * before any breakpoint can stand, and the attaching stack judges that insertion (script-frames.ts).
   */
  private readonly inserting = new Set<string>();
  /** Per frame, who last set its owner's attributes since its last navigation was asked for; the script's sticks. */
  private readonly setters = new Map<string, Setter>();
  /** Per session, the arming under way: each step waits for the one before, as node ids depend on the document asked. */
  private readonly queues = new Map<string | undefined, Promise<void>>();

  /**
   * `byScript`: the paused stack is the agent's script's (script-code.ts).
   * `written`: the script changed the frame's document tree: what it holds is the script's writing from then on.
   * `returning`: the frames of other processes, whose owners are armed in their parent's session too.
   */
  constructor(
    private readonly cdp: Cdp,
    private readonly byScript: (sessionId: string | undefined, paused: Paused) => boolean,
    private readonly written: (frameId: string) => void,
    private readonly returning: Pick<ReturningFrames, 'remoteIn' | 'ownerSession' | 'scriptSets' | 'notNavigating'>,
  ) {}

  /**
   * Breakpoints on every frame owner of the session's documents, set again: another caller asking for the document (the
   * inspect op) drops them all (measured on Chromium 156), and its DOM.disable forgets the document. Until they stand, a
   * set is untold: held.
   */
  refresh(sessionId: string | undefined): Promise<void> {
    return this.queue(sessionId, () => this.armSession(sessionId));
  }

  /** Resolves once the arming under way in the session stands: a frame just inserted has its owner watched. */
  settled(sessionId: string | undefined): Promise<void> {
    return this.queue(sessionId, async () => undefined);
  }

  /**
   * A navigation `frameId` asked for, told once: true unless its owner's last change paused here with the page's own
   * stack, or its breakpoint is still being set on a frame just inserted (what an insertion asks for, the attaching stack
   * judges). A set that raced the breakpoint of a frame that committed, or of a document asked afresh, is untold: held.
   */
  requestedByScript(frameId: string): boolean {
    if (this.inserting.has(frameId)) return false;
    const setter = this.setters.get(frameId);
    this.setters.delete(frameId);
    return setter !== 'page';
  }

  onEvent(event: CdpEvent): void {
    const { params, sessionId } = event;
    switch (event.method) {
      case 'Debugger.paused':
        return this.paused(sessionId, params as unknown as Paused);
      case 'DOM.attributeModified':
      case 'DOM.attributeRemoved': {
        const frameId = this.owners.get(`${sessionId}:${params['nodeId']}`);
        if (frameId === undefined || NAVIGATING.has(String(params['name']))) return;
        this.returning.notNavigating(frameId);
        if (this.setters.get(frameId) === 'page') this.setters.delete(frameId);
        return;
      }
      case 'DOM.documentUpdated':
        return void this.refresh(sessionId).catch(() => undefined);
      case 'Page.frameAttached': {
        const frameId = String(params['frameId']);
        this.inserting.add(frameId);
        // The DOM agent may not know the document yet (no frame was on the page when it was asked): then all anew.
        const armed = this.queue(sessionId, () => this.arm(sessionId, frameId).catch(() => this.armSession(sessionId)));
        return void armed.catch(() => undefined).finally(() => this.inserting.delete(frameId));
      }
      case 'Page.frameNavigated': {
        // The DOM agent tells the owner anew on each commit in its frame, and its breakpoint goes with the old node; the
        // owner of a frame in another process is its parent's session's.
        const frame = params['frame'] as { id: string; parentId?: string };
        this.setters.delete(frame.id);
        if (frame.parentId === undefined) return;
        return this.rearm(this.returning.ownerSession(sessionId, frame.id), frame.id);
      }
      case 'Page.frameDetached':
        // A frame gone to another process: its owner here is told anew too (measured on Chromium 156).
        if (params['reason'] === 'swap') return this.rearm(sessionId, String(params['frameId']));
        this.inserting.delete(String(params['frameId']));
        this.setters.delete(String(params['frameId']));
        return this.forget(String(params['frameId']));
    }
  }

  /** Every frame owner of the session's documents armed anew, the document asked for again only when it must be. */
  private async armSession(sessionId: string | undefined): Promise<void> {
    for (const [key] of this.documents) if (key.startsWith(`${sessionId}:`)) this.documents.delete(key);
    for (const [key, frameId] of this.owners) {
      if (!key.startsWith(`${sessionId}:`)) continue;
      this.owners.delete(key);
      if (this.setters.get(frameId) === 'page') this.setters.delete(frameId);
    }
    await this.cdp.send('DOM.enable', {}, sessionId);
    const { frameTree } = await this.cdp.send<{ frameTree: FrameTree }>('Page.getFrameTree', {}, sessionId);
    // The session's root frame is the tab's or an out-of-process one, whose owner is another session's; the tree lists
    // no frame of another process, whose owner is this session's all the same.
    const children = (tree: FrameTree): string[] =>
      (tree.childFrames ?? []).flatMap((child) => [child.frame.id, ...children(child)]);
    const frameIds = [...children(frameTree), ...this.returning.remoteIn(sessionId)];
    const armAll = () => Promise.all(frameIds.map((frameId) => this.arm(sessionId, frameId)));
    // Asking for the document again would drop the breakpoints standing: only when no node can be told without it.
    await armAll().catch(async () => {
      await this.cdp.send('DOM.getDocument', { depth: 0 }, sessionId);
      await Promise.all(frameIds.map((frameId) => this.arm(sessionId, frameId).catch(() => undefined)));
    });
  }

  private rearm(sessionId: string | undefined, frameId: string): void {
    void this.queue(sessionId, () => this.arm(sessionId, frameId)).catch(() => undefined);
  }

  /**
   * Told at once, and the page goes on before anything else: no pause of ours outlives the event that tells it, but for
   * the script's set of a frame in another process, which waits for its parent's session to refuse other origins.
   */
  private paused(sessionId: string | undefined, paused: Paused): void {
    const resume = () => void this.cdp.send('Debugger.resume', {}, sessionId).catch(() => undefined);
    const held = paused.reason === 'DOM' ? this.told(sessionId, paused) : undefined;
    if (held) void held.then(resume);
    else resume();
  }

  /** A DOM breakpoint's pause: what must stand before the page goes on, if anything. */
  private told(sessionId: string | undefined, paused: Paused): Promise<unknown> | undefined {
    const node = `${sessionId}:${paused.data?.nodeId}`;
    // An image or a handler the script writes into a frame's document names no stack when it sends (measured: an
    // onerror attribute's fetch, an innerHTML image, a form its written code submits): the frame is held instead.
    const document = this.documents.get(node);
    if (document !== undefined && this.byScript(sessionId, paused)) this.written(document);
    const frameId = this.owners.get(node);
    if (frameId === undefined) return;
    const setter = this.byScript(sessionId, paused) ? 'script' : 'page';
    if (this.setters.get(frameId) !== 'script') this.setters.set(frameId, setter);
    return setter === 'script' ? this.returning.scriptSets(sessionId, frameId) : undefined;
  }

  /**
   * Breakpoints on the frame's owner, and, when its document lives in this session's process, on that document's tree
   * and on the removal of its root. document.open() empties the document without pausing the document's subtree
   * breakpoint, nor does the parser's writing after it (measured on Chromium 156): a breakpoint on the root's removal
   * pauses the open. A root written later is told to us as it is inserted, and its removal pauses the subtree's.
   */
  private async arm(sessionId: string | undefined, frameId: string): Promise<void> {
    const { cdp } = this;
    const owner = await cdp.send<{ backendNodeId: number }>('DOM.getFrameOwner', { frameId }, sessionId);
    // Deep enough to name the document's root element through the owner.
    const { node } = await cdp.send<{ node: { contentDocument?: DescribedNode } }>(
      'DOM.describeNode',
      { backendNodeId: owner.backendNodeId, depth: 2, pierce: true },
      sessionId,
    );
    const content = node.contentDocument;
    const root = content?.children?.find((child) => child.nodeType === ELEMENT_NODE);
    const backendNodeIds = [owner.backendNodeId, content?.backendNodeId, root?.backendNodeId];
    const { nodeIds } = await cdp.send<{ nodeIds: number[] }>(
      'DOM.pushNodesByBackendIdsToFrontend',
      { backendNodeIds: backendNodeIds.filter((id) => id !== undefined) },
      sessionId,
    );
    const [nodeId, documentId, rootId] = nodeIds;
    if (!nodeId) return;
    const breakpoint = (id: number | undefined, type: string) =>
      id ? cdp.send('DOMDebugger.setDOMBreakpoint', { nodeId: id, type }, sessionId) : undefined;
    await Promise.all([
      breakpoint(nodeId, 'attribute-modified'),
      breakpoint(documentId, 'subtree-modified'),
      breakpoint(rootId, 'node-removed'),
    ]);
    this.forget(frameId);
    this.owners.set(`${sessionId}:${nodeId}`, frameId);
    for (const id of [documentId, rootId]) if (id) this.documents.set(`${sessionId}:${id}`, frameId);
  }

  /** The frame's owner nodes as told before: a node id of an owner the DOM agent told anew is never paused on again. */
  private forget(frameId: string): void {
    for (const nodes of [this.owners, this.documents])
      for (const [key, owned] of nodes) if (owned === frameId) nodes.delete(key);
  }

  private queue(sessionId: string | undefined, step: () => Promise<void>): Promise<void> {
    const next = (this.queues.get(sessionId) ?? Promise.resolve()).catch(() => undefined).then(step);
    this.queues.set(sessionId, next);
    return next;
  }
}
