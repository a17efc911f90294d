// One WebSocket to the core, from hello (or a pairing code) to close: decodes every frame and drops what does not
// parse, keeps the site policy the core sends, runs commands once welcomed, answers pings, and keeps the worker alive
// with traffic.
import type { Policy } from '../../shared/policy/policy.js';
import { coreFrame, decodeFrame, WIRE_VERSION, type ExtensionFrame, type CoreFrame } from '../../shared/protocol/wire.js';
import type { CommandRouter } from './command-router.js';
import { KEEPALIVE_MS } from './link-timers.js';
import { PolicyHolder } from './policy-holder.js';

export type Greeting = { kind: 'hello'; secret: string } | { kind: 'pair'; code: string };

/** The engine side of a welcomed link: its router, and how to wind it down. */
export interface LinkSession {
  router: CommandRouter;
  end(): Promise<void>;
}

export type UnauthorizedReason = Extract<CoreFrame, { type: 'unauthorized' }>['reason'];

export interface ConnectionEnd {
  /** The socket opened at all (false: nothing listens on the port). */
  opened: boolean;
  welcomed: boolean;
  code: number;
  unauthorized?: UnauthorizedReason;
}

export interface ConnectionHooks {
  /** `policy` is this link's site policy as it stands at each call: the engine asks it before every step. */
  startSession(session: string, send: (frame: ExtensionFrame) => void, policy: () => Policy): Promise<LinkSession>;
  welcomed(): void;
  paired(secret: string): void;
  closed(end: ConnectionEnd): void;
}

export class BridgeConnection {
  private readonly socket: WebSocket;
  // One per connection: a new link starts from the safe default, never from what an earlier link was told.
  private readonly policy = new PolicyHolder();
  private opened = false;
  private session: Promise<LinkSession | undefined> | undefined;
  private unauthorized: UnauthorizedReason | undefined;
  private keepalive: ReturnType<typeof setInterval> | undefined;
  private silent = false;

  constructor(
    readonly port: number,
    private readonly greeting: Greeting,
    private readonly hooks: ConnectionHooks,
  ) {
    this.socket = new WebSocket(`ws://127.0.0.1:${port}`);
    this.socket.addEventListener('open', () => this.onOpen());
    this.socket.addEventListener('message', (event) => this.onMessage(event.data));
    this.socket.addEventListener('close', (event) => this.onClose(event.code));
  }

  get welcomed(): boolean {
    return this.session !== undefined;
  }

  get pairing(): boolean {
    return this.greeting.kind === 'pair';
  }

  /** The secret this connection said hello with. */
  get secret(): string | undefined {
    return this.greeting.kind === 'hello' ? this.greeting.secret : undefined;
  }

  /** Closes without reporting back: the client replaced this connection on purpose. */
  close(): void {
    this.silent = true;
    this.socket.close(1000);
  }

  private send(frame: ExtensionFrame): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(frame));
  }

  private onOpen(): void {
    this.opened = true;
    const ext = extensionInfo();
    this.send(this.greeting.kind === 'hello'
      ? { type: 'hello', v: WIRE_VERSION, secret: this.greeting.secret, ext }
      : { type: 'pair', v: WIRE_VERSION, code: this.greeting.code, ext });
  }

  private onMessage(data: unknown): void {
    // Binary frames are no part of the wire; text that does not decode is dropped and the link keeps serving.
    const frame = typeof data === 'string' ? decodeFrame(coreFrame, data) : undefined;
    if (!frame) return;
    switch (frame.type) {
      case 'welcome':
        if (this.session) return;
        this.session = this.hooks.startSession(frame.session, (reply) => this.send(reply), () => this.policy.current()).catch(() => {
          // Without an engine no command could be answered: drop the link and let the client dial again.
          this.socket.close(1011);
          return undefined;
        });
        this.keepalive = setInterval(() => this.send({ type: 'pong', ts: Date.now() }), KEEPALIVE_MS);
        this.hooks.welcomed();
        return;
      case 'paired':
        if (this.greeting.kind === 'pair') this.hooks.paired(frame.secret);
        return;
      case 'unauthorized':
        this.unauthorized = frame.reason;
        return;
      case 'command':
        // Commands before the welcome are not ours to run; once welcomed they queue behind the session's start.
        void this.session?.then((session) => session?.router.command(frame));
        return;
      case 'cancel':
        void this.session?.then((session) => session?.router.cancel(frame.id));
        return;
      case 'policy':
        // Like a command, not ours before the welcome. Taken at once rather than behind the session's start, so a
        // command already running checks its next step against it.
        if (this.session) this.policy.update(frame.policy);
        return;
      case 'ping':
        this.send({ type: 'pong', ts: frame.ts });
        return;
    }
  }

  private onClose(code: number): void {
    clearInterval(this.keepalive);
    const welcomed = this.welcomed;
    void this.session?.then((session) => {
      session?.router.abortAll();
      return session?.end();
    });
    if (this.silent) return;
    const end: ConnectionEnd = { opened: this.opened, welcomed, code };
    if (this.unauthorized) end.unauthorized = this.unauthorized;
    this.hooks.closed(end);
  }
}

function extensionInfo(): { id: string; version: string; chrome: string } {
  return {
    id: chrome.runtime.id,
    version: chrome.runtime.getManifest().version,
    chrome: /Chrome\/([\d.]+)/.exec(navigator.userAgent)?.[1] ?? 'unknown',
  };
}
