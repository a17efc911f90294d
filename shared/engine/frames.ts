// A tab's frames as ops use them, composed of one part per concern: the frame tree and its ordinals (frame-tree.ts),
// where each frame's document stands for the policy (frame-places.ts), the isolated world per frame that the page
// library runs in (frame-worlds.ts), and the tab's worker sessions (worker-sessions.ts).
import type { Send } from './egress-ledger.js';
import type { Cdp } from './cdp.js';
import type { AccessLevel } from '../policy/levels.js';
import type { Frame, MainFrame } from './frame.js';
import { FramePlaces } from './frame-places.js';
import { FrameTree } from './frame-tree.js';
import { FrameWorlds } from './frame-worlds.js';
import type { NavigationGuard } from './navigation-guard.js';
import type { DocumentPlace, PolicyGate } from './policy-gate.js';
import { WorkerSessions } from './worker-sessions.js';

export type { Frame } from './frame.js';

export class FrameRegistry {
  private readonly places: FramePlaces;
  private readonly tree: FrameTree;
  private readonly worlds: FrameWorlds;
  private readonly workers: WorkerSessions;
  /** Holds every document request of the tab and its child sessions until the policy allows the site. */
  readonly navigation: NavigationGuard;
  /** Calls the page library in a frame's isolated world (see FrameWorlds.call). */
  readonly call: FrameWorlds['call'];
  /** Marks the start of a tool call for the page calls that follow (see FrameWorlds.beginCall). */
  readonly beginCall: FrameWorlds['beginCall'];

  constructor(cdp: Cdp, gate: PolicyGate) {
    this.places = new FramePlaces(cdp, gate);
    this.tree = new FrameTree(cdp, gate, this.places);
    this.navigation = this.tree.navigation;
    this.worlds = new FrameWorlds(cdp, (frame) => this.places.require(frame, 'read'));
    this.call = this.worlds.call.bind(this.worlds);
    this.beginCall = this.worlds.beginCall.bind(this.worlds);
    this.workers = new WorkerSessions(cdp, (sessionId) => this.navigation.enable(sessionId));
  }

  /** Answers what the tab held paused and failed as it let go (navigation-guard.ts). */
  dispose(): Promise<Send[]> {
    const failed = this.tree.dispose();
    this.places.dispose();
    this.worlds.dispose();
    this.workers.dispose();
    return failed;
  }

  /** Enables what frame tracking needs, once per attached tab. */
  init(): Promise<void> {
    return this.tree.init();
  }

  /** Every frame in tree order (parents before children), as ops may see it. */
  list(): Promise<Frame[]> {
    return this.tree.list();
  }

  async frameByOrdinal(ordinal: number): Promise<Frame> {
    return this.tree.frameByOrdinal(ordinal);
  }

  async mainFrame(): Promise<Frame> {
    return this.tree.frameByOrdinal(0);
  }

  /** The main frame's id, URL and origin: asked once, then followed through navigation events. */
  mainFrameUrl(): Promise<MainFrame> {
    return this.tree.mainFrameUrl();
  }

  /** Whether `frameId` is the tab's top document, as navigation events told it (no round trip; unknown yet: yes). */
  isMainFrame(frameId: string): boolean {
    const main = this.places.main();
    return main === undefined || main.id === frameId;
  }

  /** Whether `frameId` is the tab's top document as navigation events told it; unknown yet: no. */
  isKnownMainFrame(frameId: string): boolean {
    return this.places.main()?.id === frameId;
  }

  placeOf(frame: Frame): DocumentPlace {
    return this.places.placeOf(frame);
  }

  /** Throws the policy's refusal when the frame's own site does not allow `need`. */
  require(frame: Frame, need: AccessLevel): void {
    this.places.require(frame, need);
  }

  allows(frame: Frame, need: AccessLevel): boolean {
    return this.places.allows(frame, need);
  }

  /** Throws the policy's refusal when the tab's top document does not allow `need`. */
  async requireMain(need: AccessLevel): Promise<void> {
    this.places.requireMain(await this.tree.mainFrameUrl(), need);
  }

  /** Releases remote objects we no longer need, so long sessions do not leak page memory. */
  release(frame: Frame, objectIds: string[]): void {
    this.worlds.release(frame, objectIds);
  }

  /** An element a CDP event named by its backend node id, as a handle in our world of `frame`. */
  resolveNode(frame: Frame, backendNodeId: number): Promise<string> {
    return this.worlds.resolveNode(frame, backendNodeId);
  }

  /** The sessions of the tab's running workers. */
  workerSessions(): string[] {
    return this.workers.sessions();
  }

  /** The script URL of the service worker on `sessionId` (one the tab's auto-attach brought); else undefined. */
  serviceWorkerUrl(sessionId: string | undefined): string | undefined {
    return this.workers.serviceWorkerUrl(sessionId);
  }

  /** Whether a route may fulfil or fail a service worker's requests in this backend (worker-update-switch.ts). */
  mayAnswerWorkers(): Promise<boolean> {
    return this.workers.mayAnswerWorkers();
  }

  /** Whether a service worker runs on a session of the tab. */
  hasServiceWorker(): boolean {
    return this.workers.hasServiceWorker();
  }

  /** Before the tab closes: undoes what its service workers' sessions leave on in the browser (worker-sessions.ts). */
  releaseWorkers(): Promise<void> {
    return this.workers.release();
  }

  /** `prepare` runs on each worker the tab starts from now on, before the worker's first line; returns the undo. */
  onWorkerStart(prepare: (sessionId: string) => Promise<unknown>): () => void {
    return this.workers.onStart(prepare);
  }
}
