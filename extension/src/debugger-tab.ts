// One tab's chrome.debugger attachment as the engine's Cdp: commands go by {tabId, sessionId}; the host routes the
// tab's events in and tells it when the attachment ends.
import { CdpCommandError, type Cdp, type CdpEvent } from '../../shared/engine/cdp.js';
import { ToolError } from '../../shared/protocol/errors.js';

interface Pending {
  method: string;
  sessionId: string | undefined;
  reject: (error: Error) => void;
}

/** chrome.debugger.onDetach's reason when the tab itself went away (closed, crashed, browser quitting). */
export const TARGET_CLOSED = 'target_closed';

export class DebuggerTab implements Cdp {
  private readonly listeners = new Set<(event: CdpEvent) => void>();
  private readonly pending = new Set<Pending>();
  private detachReason: string | undefined;

  constructor(readonly tabId: number) {}

  get attached(): boolean {
    return this.detachReason === undefined;
  }

  send<R = unknown>(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<R> {
    if (this.detachReason !== undefined) return Promise.reject(this.goneError(method, this.detachReason));
    const target: chrome.debugger.DebuggerSession = sessionId === undefined ? { tabId: this.tabId } : { tabId: this.tabId, sessionId };
    return new Promise<R>((resolve, reject) => {
      const entry: Pending = { method, sessionId, reject };
      this.pending.add(entry);
      chrome.debugger.sendCommand(target, method, params).then(
        (result) => {
          if (this.pending.delete(entry)) resolve((result ?? {}) as R);
        },
        (error: unknown) => {
          if (this.pending.delete(entry)) reject(this.commandError(method, error));
        },
      );
    });
  }

  on(listener: (event: CdpEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** An event of this tab (no sessionId) or of one of its flattened child sessions. */
  dispatch(method: string, params: Record<string, unknown>, sessionId: string | undefined): void {
    // Chrome never answers commands in flight on a child session that detaches (an iframe going away): fail them.
    if (method === 'Target.detachedFromTarget' && typeof params['sessionId'] === 'string') this.failSession(params['sessionId']);
    this.emit(sessionId === undefined ? { method, params } : { method, params, sessionId });
  }

  /** The attachment ended: fails calls in flight and tells the engine, which drops its page context for the tab. */
  detached(reason: string): void {
    if (this.detachReason !== undefined) return;
    this.detachReason = reason;
    for (const entry of this.pending) entry.reject(this.goneError(entry.method, reason));
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

  private commandError(method: string, error: unknown): Error {
    const message = error instanceof Error ? error.message : String(error);
    // chrome.debugger words these differently from a CDP socket; the engine recognises a gone tab by CDP's words.
    if (/no tab with given id/i.test(message)) return this.goneError(method, TARGET_CLOSED);
    if (/debugger is not attached/i.test(message)) return this.goneError(method, 'not attached');
    return new CdpCommandError(method, message);
  }

  private goneError(method: string, reason: string): Error {
    // A closed tab reads as "target closed", which the executor turns into TAB_NOT_FOUND once the tab is missing.
    if (reason === TARGET_CLOSED) return new CdpCommandError(method, 'Target closed');
    const cause = reason === 'canceled_by_user' ? 'the person pressed Cancel on Chrome\'s debugging bar' : reason;
    return new ToolError('DETACHED', `The debugger detached from the tab (${cause}).`);
  }

  private emit(event: CdpEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
