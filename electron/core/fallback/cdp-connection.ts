// A raw CDP connection to a browser, over the launch pipe or a WebSocket: flattened sessions, so out-of-process iframes
// are reachable by sessionId.
import type { Readable, Writable } from 'node:stream';
import WebSocket from 'ws';
import { CdpCommandError, type CdpEvent } from '../../../shared/engine/cdp.js';
import { PendingCommands } from '../../../shared/engine/pending-commands.js';
import { ToolError } from '../../../shared/protocol/errors.js';

/** How messages travel: `send` one JSON text; `close` ends the channel. */
interface Channel {
  send(text: string): void;
  close(): void;
}

/** What a channel reports back: each whole message, and its end (once, however it ends). */
interface ChannelEvents {
  message(text: string): void;
  closed(): void;
}

export class CdpConnection {
  private readonly pending = new PendingCommands();
  private readonly listeners = new Set<(event: CdpEvent) => void>();
  private closed = false;
  private readonly channel: Channel;

  private constructor(open: (events: ChannelEvents) => Channel) {
    this.channel = open({ message: (text) => this.onMessage(text), closed: () => this.onClose() });
  }

  /** Dials a browser's debugging WebSocket. */
  static async connect(url: string): Promise<CdpConnection> {
    const socket = new WebSocket(url, { perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new CdpConnection((events) => {
      socket.on('message', (data) => events.message(data.toString()));
      socket.on('close', events.closed);
      socket.on('error', events.closed);
      return { send: (text) => socket.send(text), close: () => socket.close() };
    });
  }

  /**
   * Talks over the pipe of a browser started with `--remote-debugging-pipe`: it reads commands from `toBrowser` (its
   * fd 3) and writes to `fromBrowser` (its fd 4), each message ended by a NUL byte.
   */
  static overPipe(toBrowser: Writable, fromBrowser: Readable): CdpConnection {
    return new CdpConnection((events) => {
      // A message may arrive in many chunks (a screenshot is megabytes); bytes are joined before decoding, so a
      // character split across chunks survives.
      let partial: Buffer[] = [];
      fromBrowser.on('data', (chunk: Buffer) => {
        let start = 0;
        for (let end = chunk.indexOf(0); end !== -1; end = chunk.indexOf(0, start)) {
          partial.push(chunk.subarray(start, end));
          events.message(Buffer.concat(partial).toString('utf8'));
          partial = [];
          start = end + 1;
        }
        if (start < chunk.length) partial.push(chunk.subarray(start));
      });
      fromBrowser.on('close', events.closed);
      fromBrowser.on('error', events.closed);
      toBrowser.on('error', events.closed);
      return {
        send: batchedWrites(toBrowser, events.closed),
        close: () => {
          toBrowser.end();
          fromBrowser.destroy();
        },
      };
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  send<R>(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<R> {
    if (this.closed) return Promise.reject(new ToolError('BROWSER_CLOSED'));
    return this.pending.track<R>(method, sessionId, (id) => {
      this.channel.send(JSON.stringify(sessionId ? { id, method, params, sessionId } : { id, method, params }));
    });
  }

  on(listener: (event: CdpEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.channel.close();
    this.onClose();
  }

  private onMessage(text: string): void {
    let message: {
      id?: number;
      method?: string;
      params?: Record<string, unknown>;
      sessionId?: string;
      result?: unknown;
      error?: { message: string };
    };
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof message.id === 'number') {
      const { error } = message;
      if (error) this.pending.reject(message.id, (method) => new CdpCommandError(method, error.message));
      else this.pending.resolve(message.id, message.result);
      return;
    }
    if (typeof message.method !== 'string') return;
    if (message.method === 'Target.detachedFromTarget') this.pending.failSession(String(message.params?.['sessionId']));
    const event: CdpEvent = { method: message.method, params: message.params ?? {} };
    if (message.sessionId) event.sessionId = message.sessionId;
    for (const listener of this.listeners) listener(event);
  }

  private onClose(): void {
    if (this.closed) return;
    this.closed = true;
    this.pending.failAll(() => new ToolError('BROWSER_CLOSED'));
    for (const listener of this.listeners) listener({ method: 'Connection.closed', params: {} });
  }
}

/**
 * What is sent in one turn of the event loop leaves in one write, each message ended by a NUL byte: a write is a syscall,
 * and an eval sends several commands at once (the hold's rules, the script, the drain). A write that fails closes the
 * channel, so every command waiting on it is answered.
 */
function batchedWrites(toBrowser: Writable, closed: () => void): (text: string) => void {
  let queued: string[] = [];
  const flush = () => {
    const batch = queued.join('');
    queued = [];
    toBrowser.write(batch, (error) => {
      if (error) closed();
    });
  };
  return (text) => {
    // setImmediate, not a microtask: a command reaches the connection a few promise hops after the tool sent it.
    if (queued.length === 0) setImmediate(flush);
    queued.push(`${text}\0`);
  };
}
