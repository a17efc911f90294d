// A bare core for protocol tests: a loopback ws server that takes the extension's first frame, proves itself with
// the secret the test gives (or fails to, as a rogue on the port would), welcomes it (or refuses it), then lets the
// test send any text, malformed frames included, and read every frame and every byte of text sent back.
import { WebSocketServer, type WebSocket } from 'ws';
import {
  freshNonce,
  proofOf,
  secretKey,
  verifyProof,
  type ProofContext,
} from '../../../shared/protocol/bridge-proof.js';
import type { Policy } from '../../../shared/policy/policy.js';
import { policyToTransfer } from '../../../shared/policy/transfer.js';
import {
  decodeFrame,
  extensionFrame,
  WIRE_VERSION,
  type CoreFrame,
  type ExtensionFrame,
} from '../../../shared/protocol/wire.js';

type Greeting = Extract<ExtensionFrame, { type: 'hello' | 'pair' }>;

export class RawLink {
  /** Every frame after the greeting. */
  readonly received: ExtensionFrame[] = [];
  /** Every text the extension sent on this socket, the greeting included, as it came. */
  readonly texts: string[];
  readonly closed: Promise<number>;
  private waiters: Array<() => void> = [];

  constructor(
    private readonly socket: WebSocket,
    /** The extension's first frame: a hello or a pair. */
    readonly greeting: Greeting,
    greetingText: string,
    private readonly port: number,
  ) {
    this.texts = [greetingText];
    this.closed = new Promise((resolve) => socket.once('close', (code) => resolve(code)));
    socket.on('message', (data) => {
      this.texts.push(data.toString());
      const frame = decodeFrame(extensionFrame, data.toString());
      if (!frame)
        throw new Error(`the extension sent a frame the wire does not know: ${data.toString().slice(0, 200)}`);
      this.received.push(frame);
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  send(frame: CoreFrame): void {
    this.sendText(JSON.stringify(frame));
  }

  sendText(text: string): void {
    this.socket.send(text);
  }

  sendBinary(bytes: Uint8Array): void {
    this.socket.send(bytes, { binary: true });
  }

  /** This connection's proof context, for a challenge with `coreNonce`. */
  context(coreNonce: string): ProofContext {
    return { purpose: this.greeting.type, port: this.port, extensionNonce: this.greeting.nonce, coreNonce };
  }

  /**
   * As the real core: proves with `secret`, then judges the extension's answer. True when the extension proved it
   * holds the same secret; rejects when no proof came (it refused us).
   */
  async authenticate(secret: string): Promise<boolean> {
    const context = this.context(freshNonce());
    const key = secretKey(secret);
    this.send({ type: 'challenge', nonce: context.coreNonce, proof: await proofOf(key, 'core', context) });
    const { proof } = await this.next(
      (frame): frame is Extract<ExtensionFrame, { type: 'proof' }> => frame.type === 'proof',
    );
    return verifyProof(key, 'extension', context, proof);
  }

  /** Authenticates with `secret` and welcomes; throws when the extension's proof was wrong. */
  async accept(secret: string, session: string): Promise<void> {
    if (!(await this.authenticate(secret))) throw new Error('the extension did not prove it holds the secret');
    this.welcome(session);
  }

  welcome(session: string): void {
    this.send({ type: 'welcome', v: WIRE_VERSION, session, heartbeatMs: 15_000 });
  }

  /** Sends the site policy, as the real core does right after `welcome` and on every change. */
  policy(policy: Policy): void {
    this.send({ type: 'policy', policy: policyToTransfer(policy) });
  }

  /** Goes away as a core shutting down does; the extension dials again. */
  close(): void {
    this.socket.close(1001, 'core shutting down');
  }

  /** Answers with an `unauthorized` frame and the close code the real core uses. */
  refuse(reason: Extract<CoreFrame, { type: 'unauthorized' }>['reason'], code: number): void {
    this.send({ type: 'unauthorized', reason });
    this.socket.close(code, reason);
  }

  /** The first frame received (already, or within `timeoutMs`) that matches. */
  async next<F extends ExtensionFrame>(match: (frame: ExtensionFrame) => frame is F, timeoutMs = 10_000): Promise<F> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(this.received).slice(0, 500)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}

export class RawCore {
  /** Connections the extension has made so far (counted as they open). */
  connections = 0;
  private readonly queue: RawLink[] = [];
  private waiting: Array<(link: RawLink) => void> = [];

  private constructor(private readonly server: WebSocketServer) {
    server.on('connection', (socket) => {
      this.connections++;
      socket.once('message', (data) => {
        const greeting = decodeFrame(extensionFrame, data.toString());
        if (greeting?.type !== 'hello' && greeting?.type !== 'pair')
          return socket.close(4400, 'first frame unreadable');
        const link = new RawLink(socket, greeting, data.toString(), this.port);
        const waiter = this.waiting.shift();
        if (waiter) waiter(link);
        else this.queue.push(link);
      });
    });
  }

  static async start(): Promise<RawCore> {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    return new RawCore(server);
  }

  get port(): number {
    const address = this.server.address();
    if (!address || typeof address !== 'object') throw new Error('not listening');
    return address.port;
  }

  /** The next connection, once it sent its first frame. */
  nextLink(timeoutMs = 10_000): Promise<RawLink> {
    const queued = this.queue.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      const take = (link: RawLink) => {
        clearTimeout(timer);
        resolve(link);
      };
      const timer = setTimeout(() => {
        this.waiting = this.waiting.filter((waiter) => waiter !== take);
        reject(new Error(`no connection within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting.push(take);
    });
  }

  async close(): Promise<void> {
    for (const client of this.server.clients) client.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Narrowing helpers for `next`. */
export const is = {
  result:
    (id: string) =>
    (frame: ExtensionFrame): frame is Extract<ExtensionFrame, { type: 'result' }> =>
      frame.type === 'result' && frame.id === id,
  pong:
    (ts: number) =>
    (frame: ExtensionFrame): frame is Extract<ExtensionFrame, { type: 'pong' }> =>
      frame.type === 'pong' && frame.ts === ts,
  progress:
    (id: string) =>
    (frame: ExtensionFrame): frame is Extract<ExtensionFrame, { type: 'progress' }> =>
      frame.type === 'progress' && frame.id === id,
};
