// The core's end of the extension link: a WebSocket server on loopback that admits only our extension, mutually
// authenticated (handshake.ts), and keeps exactly one active connection (a newer one from the same extension replaces it, loudly).
import { randomInt } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import type { Policy } from '../../../shared/policy/policy.js';
import { ToolError } from '../../../shared/protocol/errors.js';
import { EXTENSION_ID } from '../../../shared/protocol/extension-id.js';
import { CLOSE_CODES } from '../../../shared/protocol/wire.js';
import type { Log } from '../log.js';
import { ExtensionLink } from './extension-link.js';
import { refuseConnection, sendFrame } from './frame-io.js';
import { type BridgeAuth, type ExtensionInfo, handshake } from './handshake.js';
import {
  BRIDGE_HOST,
  DEFAULT_HEARTBEAT_MS,
  DEFAULT_HELLO_TIMEOUT_MS,
  MAX_UNAUTHENTICATED,
  WS_SERVER_OPTIONS,
} from './limits.js';
import { refuseUpgrade, upgradeRefusal } from './upgrade-guard.js';

export interface BridgeOptions {
  /** 0 picks a free port (read it back from `port`). */
  port: number;
  auth: BridgeAuth;
  log: Log;
  /** The site policy as it stands; read for every new link, and again on `policyChanged()`. */
  policy: () => Policy;
  /** Default: our published extension id; only its Origin and hello are admitted. */
  extensionId?: string;
  heartbeatMs?: number;
  helloTimeoutMs?: number;
}

export interface BridgeEvents {
  connected: [link: ExtensionLink];
  disconnected: [link: ExtensionLink, why: string];
  /** Security-relevant: a new authenticated connection displaced the active one. */
  replaced: [previous: ExtensionLink, next: ExtensionLink];
  /** The person pressed Esc in a tab the agent was acting in; `message` says where. Stop the agent. */
  personStop: [message: string, link: ExtensionLink];
  /** An extension built for wire version `v`, not ours, was refused (an app or extension not yet updated). */
  otherVersion: [v: number];
}

type Settings = Required<Omit<BridgeOptions, 'port'>>;

export class BridgeServer extends EventEmitter<BridgeEvents> {
  private readonly wss = new WebSocketServer(WS_SERVER_OPTIONS);
  private active: ExtensionLink | undefined;
  private unauthenticated = 0;
  private closing = false;
  /** Bumped by every revoke: a connection whose check began under an older epoch may rest on what was revoked. */
  private epoch = 0;

  private constructor(
    private readonly http: Server,
    private readonly settings: Settings,
  ) {
    super();
  }

  static async start(options: BridgeOptions): Promise<BridgeServer> {
    const settings: Settings = {
      auth: options.auth,
      log: options.log,
      policy: options.policy,
      extensionId: options.extensionId ?? EXTENSION_ID,
      heartbeatMs: options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
      helloTimeoutMs: options.helloTimeoutMs ?? DEFAULT_HELLO_TIMEOUT_MS,
    };
    const http = createServer((_request, response) => {
      response
        .writeHead(426, { 'Content-Type': 'text/plain' })
        .end('This port only speaks WebSocket to the Chrome MCP extension.\n');
    });
    const bridge = new BridgeServer(http, settings);
    http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) =>
      bridge.upgrade(request, socket, head),
    );
    // A request too malformed to parse gets no answer; a peer gone mid-request is not an error of ours.
    http.on('clientError', (_error, socket) => socket.destroy());
    await listen(http, options.port);
    http.on('error', (error) => settings.log(`bridge: server error: ${error.message}`));
    settings.log(`bridge: listening on ws://${BRIDGE_HOST}:${bridge.port} for extension ${settings.extensionId}`);
    return bridge;
  }

  get port(): number {
    return (this.http.address() as AddressInfo).port;
  }

  get address(): string {
    return (this.http.address() as AddressInfo).address;
  }

  /** Where the extension dials (the stand-in for a bridge that could not listen says why instead). */
  listening(): { port: number } | { error: string } {
    return { port: this.port };
  }

  /** The active, authenticated extension connection, if any. */
  link(): ExtensionLink | undefined {
    return this.active;
  }

  /** The policy changed: the active link gets it at once, so the extension's next check already uses it. */
  policyChanged(): void {
    this.active?.sendPolicy();
  }

  /**
   * The pairing was revoked (call it once the secret is forgotten): the active link is told its secret is bad, and a
   * connection still being checked is refused when its verdict comes, even a yes (it may have read the old secret).
   */
  revoked(): void {
    this.epoch++;
    this.active?.close(CLOSE_CODES.unauthorized, 'pairing revoked', 'bad_secret');
  }

  async close(): Promise<void> {
    this.closing = true;
    this.active?.close(1001, 'core shutting down');
    // Connections still authenticating too; ws destroys any that do not finish the close handshake in time.
    for (const socket of this.wss.clients) socket.close(1001, 'core shutting down');
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
    this.wss.close();
  }

  private upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    // A peer that resets mid-upgrade must not surface as an unhandled socket error.
    socket.on('error', () => undefined);
    const refusal =
      upgradeRefusal(request, { origin: `chrome-extension://${this.settings.extensionId}`, port: this.port }) ??
      (this.unauthenticated >= MAX_UNAUTHENTICATED
        ? { status: 503 as const, why: `${MAX_UNAUTHENTICATED} connections are already authenticating` }
        : undefined);
    if (refusal) {
      this.settings.log(`bridge: refused a connection at upgrade: ${refusal.why}`);
      refuseUpgrade(socket, refusal.status);
      return;
    }
    this.wss.handleUpgrade(request, socket, head, (ws) => {
      this.admit(ws, socket).catch((error: unknown) =>
        this.settings.log(`bridge: admitting a connection failed: ${String(error)}`),
      );
    });
  }

  private async admit(ws: WebSocket, raw: Duplex): Promise<void> {
    // ws reports protocol violations (oversized frames, too many fragments, broken framing) here and closes the socket itself.
    ws.on('error', (error) => this.settings.log(`bridge: connection error: ${error.message}`));
    this.unauthenticated++;
    const epoch = this.epoch;
    const admission = await handshake(ws, raw, {
      ...this.settings,
      port: this.port,
      otherVersion: (v) => this.emit('otherVersion', v),
    }).finally(() => this.unauthenticated--);
    if (!admission || ws.readyState !== WebSocket.OPEN || this.closing) return;
    // Checked here, in the same turn as adopting: no revoke can land between this check and the link going live.
    if (epoch !== this.epoch) {
      this.settings.log('bridge: refused an extension connection: the pairing was revoked while it was being checked');
      refuseConnection(ws, admission.wrappedSecret === undefined ? 'bad_secret' : 'bad_code');
      return;
    }
    if (admission.wrappedSecret !== undefined) {
      sendFrame(ws, { type: 'paired', wrapped: admission.wrappedSecret });
      this.settings.log('bridge: the extension paired with a one-time code');
    }
    this.adopt(ws, admission.ext);
  }

  private adopt(ws: WebSocket, ext: ExtensionInfo): void {
    const previous = this.active;
    const session = nextSession(previous?.identity.session);
    if (previous) {
      // Only our extension id gets this far (Origin and hello are both pinned), so this is the same extension
      // reconnecting, a second Chrome profile with the same pairing, or a local process that holds the secret.
      this.settings.log(
        `bridge: SECURITY: a new authenticated connection replaced the active extension connection (session ${previous.identity.session} → ${session}). ` +
          'If Chrome or the extension did not just restart, re-pair the extension to revoke the secret.',
      );
      previous.close(CLOSE_CODES.replaced, 'replaced by a newer connection', 'replaced');
    }
    const link: ExtensionLink = new ExtensionLink(
      ws,
      { session, extensionId: ext.id, version: ext.version, chrome: ext.chrome },
      {
        ...this.settings,
        personStop: (message) => this.emit('personStop', message, link),
      },
    );
    this.active = link;
    link.onClose((why) => {
      if (this.active === link) this.active = undefined;
      this.settings.log(`bridge: extension disconnected (session ${session}): ${why}`);
      this.emit('disconnected', link, why);
    });
    this.settings.log(`bridge: extension connected (session ${session}, version ${ext.version}, Chrome ${ext.chrome})`);
    if (previous) this.emit('replaced', previous, link);
    this.emit('connected', link);
  }
}

function listen(http: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => {
      const why = error.code === 'EADDRINUSE' ? 'is already in use' : `cannot be used (${error.message})`;
      reject(new ToolError('BRIDGE_UNAVAILABLE', `Port ${port} on ${BRIDGE_HOST} ${why}.`));
    };
    http.once('error', failed);
    http.listen({ port, host: BRIDGE_HOST }, () => {
      http.off('error', failed);
      resolve();
    });
  });
}

/**
 * A short random session name (it rides in every tab handle the model keeps, so every character costs tokens),
 * never the one it replaces, so a handle from the previous connection reads STALE_TAB.
 */
function nextSession(previous: string | undefined): string {
  for (;;) {
    const session = randomInt(36 ** 3)
      .toString(36)
      .padStart(3, '0');
    if (session !== previous) return session;
  }
}
