// Per-tab engine state: the debugger handle, its frames, the policy gate, the agent's presence in the page, the one input path, its dialogs, its DevTools logs and routes, what the agent's scripts left behind, and the ref counter that keeps refs unique for the tab's life.
import type { Send } from './egress-ledger.js';
import type { Cdp } from './cdp.js';
import { ConsoleLog } from './console-log.js';
import { NetworkLog } from './network-log.js';
import { NetworkRoutes } from './network-routes.js';
import { PageTrace } from './page-trace.js';
import { DialogState } from './dialogs.js';
import { ScriptTrail } from './egress-trail.js';
import { FrameRegistry } from './frames.js';
import { PageInput } from './input.js';
import type { PolicyGate } from './policy-gate.js';
import { Presence } from './presence.js';
import { QuietDocument } from './quiet-document.js';
import { ScriptLog } from './script-log.js';
import { SnapshotTrust } from './snapshot-trust.js';

export class PageContext {
  readonly frames: FrameRegistry;
  readonly presence: Presence;
  /** Every mouse, key and text event sent to the tab, and the act windows and focus emulation they answer to. */
  readonly input: PageInput;
  /** The JavaScript dialog open on the tab, whose it is, and the calls it interrupted. */
  readonly dialogs: DialogState;
  /** Next ref number; refs are never re-minted within a tab, so an old ref cannot hit a new element. */
  readonly refCounter = { n: 1 };
  /** The tab's console lines, captured from the agent's first read of them on (ops/console.ts). */
  readonly console: ConsoleLog;
  /** The tab's requests, captured once an agent that reads DevTools uses the tab (ops/network.ts). */
  readonly network: NetworkLog;
  /** The agent's routes on the tab's requests (ops/network-route.ts); they end with the tab. */
  readonly routes: NetworkRoutes;
  /** The performance trace an agent runs on the tab (ops/performance.ts), ended when the context goes. */
  readonly trace: PageTrace;
  /** The scripts of the tab's frames, told once Debugger is on in a session (ops/sources.ts, egress-trail.ts). */
  readonly scripts: ScriptLog;
  /** What the agent's scripts left behind on the tab, followed from its first eval for the tab's life (ops/eval.ts). */
  readonly trail: ScriptTrail;
  /** The top document's main world and whether it is quiet of password fields, as events told (quiet-document.ts). */
  readonly quiet: QuietDocument;
  /** What the renderer's counts vouch for in each frame's kept snapshot walk (snapshot-trust.ts). */
  readonly snapshotTrust: SnapshotTrust;

  /**
   * `onPersonStop`: the person pressed Esc in this tab while the agent was acting there. `agentDrives`: whether an
   * agent drives the tab, which makes a dialog the page opens on its own the agent's (default: always, as in a
   * browser of ours).
   */
  constructor(
    readonly cdp: Cdp,
    readonly gate: PolicyGate,
    onPersonStop?: () => void,
    agentDrives: () => boolean = () => true,
  ) {
    this.frames = new FrameRegistry(cdp, gate);
    this.dialogs = new DialogState(cdp, agentDrives, (frameId) => this.frames.isMainFrame(frameId));
    this.presence = new Presence(this.frames, cdp, onPersonStop);
    this.input = new PageInput(cdp, this.frames, gate, this.presence);
    const frameSessions = async () => [
      undefined,
      ...new Set((await this.frames.list()).map((frame) => frame.sessionId).filter((id) => id !== undefined)),
    ];
    const sessions = async () => [...(await frameSessions()), ...this.frames.workerSessions()];
    this.console = new ConsoleLog(cdp, sessions);
    this.network = new NetworkLog(cdp, sessions);
    this.routes = new NetworkRoutes(cdp, this.frames, gate, this.network);
    this.trace = new PageTrace(cdp);
    this.scripts = new ScriptLog(cdp, frameSessions, (sessionId) => this.trail.followed(sessionId) !== undefined);
    this.trail = new ScriptTrail(this);
    this.quiet = new QuietDocument(cdp, (frameId) => this.frames.isKnownMainFrame(frameId));
    this.snapshotTrust = new SnapshotTrust(cdp);
  }

  /**
   * Answers, once settled, what the tab held paused, unanswered, and failed rather than let go (navigation-guard.ts):
   * the engine's own holds need no list of their own for that.
   */
  dispose(): Promise<Send[]> {
    void this.trace.discard();
    this.console.dispose();
    this.network.dispose();
    this.scripts.dispose();
    this.input.dispose();
    this.dialogs.dispose();
    this.presence.dispose();
    this.quiet.dispose();
    this.snapshotTrust.dispose();
    return this.frames.dispose();
  }
}
