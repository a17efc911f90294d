// One WebSocket to the core, from hello (or a pairing code) to close: decodes every frame and drops what does not
// parse, authenticates the server before it authenticates itself (bridge-handshake.ts), keeps the site policy the core
// sends, runs commands and answers pings only once welcomed by a server that proved itself, and keeps the worker
// alive with traffic.
import { coreFrame, decodeFrame, type ExtensionFrame, type CoreFrame } from '../../shared/protocol/wire.js';
import { ExtensionHandshake, type Greeting } from './bridge-handshake.js';
import type { CommandRouter } from './command-router.js';
import { HANDSHAKE_TIMEOUT_MS, KEEPALIVE_MS } from './link-timers.js';
import { PolicyHolder, type LinkPolicy } from './policy-holder.js';

export type { Greeting } from './bridge-handshake.js';

/** The engine side of a welcomed link: its router, and how to wind it down. */
export interface LinkSession {
  router: CommandRouter;
  /** The core sent a new policy (already in force for the next step): what stands between steps follows it too. */
  policyChanged(): void;
  end(): Promise<void>;
}

export type UnauthorizedReason = Extract<CoreFrame, { type: 'unauthorized' }>['reason'];

export interface ConnectionEnd {
  /** The socket opened at all (false: nothing listens on the port). */
  opened: boolean;
  welcomed: boolean;
  code: number;
  unauthorized?: UnauthorizedReason;
  /** The server did not prove it holds our secret (or the code): it was told nothing, and closed. */
  serverFailedProof?: true;
}

export interface ConnectionHooks {
  /** `policy` is this link's site policy: the engine asks it before every step. */
  startSession(session: string, send: (frame: ExtensionFrame) => void, policy: LinkPolicy): Promise<LinkSession>;
  welcomed(): void;
  paired(secret: string): void;
  closed(end: ConnectionEnd): void;
}

export class BridgeConnection {
  private readonly socket: WebSocket;
  // One per connection: a new link starts from the safe default, never from what an earlier link was told.
  private readonly policy = new PolicyHolder();
  private readonly handshake: ExtensionHandshake;
  /** Frames are handled one at a time, in order: a `welcome` waits for the `paired` before it to be opened. */
  private inbox: Promise<void> = Promise.resolve();
  private readonly deadline: ReturnType<typeof setTimeout>;
  private pairedDone = false;
  private serverFailedProof = false;
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
    this.handshake = new ExtensionHandshake(port, greeting);
    this.socket = new WebSocket(`ws://127.0.0.1:${port}`);
    // A server that accepts and then stalls would hold the link in "connecting" for good: give it up and dial again.
    this.deadline = setTimeout(() => {
      if (!this.welcomed) this.socket.close(1000);
    }, HANDSHAKE_TIMEOUT_MS);
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
    this.send(this.handshake.opening(extensionInfo()));
  }

  private onMessage(data: unknown): void {
    // Binary frames are no part of the wire; text that does not decode is dropped and the link keeps serving.
    const frame = typeof data === 'string' ? decodeFrame(coreFrame, data) : undefined;
    // A frame whose handling fails is dropped like a malformed one; the frames behind it are still handled.
    if (frame) this.inbox = this.inbox.then(() => this.handle(frame)).catch(() => undefined);
  }

  /** Ends the connection to a server that failed its proof: it gets no answer, and no second try on this socket. */
  private refuseServer(): void {
    this.serverFailedProof = true;
    this.socket.close(1000);
  }

  private async handle(frame: CoreFrame): Promise<void> {
    // Until it proved itself a server may only challenge us or turn us away: a welcome, a secret or a command first is
    // a server that skipped its proof, refused as one that failed it (shown, and dialled again only after a backoff).
    if (!this.handshake.serverProved && frame.type !== 'challenge' && frame.type !== 'unauthorized')
      return this.refuseServer();
    switch (frame.type) {
      case 'challenge': {
        const proof = await this.handshake.answer(frame);
        if (proof) this.send(proof);
        else this.refuseServer();
        return;
      }
      case 'paired': {
        // Only once; a seal that does not open is a failed proof.
        if (this.pairedDone) return;
        const secret = await this.handshake.unwrap(frame.wrapped);
        if (secret === undefined) return this.refuseServer();
        this.pairedDone = true;
        this.hooks.paired(secret);
        return;
      }
      case 'welcome':
        // Pairing, a welcome before the secret was handed over is no welcome at all: nothing runs on its say.
        if (this.session || (this.pairing && !this.pairedDone)) return;
        clearTimeout(this.deadline);
        this.session = this.hooks
          .startSession(frame.session, (reply) => this.send(reply), this.policy)
          .catch(() => {
            // Without an engine no command could be answered: drop the link and let the client dial again.
            this.socket.close(1011);
            return undefined;
          });
        this.keepalive = setInterval(() => this.send({ type: 'pong', ts: Date.now() }), KEEPALIVE_MS);
        this.hooks.welcomed();
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
        if (!this.session) return;
        this.policy.update(frame.policy);
        void this.session.then((session) => session?.policyChanged());
        return;
      case 'ping':
        if (this.session) this.send({ type: 'pong', ts: frame.ts });
        return;
    }
  }

  private onClose(code: number): void {
    clearInterval(this.keepalive);
    clearTimeout(this.deadline);
    const welcomed = this.welcomed;
    void this.session?.then((session) => {
      session?.router.abortAll();
      return session?.end();
    });
    if (this.silent) return;
    const end: ConnectionEnd = { opened: this.opened, welcomed, code };
    if (this.unauthorized) end.unauthorized = this.unauthorized;
    if (this.serverFailedProof) end.serverFailedProof = true;
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
