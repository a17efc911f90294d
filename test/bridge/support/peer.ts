// A test extension: a real ws client speaking the wire protocol to the bridge, with helpers to authenticate (the
// mutual handshake, honestly or as an attacker would), read the core's frames in order, answer commands, and observe
// how the connection ends.
import { WebSocket } from 'ws';
import {
  codeKey,
  freshNonce,
  proofOf,
  secretKey,
  unwrapSecret,
  verifyProof,
  type ProofContext,
} from '../../../shared/protocol/bridge-proof.js';
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

type ExtInfo = { id: string; version: string; chrome: string };

/** The opening frame of a connection: a hello (or pair) with a fresh nonce; no secret, no code. */
export function helloText(nonce = freshNonce(), ext: ExtInfo = EXT, type: 'hello' | 'pair' = 'hello'): string {
  return JSON.stringify({ type, v: WIRE_VERSION, nonce, ext });
}

/** How a handshake went from the peer's side: the core's challenge, whether its proof held, and the context. */
export interface Greeted {
  challenge: Extract<CoreFrame, { type: 'challenge' }>;
  coreProved: boolean;
  context: ProofContext;
  key: Uint8Array;
}

export class Peer {
  readonly frames: CoreFrame[] = [];
  readonly closed: Promise<{ code: number; reason: string; at: number }>;
  /** Answers app-level pings, like the real extension; turn off to play a dead worker. */
  autoPong = true;
  private waiters: Array<() => void> = [];
  private answer: ((command: Command) => Answer | Promise<Answer>) | undefined;

  private constructor(readonly socket: WebSocket) {
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => resolve({ code, reason: reason.toString(), at: performance.now() })),
    );
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
    const { coreProved } = await peer.greet(secret);
    if (!coreProved) throw new Error('the bridge did not prove it holds the secret');
    await peer.next('welcome');
    return peer;
  }

  /**
   * Says hello (or pair) and answers the core's challenge with a proof made from `secret` (or the code), whether or
   * not the core's own proof held: an attacker's moves too. `ext` names the extension in the hello.
   */
  async greet(
    secretOrCode: string,
    options: { purpose?: 'hello' | 'pair'; ext?: ExtInfo; port?: number } = {},
  ): Promise<Greeted> {
    const purpose = options.purpose ?? 'hello';
    const nonce = freshNonce();
    this.sendText(helloText(nonce, options.ext ?? EXT, purpose));
    const challenge = await this.next('challenge');
    const key = purpose === 'hello' ? secretKey(secretOrCode) : await codeKey(secretOrCode, challenge.salt ?? '');
    // `port`: the one the proof names, as a relay on another port would have it.
    const context: ProofContext = {
      purpose,
      port: options.port ?? this.port,
      extensionNonce: nonce,
      coreNonce: challenge.nonce,
    };
    const coreProved = await verifyProof(key, 'core', context, challenge.proof);
    this.send({ type: 'proof', proof: await proofOf(key, 'extension', context) });
    return { challenge, coreProved, context, key };
  }

  /** Pairs with `code` as the real extension does; resolves with the new secret it opened from `paired`. */
  async pair(code: string): Promise<string> {
    const { coreProved, context, key } = await this.greet(code, { purpose: 'pair' });
    if (!coreProved) throw new Error('the bridge did not prove it knows the code');
    const secret = await unwrapSecret(key, context, (await this.next('paired')).wrapped);
    if (secret === undefined) throw new Error('the paired frame did not open with the code');
    return secret;
  }

  get port(): number {
    return Number(new URL(this.socket.url).port);
  }

  send(frame: Record<string, unknown>): void {
    this.sendText(JSON.stringify(frame));
  }

  sendText(text: string | Buffer, binary = false): void {
    this.socket.send(text, { binary });
  }

  /** The next frame of `type` not yet taken, in arrival order. */
  async next<T extends CoreFrame['type']>(type: T, timeoutMs = 15_000): Promise<Extract<CoreFrame, { type: T }>> {
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
