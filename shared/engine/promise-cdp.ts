// The engine's Cdp over one page's debugger attachment whose commands return promises (chrome.debugger,
// webContents.debugger): a subclass sends and words the errors; this keeps the calls in flight, the events and the end.
import { CdpCommandError, type Cdp, type CdpEvent } from './cdp.js';
import { PausedChain } from './paused-chain.js';
import { PendingCommands } from './pending-commands.js';

export abstract class PromiseCdp implements Cdp {
  private readonly listeners = new Set<(event: CdpEvent) => void>();
  private readonly pending = new PendingCommands();
  private endReason: string | undefined;
  readonly pausedChain = new PausedChain(this);

  /** Sends one command to the page (`sessionId` undefined) or to one of its flattened child sessions. */
  protected abstract call(
    method: string,
    params: Record<string, unknown>,
    sessionId: string | undefined,
  ): Promise<unknown>;

  /** What a command fails with once the attachment ended for `reason`. */
  protected abstract goneError(method: string, reason: string): Error;

  /** What a command the debugger refused fails with; a subclass recognises its API's words for a page that went away. */
  protected commandError(method: string, error: unknown): Error {
    return new CdpCommandError(method, error instanceof Error ? error.message : String(error));
  }

  get attached(): boolean {
    return this.endReason === undefined;
  }

  send<R = unknown>(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<R> {
    if (this.endReason !== undefined) return Promise.reject(this.goneError(method, this.endReason));
    // Every answer to a paused request comes through here: the chain keeps what is left unanswered.
    this.pausedChain.sent(method, params, sessionId);
    return this.pending.track<R>(method, sessionId, (id) => {
      this.call(method, params, sessionId).then(
        (result) => this.pending.resolve(id, result ?? {}),
        (error: unknown) => this.pending.reject(id, () => this.commandError(method, error)),
      );
    });
  }

  on(listener: (event: CdpEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** An event of the page (no sessionId) or of one of its flattened child sessions. */
  protected receive(method: string, params: Record<string, unknown>, sessionId: string | undefined): void {
    if (method === 'Target.detachedFromTarget' && typeof params['sessionId'] === 'string')
      this.pending.failSession(params['sessionId']);
    this.emit(sessionId === undefined ? { method, params } : { method, params, sessionId });
  }

  /** The attachment ended: calls in flight fail now, and the engine hears it and drops its page context for the tab. */
  protected end(reason: string): void {
    if (this.endReason !== undefined) return;
    this.endReason = reason;
    this.pending.failAll((method) => this.goneError(method, reason));
    this.emit({ method: 'Inspector.detached', params: { reason } });
    this.listeners.clear();
  }

  private emit(event: CdpEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
