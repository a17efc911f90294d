// What the agent's script sent late towards another origin that no Fetch pause has taken yet: a frame returning into
// its parent's process sends so at first (returning-frames.ts), and such a send is named once the session's rules fail it.
import type { Send } from './egress-ledger.js';
import type { ReturningFrames } from './returning-frames.js';

interface Unpaused extends Send {
  sessionId: string | undefined;
  /** Sent while a returning frame's offline rule stood: that fails it with no blocked reason, and stands until it ends. */
  offline: boolean;
}

export class UnpausedSends {
  /** Per `session:requestId`. */
  private readonly sends = new Map<string, Unpaused>();

  /** `returning`: its rules stand on a session, and is told once a send under them ended or paused. */
  constructor(private readonly returning: Pick<ReturningFrames, 'rules' | 'unpausedEnded'>) {}

  started(key: string, sessionId: string | undefined, send: Send): void {
    this.sends.set(key, { ...send, sessionId, offline: this.returning.rules(sessionId) !== undefined });
  }

  /** A send of the session's kept its offline rule and has not ended. */
  pending(sessionId: string | undefined): boolean {
    return [...this.sends.values()].some((send) => send.offline && send.sessionId === sessionId);
  }

  /** A pause took the send: its rules no longer judge it. */
  paused(key: string): true {
    this.forget(key);
    return true;
  }

  /** The send ended: what the session's rules refused, failing it with no pause (a finished one went out, no hold's). */
  ended(key: string, failed: boolean, blockedReason: unknown): Send | undefined {
    const send = this.forget(key);
    if (!send || !failed || !(send.offline || blockedReason === 'inspector')) return undefined;
    return { method: send.method, url: send.url, kind: send.kind };
  }

  private forget(key: string): Unpaused | undefined {
    const send = this.sends.get(key);
    this.sends.delete(key);
    if (send?.offline) this.returning.unpausedEnded(send.sessionId);
    return send;
  }
}
