// One window's webContents.debugger as the engine's Cdp: commands by (method, params, sessionId) for flattened child
// sessions, events from 'message', and a 'detach' that fails whatever is in flight instead of leaving it hanging.
import type { Debugger } from 'electron';
import { CdpCommandError, type Cdp, type CdpEvent } from '../../../shared/engine/cdp.js';
import { ToolError } from '../../../shared/protocol/errors.js';

export const PROTOCOL_VERSION = '1.3';

/** webContents.debugger's detach reason when the page itself went away (its window closed). */
export const TARGET_CLOSED = 'target closed';

/** What the transport uses of `webContents.debugger`: the typed Electron surface, narrowed for a thin fake. */
export type DebuggerLike = Pick<Debugger, 'attach' | 'detach' | 'isAttached' | 'sendCommand' | 'on' | 'removeListener'>;

interface Pending {
  method: string;
  sessionId: string | undefined;
  reject: (error: Error) => void;
}

export class DebuggerCdp implements Cdp {
  private readonly listeners = new Set<(event: CdpEvent) => void>();
  private readonly pending = new Set<Pending>();
  private ended: { reason: string; browserClosed: boolean } | undefined;
  private readonly onMessage = (_event: unknown, method: string, params: unknown, sessionId: string): void => this.dispatch(method, params, sessionId);
  private readonly onDetach = (_event: unknown, reason: string): void => this.detached(reason, false);

  /** Attaches at once: a window another debugger (DevTools) holds throws here, and the host reports it. */
  constructor(private readonly debuggee: DebuggerLike) {
    debuggee.attach(PROTOCOL_VERSION);
    debuggee.on('message', this.onMessage);
    debuggee.on('detach', this.onDetach);
  }

  get attached(): boolean {
    return this.ended === undefined;
  }

  send<R = unknown>(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<R> {
    if (this.ended) return Promise.reject(this.goneError(method));
    return new Promise<R>((resolve, reject) => {
      const entry: Pending = { method, sessionId, reject };
      this.pending.add(entry);
      // Electron takes an empty sessionId as "the page's own session".
      this.debuggee.sendCommand(method, params, sessionId ?? '').then(
        (result: unknown) => {
          if (this.pending.delete(entry)) resolve((result ?? {}) as R);
        },
        (error: unknown) => {
          if (this.pending.delete(entry)) reject(new CdpCommandError(method, error instanceof Error ? error.message : String(error)));
        },
      );
    });
  }

  on(listener: (event: CdpEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
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

  private dispatch(method: string, params: unknown, sessionId: string): void {
    const body = (params ?? {}) as Record<string, unknown>;
    // Chrome never answers commands in flight on a child session that detaches (an iframe going away): fail them.
    if (method === 'Target.detachedFromTarget' && typeof body['sessionId'] === 'string') this.failSession(body['sessionId']);
    this.emit(sessionId ? { method, params: body, sessionId } : { method, params: body });
  }

  /** The attachment ended: every call in flight fails now, and the engine hears it and drops the tab's page context. */
  private detached(reason: string, browserClosed: boolean): void {
    if (this.ended) return;
    this.ended = { reason, browserClosed };
    this.debuggee.removeListener('message', this.onMessage);
    this.debuggee.removeListener('detach', this.onDetach);
    for (const entry of this.pending) entry.reject(this.goneError(entry.method));
    this.pending.clear();
    this.emit({ method: 'Inspector.detached', params: { reason } });
    this.listeners.clear();
  }

  private failSession(sessionId: string): void {
    for (const entry of this.pending) {
      if (entry.sessionId !== sessionId) continue;
      this.pending.delete(entry);
      entry.reject(new CdpCommandError(entry.method, 'Session with given id not found (it detached)'));
    }
  }

  private goneError(method: string): Error {
    const { reason, browserClosed } = this.ended!;
    if (browserClosed) return new ToolError('BROWSER_CLOSED', 'The app\'s browser closed during the call.');
    // A closed window reads as CDP's "target closed", which the executor turns into TAB_NOT_FOUND once the tab is missing.
    if (reason === TARGET_CLOSED) return new CdpCommandError(method, 'Target closed');
    const cause = reason === 'canceled_by_user' ? 'DevTools took over the window' : reason;
    return new ToolError('DETACHED', `The debugger detached from the tab (${cause}).`);
  }

  private emit(event: CdpEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
