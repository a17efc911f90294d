// A breakpoint on some functions of each main world a session has (the WebSocket constructors, the Function
// constructors): a call of one pauses before it runs, its caller's frame on top, so its user judges who called it.
import type { Cdp, CdpEvent } from './cdp.js';
import { keepNewest } from './keep-newest.js';

// Far more documents than a tab loads while the trail follows it; the breakpoint of a long-gone one may be forgotten.
const KEPT_BREAKPOINTS = 1_000;

interface ExecutionContext {
  id: number;
  auxData?: { isDefault?: boolean };
}

/**
 * Measured on Chromium 150: Debugger.setBreakpointOnFunctionCall on a realm's function pauses each call of it there
 * (`new`, a plain call, Reflect.construct) with reason "other", the caller's frame on top. Paid only in a tab an agent's
 * script ran in. A realm the script's code makes later (a frame it inserts) is armed while its making pauses
 * (realm-pauses.ts), before that code can call there, and so is one the page makes, which the script's code may reach
 * later (see rearm).
 */
export class FunctionBreakpoints {
  /** `session:breakpointId` of each function's breakpoint. */
  private readonly breakpoints = new Set<string>();
  /** Per `session:expression`, the breakpoint that stands. */
  private readonly standing = new Map<string, string>();

  /** `expressions`: each names a function in a main world; one a realm lacks (undefined there) is not armed. */
  constructor(
    private readonly cdp: Cdp,
    private readonly expressions: readonly string[],
  ) {}

  /** The session's top document's functions; its later documents' are armed as their main worlds are created. */
  async arm(sessionId: string | undefined): Promise<void> {
    await this.armIn(sessionId, undefined);
  }

  /** Each new main world of a session the trail follows (Runtime is on there). */
  onEvent({ method, params, sessionId }: CdpEvent): void {
    if (method !== 'Runtime.executionContextCreated') return;
    const context = params['context'] as ExecutionContext;
    if (context.auxData?.isDefault) void this.armIn(sessionId, context.id);
  }

  /**
   * Sets the session's breakpoints again, from its top document: V8 keys each by the function's shared code, the same
   * in every realm, so a new realm's arming is refused as done, yet its copy does not pause until the breakpoint is set
   * anew, which reaches every realm's (measured on Chromium 156). Each set walks the page's heap: a 150 MB one costs
   * about 0.1 s a function.
   */
  async rearm(sessionId: string | undefined): Promise<void> {
    await Promise.all(this.expressions.map((expression) => this.armOne(sessionId, undefined, expression, true)));
  }

  /** The pause is at a function of ours. */
  ours(sessionId: string | undefined, hitBreakpoints: readonly string[] | undefined): boolean {
    return hitBreakpoints?.some((id) => this.breakpoints.has(`${sessionId}:${id}`)) === true;
  }

  private async armIn(sessionId: string | undefined, contextId: number | undefined): Promise<void> {
    await Promise.all(this.expressions.map((expression) => this.armOne(sessionId, contextId, expression)));
  }

  private async armOne(
    sessionId: string | undefined,
    contextId: number | undefined,
    expression: string,
    replace = false,
  ): Promise<void> {
    const key = `${sessionId}:${expression}`;
    let objectId: string | undefined;
    try {
      ({ objectId } = (
        await this.cdp.send<{ result: { objectId?: string } }>(
          'Runtime.evaluate',
          { expression, silent: true, ...(contextId === undefined ? {} : { contextId }) },
          sessionId,
        )
      ).result);
      if (objectId === undefined) return;
      const was = replace ? this.standing.get(key) : undefined;
      if (was !== undefined) await this.cdp.send('Debugger.removeBreakpoint', { breakpointId: was }, sessionId);
      const { breakpointId } = await this.cdp.send<{ breakpointId: string }>(
        'Debugger.setBreakpointOnFunctionCall',
        { objectId },
        sessionId,
      );
      this.breakpoints.add(`${sessionId}:${breakpointId}`);
      keepNewest(this.breakpoints, KEPT_BREAKPOINTS);
      this.standing.set(key, breakpointId);
      keepNewest(this.standing, KEPT_BREAKPOINTS);
    } catch {
      // A document gone meanwhile, or one armed already (the same function's breakpoint stands): nothing to add.
    } finally {
      // Released also when the breakpoint was refused: a document armed twice kept one handle per function otherwise.
      if (objectId !== undefined)
        void this.cdp.send('Runtime.releaseObject', { objectId }, sessionId).catch(() => undefined);
    }
  }
}
