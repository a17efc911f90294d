// A raw CDP WebSocket to the fallback browser: flattened sessions, so out-of-process iframes are reachable by sessionId.
// playwright-core's public CDPSession cannot address child sessions, so the engine talks CDP here directly.
import WebSocket from 'ws';
import { CdpCommandError, type CdpEvent } from '../../../shared/engine/cdp.js';
import { ToolError } from '../../../shared/protocol/errors.js';

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  method: string;
  sessionId: string | undefined;
}

export class CdpConnection {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<(event: CdpEvent) => void>();
  private closed = false;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => this.onMessage(data.toString()));
    socket.on('close', () => this.onClose());
    socket.on('error', () => this.onClose());
  }

  static async connect(url: string): Promise<CdpConnection> {
    const socket = new WebSocket(url, { perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new CdpConnection(socket);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  send<R>(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<R> {
    if (this.closed) return Promise.reject(new ToolError('BROWSER_CLOSED'));
    const id = this.nextId++;
    const message = sessionId ? { id, method, params, sessionId } : { id, method, params };
    return new Promise<R>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, method, sessionId });
      this.socket.send(JSON.stringify(message));
    });
  }

  on(listener: (event: CdpEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.socket.close();
    this.onClose();
  }

  private onMessage(text: string): void {
    let message: { id?: number; method?: string; params?: Record<string, unknown>; sessionId?: string; result?: unknown; error?: { message: string } };
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof message.id === 'number') {
      const pending = this.pending.get(message.id);
      if (!pending) return;
      this.pending.delete(message.id);
      if (message.error) pending.reject(new CdpCommandError(pending.method, message.error.message));
      else pending.resolve(message.result);
      return;
    }
    if (typeof message.method !== 'string') return;
    if (message.method === 'Target.detachedFromTarget') this.failSession(String(message.params?.['sessionId']));
    const event: CdpEvent = { method: message.method, params: message.params ?? {} };
    if (message.sessionId) event.sessionId = message.sessionId;
    for (const listener of this.listeners) listener(event);
  }

  /** Chrome never answers commands in flight on a session that detaches (a tab or an iframe closing): fail them. */
  private failSession(sessionId: string): void {
    for (const [id, pending] of this.pending) {
      if (pending.sessionId !== sessionId) continue;
      this.pending.delete(id);
      pending.reject(new CdpCommandError(pending.method, 'Session with given id not found (it detached)'));
    }
  }

  private onClose(): void {
    if (this.closed) return;
    this.closed = true;
    for (const pending of this.pending.values()) pending.reject(new ToolError('BROWSER_CLOSED'));
    this.pending.clear();
    for (const listener of this.listeners) listener({ method: 'Connection.closed', params: {} });
  }
}
