// A breakpoint on each document's WebSocket constructor, so a socket pauses before its handshake can start: the trail
// hears of one only at webSocketCreated, and by then the network service may already be connecting it.
import type { Cdp, CdpEvent } from './cdp.js';
import { keepNewest } from './keep-newest.js';

// The constructors that open a WebSocket: a realm without WebSocketStream has nothing to arm for it.
const CONSTRUCTORS = ['WebSocket', 'globalThis.WebSocketStream'];
// Far more documents than a tab loads while the trail follows it; the breakpoint of a long-gone one may be forgotten.
const KEPT_BREAKPOINTS = 1_000;

interface ExecutionContext {
  id: number;
  auxData?: { isDefault?: boolean };
}

/**
 * Measured on Chromium 150: Debugger.setBreakpointOnFunctionCall on a realm's WebSocket pauses every `new WebSocket`
 * there (Reflect.construct too) with reason "other", the caller's frame on top; an offline rule set during that pause
 * refuses the handshake. Each pause costs the page about 10 ms (200 sockets of its own: 2.3 s against 0.2 s), paid only
 * in a tab an agent's script ran in. A realm made after the script's code ran (a frame it inserts) is armed a moment
 * late: a socket its code opens there at once meets only webSocketCreated's rule (script-sockets.ts).
 */
export class SocketConstructors {
  /** `session:breakpointId` of each constructor's breakpoint. */
  private readonly breakpoints = new Set<string>();

  constructor(private readonly cdp: Cdp) {}

  /** The session's top document's constructor; its later documents' are armed as their main worlds are created. */
  async arm(sessionId: string | undefined): Promise<void> {
    await this.armIn(sessionId, undefined);
  }

  /** Each new main world of a session the trail follows (Runtime is on there). */
  onEvent({ method, params, sessionId }: CdpEvent): void {
    if (method !== 'Runtime.executionContextCreated') return;
    const context = params['context'] as ExecutionContext;
    if (context.auxData?.isDefault) void this.armIn(sessionId, context.id);
  }

  /** The pause is at a WebSocket constructor of ours. */
  ours(sessionId: string | undefined, hitBreakpoints: readonly string[] | undefined): boolean {
    return hitBreakpoints?.some((id) => this.breakpoints.has(`${sessionId}:${id}`)) === true;
  }

  private async armIn(sessionId: string | undefined, contextId: number | undefined): Promise<void> {
    await Promise.all(CONSTRUCTORS.map((expression) => this.armOne(sessionId, contextId, expression)));
  }

  private async armOne(
    sessionId: string | undefined,
    contextId: number | undefined,
    expression: string,
  ): Promise<void> {
    try {
      const { result } = await this.cdp.send<{ result: { objectId?: string } }>(
        'Runtime.evaluate',
        { expression, silent: true, ...(contextId === undefined ? {} : { contextId }) },
        sessionId,
      );
      if (result.objectId === undefined) return;
      const { breakpointId } = await this.cdp.send<{ breakpointId: string }>(
        'Debugger.setBreakpointOnFunctionCall',
        { objectId: result.objectId },
        sessionId,
      );
      this.breakpoints.add(`${sessionId}:${breakpointId}`);
      keepNewest(this.breakpoints, KEPT_BREAKPOINTS);
      void this.cdp.send('Runtime.releaseObject', { objectId: result.objectId }, sessionId).catch(() => undefined);
    } catch {
      // A document gone meanwhile, or one armed already (the same function's breakpoint stands): nothing to add.
    }
  }
}
