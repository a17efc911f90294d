// The small CDP surface the page engine needs; chrome.debugger, a raw CDP socket and webContents.debugger all provide it.
import type { PausedChain } from './paused-chain.js';

export interface CdpEvent {
  method: string;
  params: Record<string, unknown>;
  /** Set for events from a child session (an out-of-process iframe); absent for the tab's own session. */
  sessionId?: string;
}

/** A tab's debugger handle. `sessionId` addresses a child session; omitted, the tab's own session. */
export interface Cdp {
  send<R = unknown>(method: string, params?: Record<string, unknown>, sessionId?: string): Promise<R>;
  /** Subscribes to every event of the tab and its child sessions; returns the unsubscribe. */
  on(listener: (event: CdpEvent) => void): () => void;
  /**
   * The one chain every guard on this handle answers its paused requests through (paused-chain.ts), made with the
   * handle: the host and the engine reach one tab through the same handle, so they find the same chain.
   */
  readonly pausedChain: PausedChain;
  /**
   * Holds the first request of each window the tab opens from now, for as long as a gesture's activation lasts, where
   * the engine cannot: chrome.debugger reaches a new tab only after its first request. Hosts that hold a new window
   * before it loads (auto-attach, a window-open handler) have none.
   */
  holdWindows?(): Promise<void>;
  /**
   * Lends the engine the workers of `origins` that belong to no tab (shared and service workers), those running now
   * and each that starts before the returned give-back is called: while lent, every request such a worker makes pauses,
   * at the request stage, and comes through `on` as Fetch.requestPaused under a session id of the worker's own, which
   * `told` hears and `send` answers by. Settles once they pause. A worker lent to several handles is heard by the
   * latest; once none has it, what it pauses goes on. The gate takes them while it judges an act, as a page may hand its
   * send to such a worker, whose request no session of the tab pauses (measured, Chromium 156). Absent: a host that
   * reaches none.
   */
  lendWorkers?(origins: readonly string[], told: (sessionId: string) => void): Promise<() => void>;
  /**
   * Set by a host that knows an agent's script ran in the tab before this handle was made (a re-attach, a restarted
   * extension worker): the engine follows the script's trail from the attach on, as after an eval, and calls
   * `following` once it does (the host's own hold of the tab meanwhile may then go).
   */
  readonly scriptedBefore?: { following(): void };
}

/** Error a transport throws when the browser answers a command with an error. */
export class CdpCommandError extends Error {
  constructor(
    readonly method: string,
    readonly cdpMessage: string,
  ) {
    super(`${method}: ${cdpMessage}`);
    this.name = 'CdpCommandError';
  }
}
