// WebSockets the agent's script opened to other origins: each keeps an offline rule for its own URL until its handshake
// is over, as the browser connects one host's sockets one at a time and a queued one would go out once the hold lifts.
import type { CdpEvent } from './cdp.js';
import type { Send } from './egress-ledger.js';
import { offlineRule } from './egress-origins.js';
import { keepNewest } from './keep-newest.js';
import type { Initiator } from './script-initiator.js';

// Far more sockets than a script opens; an older one past this loses its rule.
const KEPT_SOCKETS = 500;
// The network service's word for a handshake the offline rule refused.
const REFUSED = /ERR_INTERNET_DISCONNECTED/;

interface Socket {
  sessionId: string | undefined;
  url: string;
  /** Opened while no eval held the tab: named among the late sends once the rule refuses it. */
  late: boolean;
}

/** What the sockets need of the trail. */
export interface SocketWatch {
  /** The initiator names the script's code. */
  byScript(sessionId: string | undefined, initiator: Initiator | undefined): boolean;
  /** The origin is one the script may reach. */
  allows(url: string): boolean;
  /** An eval's hold stands on the tab: its rules cover every socket, and its restore sends these. */
  held(): boolean;
  /** The session's sockets changed while no hold stands: its rules are to be sent again. */
  changed(sessionId: string | undefined): void;
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

  constructor(private readonly watch: SocketWatch) {}

  onEvent({ method, params, sessionId }: CdpEvent): void {
    const key = `${sessionId}:${String(params['requestId'])}`;
    switch (method) {
      case 'Network.webSocketCreated': {
        const url = String(params['url']);
        if (this.watch.allows(url) || !this.watch.byScript(sessionId, params['initiator'] as Initiator | undefined))
          return;
        this.open.set(key, { sessionId, url, late: !this.watch.held() });
        keepNewest(this.open, KEPT_SOCKETS);
        return this.changed(sessionId);
      }
      case 'Network.webSocketFrameError': {
        const socket = this.open.get(key);
        if (socket?.late && REFUSED.test(String(params['errorMessage'])))
          this.watch.refused({ method: 'WebSocket', url: socket.url, kind: 'WebSocket' });
        return;
      }
      case 'Network.webSocketClosed':
        if (this.open.delete(key)) this.changed(sessionId);
        return;
      case 'Target.detachedFromTarget':
        for (const [each, socket] of this.open) if (socket.sessionId === params['sessionId']) this.open.delete(each);
        return;
    }
  }

  /** Offline rules for the session's sockets whose handshake is not over, ahead of any other rule of the session. */
  rules(sessionId: string | undefined): Record<string, unknown>[] {
    const urls = [...this.open.values()].filter((socket) => socket.sessionId === sessionId).map(({ url }) => url);
    return [...new Set(urls)].map(offlineRule);
  }

  private changed(sessionId: string | undefined): void {
    if (!this.watch.held()) this.watch.changed(sessionId);
  }
}
