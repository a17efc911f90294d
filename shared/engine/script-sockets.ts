// WebSockets the agent's script opened to other origins: each keeps an offline rule for its own URL until its handshake
// is over, as the browser connects one host's sockets one at a time and a queued one would go out once the hold lifts.
import type { Cdp, CdpEvent } from './cdp.js';
import type { Send } from './egress-ledger.js';
import { offlineRule } from './egress-origins.js';
import { FunctionBreakpoints } from './function-breakpoints.js';
import { keepNewest } from './keep-newest.js';
import type { PausedStack } from './script-code.js';
import type { Initiator } from './script-initiator.js';

// Far more sockets than a script opens; an older one past this loses its rule.
const KEPT_SOCKETS = 500;
/**
 * The constructors that open a WebSocket (a realm without WebSocketStream has nothing to arm for it): each pauses before
 * its handshake can start, as the trail hears of a socket only at webSocketCreated, and by then the network service may
 * already be connecting it. Measured on Chromium 150: an offline rule set during the pause refuses the handshake; each
 * pause costs the page about 10 ms (200 sockets of its own: 2.3 s against 0.2 s). A frame's realm is armed as it is
 * made (realm-pauses.ts): one a script inserts and opens sockets through in one task, one the page made that the
 * script's code reaches later.
 */
const CONSTRUCTORS = ['WebSocket', 'globalThis.WebSocketStream'];

interface Socket {
  sessionId: string | undefined;
  url: string;
  /** Opened while no eval held the tab: named among the late sends once the rule refuses it. */
  late: boolean;
  /** Its handshake request went out (the browser told it would send it). */
  sent?: true;
}

/** What the sockets need of the trail. */
export interface SocketWatch {
  /** The initiator names the script's code. */
  byScript(sessionId: string | undefined, initiator: Initiator | undefined): boolean;
  /** The script's code is paused in, or on the async stack that led there. */
  pausedInScript(sessionId: string | undefined, paused: PausedStack): boolean;
  /** Offline rules for every WebSocket to an origin the script may not reach. */
  refusedSockets(): Record<string, unknown>[];
  /** The origin is one the script may reach. */
  allows(url: string): boolean;
  /** An eval's hold stands on the tab: its rules cover every socket, and its restore sends these. */
  held(): boolean;
  /** The session's sockets changed while no hold stands: its rules are to be sent again; resolves once they stand. */
  changed(sessionId: string | undefined): Promise<void>;
  /** A socket opened after an eval was refused. */
  refused(send: Send): void;
}

/**
 * Measured on Chromium 150: 40 sockets an eval opens to one host are all told created before it returns, but the
 * network service starts their handshakes one after another, seconds apart, and the offline rule is judged at each
 * start; every one ends with webSocketClosed. Only the exact URL keeps its rule: the page's own sockets, even to that
 * host, are not stopped (they wait for the host's lock as they would anyway).
 */
export class ScriptSockets {
  /** Per `session:requestId`, the script's sockets whose handshake is not over. */
  private readonly open = new Map<string, Socket>();
  /**
   * Sessions whose script's code is in a WebSocket constructor not yet told created: every socket to a refused origin
   * is offline there until it is, as its handshake may start before webSocketCreated reaches the trail.
   */
  private readonly constructing = new Set<string | undefined>();
  private readonly constructors: FunctionBreakpoints;

  constructor(
    private readonly cdp: Cdp,
    private readonly watch: SocketWatch,
  ) {
    this.constructors = new FunctionBreakpoints(cdp, CONSTRUCTORS);
  }

  /** Pauses the session's WebSocket constructors (Runtime and Debugger are on there). */
  arm(sessionId: string | undefined): Promise<void> {
    return this.constructors.arm(sessionId);
  }

  /** Sets the session's WebSocket constructors' breakpoints again: a realm made since pauses there too. */
  rearm(sessionId: string | undefined): Promise<void> {
    return this.constructors.rearm(sessionId);
  }

  /** True when the event was a pause at a WebSocket constructor, told here and resumed. */
  onEvent(event: CdpEvent): boolean {
    this.constructors.onEvent(event);
    if (event.method === 'Debugger.paused')
      return this.paused(event.sessionId, event.params as unknown as PausedStack & { hitBreakpoints?: string[] });
    this.onSocket(event);
    return false;
  }

  private onSocket({ method, params, sessionId }: CdpEvent): void {
    const key = `${sessionId}:${String(params['requestId'])}`;
    switch (method) {
      case 'Network.webSocketCreated': {
        const url = String(params['url']);
        // The constructor the session paused in made this one: the refused origins' rules give way to its own.
        const told = this.constructing.delete(sessionId);
        if (this.watch.allows(url) || !this.watch.byScript(sessionId, params['initiator'] as Initiator | undefined)) {
          if (told) this.changed(sessionId);
          return;
        }
        this.open.set(key, { sessionId, url, late: !this.watch.held() });
        keepNewest(this.open, KEPT_SOCKETS);
        return this.changed(sessionId);
      }
      case 'Network.webSocketWillSendHandshakeRequest': {
        const socket = this.open.get(key);
        if (socket) socket.sent = true;
        return;
      }
      case 'Network.webSocketFrameError': {
        // Failed before its handshake went out: the rule refused it. Not by the error's words, which differ by client
        // (the fallback's say ERR_INTERNET_DISCONNECTED, chrome.debugger's say nothing; Chromium 150).
        const socket = this.open.get(key);
        if (socket?.late && !socket.sent)
          this.watch.refused({ method: 'WebSocket', url: socket.url, kind: 'WebSocket' });
        return;
      }
      case 'Network.webSocketClosed':
        if (this.open.delete(key)) this.changed(sessionId);
        return;
      case 'Target.detachedFromTarget':
        this.constructing.delete(String(params['sessionId']));
        for (const [each, socket] of this.open) if (socket.sessionId === params['sessionId']) this.open.delete(each);
        return;
    }
  }

  /**
   * Offline rules for the session's sockets whose handshake is not over, and for every refused origin's while the
   * script constructs one, ahead of any other rule of the session.
   */
  rules(sessionId: string | undefined): Record<string, unknown>[] {
    const urls = [...this.open.values()].filter((socket) => socket.sessionId === sessionId).map(({ url }) => url);
    const constructing = this.constructing.has(sessionId) ? this.watch.refusedSockets() : [];
    return [...[...new Set(urls)].map(offlineRule), ...constructing];
  }

  /**
   * A constructor's pause: the script's keeps every refused origin's sockets offline before it goes on, until its socket
   * is told. Any pause of the session's thread means its last constructor returned: one told no socket (it threw) lifts.
   */
  private paused(sessionId: string | undefined, paused: PausedStack & { hitBreakpoints?: string[] }): boolean {
    if (!this.constructors.ours(sessionId, paused.hitBreakpoints)) return false;
    const lifted = this.constructing.delete(sessionId);
    // Under an eval's hold every socket is refused already, and its restore sends the rules.
    const free = !this.watch.held();
    const byScript = free && this.watch.pausedInScript(sessionId, paused);
    if (byScript) this.constructing.add(sessionId);
    const standing = free && (byScript || lifted) ? this.watch.changed(sessionId) : Promise.resolve();
    void standing
      .catch(() => undefined)
      .then(() => this.cdp.send('Debugger.resume', {}, sessionId))
      .catch(() => undefined);
    return true;
  }

  private changed(sessionId: string | undefined): void {
    if (!this.watch.held()) void this.watch.changed(sessionId);
  }
}
