// One window's webContents.debugger as the engine's Cdp: commands by (method, params, sessionId) for flattened child
// sessions, events from 'message', and a 'detach' that fails whatever is in flight instead of leaving it hanging.
import type { Debugger } from 'electron';
import { CdpCommandError, type CdpEvent } from '../../../shared/engine/cdp.js';
import { PromiseCdp } from '../../../shared/engine/promise-cdp.js';
import { ToolError } from '../../../shared/protocol/errors.js';

export const PROTOCOL_VERSION = '1.3';

/** webContents.debugger's detach reason when the page itself went away (its window closed). */
export const TARGET_CLOSED = 'target closed';

/** What the transport uses of `webContents.debugger`: the typed Electron surface, narrowed for a thin fake. */
export type DebuggerLike = Pick<Debugger, 'attach' | 'detach' | 'isAttached' | 'sendCommand' | 'on' | 'removeListener'>;

export class DebuggerCdp extends PromiseCdp {
  private browserClosed = false;
  // Electron names the page's own session with an empty sessionId.
  private readonly onMessage = (_event: unknown, method: string, params: unknown, sessionId: string): void =>
    this.receive(method, (params ?? {}) as Record<string, unknown>, sessionId || undefined);
  private readonly onDetach = (_event: unknown, reason: string): void => this.detached(reason, false);

  /** Attaches at once: a window another debugger (DevTools) holds throws here, and the host reports it. */
  constructor(private readonly debuggee: DebuggerLike) {
    super();
    debuggee.attach(PROTOCOL_VERSION);
    debuggee.on('message', this.onMessage);
    debuggee.on('detach', this.onDetach);
  }

  /** The host let go of the browser (fallback closed, app quitting): calls in flight end as BROWSER_CLOSED. */
  close(): void {
    this.detached('browser closed', true);
    try {
      if (this.debuggee.isAttached()) this.debuggee.detach();
    } catch {
      // The window is already gone.
    }
  }

  /** An event for this tab's listeners that no session of the tab sent: what the host did for the tab, or asks of it. */
  tell(event: CdpEvent): void {
    this.receive(event.method, event.params, event.sessionId);
  }

  protected override call(
    method: string,
    params: Record<string, unknown>,
    sessionId: string | undefined,
  ): Promise<unknown> {
    // Electron takes an empty sessionId as "the page's own session".
    return this.debuggee.sendCommand(method, params, sessionId ?? '');
  }

  protected override goneError(method: string, reason: string): Error {
    if (this.browserClosed) return new ToolError('BROWSER_CLOSED', "The app's browser closed during the call.");
    // A closed window reads as CDP's "target closed", which the executor turns into TAB_NOT_FOUND once the tab is missing.
    if (reason === TARGET_CLOSED) return new CdpCommandError(method, 'Target closed');
    const cause = reason === 'canceled_by_user' ? 'DevTools took over the window' : reason;
    return new ToolError('DETACHED', `The debugger detached from the tab (${cause}).`);
  }

  /** The attachment ended: the debugger is no longer listened to, and every call in flight fails now. */
  private detached(reason: string, browserClosed: boolean): void {
    if (!this.attached) return;
    this.browserClosed = browserClosed;
    this.debuggee.removeListener('message', this.onMessage);
    this.debuggee.removeListener('detach', this.onDetach);
    this.end(reason);
  }
}
