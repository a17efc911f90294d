// One tab's chrome.debugger attachment as the engine's Cdp: commands go by {tabId, sessionId}, an agent's script only
// once the host has armed what holds its later windows; the host routes the tab's events in and tells it when the
// attachment ends. The site's workers lent to its gate (lent-workers.ts) are reached by their own target ids.
import { CdpCommandError } from '../../shared/engine/cdp.js';
import { GiveBacks } from '../../shared/engine/give-backs.js';
import { PromiseCdp } from '../../shared/engine/promise-cdp.js';
import { keepNewest } from '../../shared/engine/keep-newest.js';
import { scriptTag } from '../../shared/engine/script-initiator.js';
import { ToolError } from '../../shared/protocol/errors.js';
import { workerTarget, type WorkerLender } from './lent-workers.js';

/** chrome.debugger.onDetach's reason when the tab itself went away (closed, crashed, browser quitting). */
export const TARGET_CLOSED = 'target_closed';
// The tags of the agent's scripts kept: Chrome tells of a script's start right after it is sent.
const KEPT_TAGS = 64;

export class DebuggerTab extends PromiseCdp {
  /** Set while an agent's script waits for `beforeScript`: the tab's later commands wait too, so none overtakes it. */
  private arming: Promise<void> | undefined;
  /** The sourceURL tags of the agent's scripts this attachment sent, newest last. */
  private readonly sentTags = new Set<string>();
  private readonly lent = new GiveBacks();

  /**
   * `beforeScript`: arms the holds an agent's script needs in the tab, given the session it runs in; its script is sent
   * once that resolves, and fails unsent with its error when it rejects. `sending`: hears each command as it goes to
   * Chrome. `windowsHeld`: holds the windows the tab opens for a gesture's activation, settling once the rules stand.
   * `workers`: lends the tab the site's workers no tab owns (Cdp.lendWorkers), and reaches them.
   * `scriptedBefore`: an agent's script ran in the tab before this attachment (Cdp.scriptedBefore).
   */
  constructor(
    readonly tabId: number,
    private readonly beforeScript: (sessionId: string | undefined) => Promise<void>,
    private readonly sending: (method: string, params: Record<string, unknown>, sessionId: string | undefined) => void,
    private readonly windowsHeld: () => Promise<void>,
    private readonly workers: WorkerLender,
    readonly scriptedBefore?: { following(): void },
  ) {
    super();
  }

  /** A listener of the agent's script runs with the person's gesture: the windows it may open are held first. */
  holdWindows(): Promise<void> {
    return this.windowsHeld();
  }

  async lendWorkers(origins: readonly string[], told: (sessionId: string) => void): Promise<() => void> {
    const giveBack = await this.workers.lend(origins, {
      told,
      deliver: (method, params, sessionId) => this.dispatch(method, params, sessionId),
    });
    const kept = this.lent.keep(giveBack);
    // A tab gone meanwhile has none to judge what they pause.
    if (!this.attached) kept();
    return kept;
  }

  /**
   * Whether a script Debugger.scriptParsed tells of (by its `url`) is one of the agent's this attachment sent: enabling
   * the Debugger domain tells again of every script still alive in the tab, an earlier attachment's too (measured on
   * Chromium 156), which start nothing now.
   */
  sentScript(url: string): boolean {
    return this.sentTags.has(url);
  }

  /** An event of this tab (no sessionId) or of one of its flattened child sessions. */
  dispatch(method: string, params: Record<string, unknown>, sessionId: string | undefined): void {
    this.receive(method, params, sessionId);
  }

  /** The attachment ended: fails calls in flight and tells the engine, which drops its page context for the tab. */
  detached(reason: string): void {
    this.end(reason);
    this.lent.all();
  }

  protected override call(
    method: string,
    params: Record<string, unknown>,
    sessionId: string | undefined,
  ): Promise<unknown> {
    const workerId = workerTarget(sessionId);
    // A lent worker's answers go straight to it: they are no script, and nothing of the tab's waits for them.
    if (workerId !== undefined)
      return this.workers.send(workerId, method, params).catch((error: unknown) => {
        throw new CdpCommandError(method, error instanceof Error ? error.message : String(error));
      });
    const target: chrome.debugger.DebuggerSession =
      sessionId === undefined ? { tabId: this.tabId } : { tabId: this.tabId, sessionId };
    const send = () => {
      this.sending(method, params, sessionId);
      return chrome.debugger.sendCommand(target, method, params);
    };
    const tag = scriptTag(method, params);
    if (tag !== undefined) {
      this.sentTags.add(tag);
      keepNewest(this.sentTags, KEPT_TAGS);
      // A refusal of `beforeScript` refuses the script, unsent; the tab's later commands go all the same.
      const ready = (this.arming ?? Promise.resolve()).then(() => this.beforeScript(sessionId));
      const armed = ready.catch(() => undefined);
      this.arming = armed;
      void armed.then(() => {
        if (this.arming === armed) this.arming = undefined;
      });
      return ready.then(send);
    }
    return this.arming ? this.arming.then(send) : send();
  }

  protected override commandError(method: string, error: unknown): Error {
    // Ours, not Chrome's: a script refused before it was sent, or a lent worker's refusal, which is no word on the tab.
    if (error instanceof ToolError || error instanceof CdpCommandError) return error;
    const message = error instanceof Error ? error.message : String(error);
    // chrome.debugger words these differently from a CDP socket; the engine recognises a gone tab by CDP's words.
    if (/no tab with given id/i.test(message)) return this.goneError(method, TARGET_CLOSED);
    if (/debugger is not attached/i.test(message)) return this.goneError(method, 'not attached');
    return super.commandError(method, error);
  }

  protected override goneError(method: string, reason: string): Error {
    // A closed tab reads as "target closed", which the executor turns into TAB_NOT_FOUND once the tab is missing.
    if (reason === TARGET_CLOSED) return new CdpCommandError(method, 'Target closed');
    const cause = reason === 'canceled_by_user' ? "the person pressed Cancel on Chrome's debugging bar" : reason;
    return new ToolError('DETACHED', `The debugger detached from the tab (${cause}).`);
  }
}
