// A test extension: a real ws client speaking the wire protocol to the bridge, with helpers to authenticate,
// read the core's frames in order, answer commands, and observe how the connection ends.
import { WebSocket } from 'ws';
import { type CoreFrame, coreFrame, decodeFrame, WIRE_VERSION } from '../../../shared/protocol/wire.js';
import { EXTENSION_ID, EXTENSION_ORIGIN } from '../../../shared/protocol/extension-id.js';

export interface DialOptions {
  /** null sends no Origin header at all. */
  origin?: string | null;
  host?: string;
}

export type Command = Extract<CoreFrame, { type: 'command' }>;
export type Answer = Record<string, unknown> | string | undefined;

export const EXT = { id: EXTENSION_ID, version: '1.0.0', chrome: '140.0.0.0' };

export function helloText(secret: string, ext: { id: string; version: string; chrome: string } = EXT): string {
  return JSON.stringify({ type: 'hello', v: WIRE_VERSION, secret, ext });
}

export class Peer {
  readonly frames: CoreFrame[] = [];
  readonly closed: Promise<{ code: number; reason: string; at: number }>;
  /** Answers app-level pings, like the real extension; turn off to play a dead worker. */
  autoPong = true;
  private waiters: Array<() => void> = [];
  private answer: ((command: Command) => Answer | Promise<Answer>) | undefined;

  private constructor(readonly socket: WebSocket) {
    this.closed = new Promise((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString(), at: performance.now() })));
    socket.on('error', () => undefined);
    socket.on('message', (data, isBinary) => {
      const frame = isBinary ? undefined : decodeFrame(coreFrame, data.toString());
      if (!frame) throw new Error(`the core sent something that is not a core frame: ${data.toString().slice(0, 200)}`);
      this.frames.push(frame);
      if (frame.type === 'ping' && this.autoPong) this.send({ type: 'pong', ts: frame.ts });
      if (frame.type === 'command' && this.answer) void this.reply(frame, this.answer);
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** Opens a WebSocket to the bridge; rejects with the HTTP status when the upgrade is refused. */
  static dial(port: number, options: DialOptions = {}): Promise<Peer> {
    const origin = options.origin === undefined ? EXTENSION_ORIGIN : options.origin;
    const socket = new WebSocket(`ws://127.0.0.1:${port}`, {
      ...(origin === null ? {} : { origin }),
      ...(options.host ? { headers: { Host: options.host } } : {}),
      maxPayload: 64 * 1024 * 1024,
    });
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new Peer(socket)));
      socket.once('unexpected-response', (_request, response) => reject(new UpgradeRefused(response.statusCode ?? 0)));
      socket.once('error', reject);
    });
  }

  /** Dials and authenticates with `secret`; resolves once `welcome` has arrived. */
  static async connect(port: number, secret: string): Promise<Peer> {
    const peer = await Peer.dial(port);
    peer.sendText(helloText(secret));
    await peer.next('welcome');
    return peer;
  }

  send(frame: Record<string, unknown>): void {
    this.sendText(JSON.stringify(frame));
  }

  sendText(text: string | Buffer, binary = false): void {
    this.socket.send(text, { binary });
  }

  /** The next frame of `type` not yet taken, in arrival order. */
  async next<T extends CoreFrame['type']>(type: T, timeoutMs = 5_000): Promise<Extract<CoreFrame, { type: T }>> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const index = this.frames.findIndex((frame) => frame.type === type);
      if (index >= 0) return this.frames.splice(index, 1)[0] as Extract<CoreFrame, { type: T }>;
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`no ${type} frame within ${timeoutMs} ms`);
      await new Promise<void>((wake) => {
        const timer = setTimeout(wake, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          wake();
        });
      });
    }
  }

  /** Answers every command from now on: a returned object is sent as the frame, a string as raw text, undefined as nothing. */
  serve(answer: (command: Command) => Answer | Promise<Answer>): void {
    this.answer = answer;
  }

  close(): void {
    this.socket.close();
  }

  private async reply(command: Command, answer: (command: Command) => Answer | Promise<Answer>): Promise<void> {
    const frame = await answer(command);
    if (frame === undefined || this.socket.readyState !== WebSocket.OPEN) return;
    this.sendText(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }
}

export class UpgradeRefused extends Error {
  constructor(readonly status: number) {
    super(`upgrade refused with HTTP ${status}`);
  }
}

/** The answer a real extension gives to a command that worked. */
export function ok(command: Command, text = `did ${command.op}`): Record<string, unknown> {
  return { type: 'result', id: command.id, ok: true, result: { text } };
}
