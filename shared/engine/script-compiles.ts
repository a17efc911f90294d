// Code a function of the page's compiles for the agent's script (a helper calling new Function or a direct eval on what
// it is handed): V8 names only the page's function as its creator, so the call is paused and judged by its stack.
import type { Cdp, CdpEvent } from './cdp.js';
import { FunctionBreakpoints } from './function-breakpoints.js';
import type { Location, PausedStack, ScriptCode } from './script-code.js';

/**
 * The constructors that compile a function from a string. Measured on Chromium 150: a breakpoint on `Function` pauses
 * `new Function`, `Function()` and Reflect.construct with the page's function on top and the script's frame below it,
 * and the code's scriptParsed (or scriptFailedToParse) follows the resume with the caller's place as its creator's top
 * frame. Each pause costs the page about 2 ms (200 of its own new Function: 0.4 s against 6 ms, CDP alone). The
 * breakpoint stands on the builtin, so it pauses every realm's (a frame's Function too: Chromium 156). Not armed:
 * `eval`, whose breakpoint pauses an indirect eval but never a direct one, and would pause every eval of ours into a
 * frame of the tab's process (main-world.ts calls it); a timer's string, parsed later with no creator stack at all.
 */
const CONSTRUCTORS = [
  'Function',
  '(async function () {}).constructor',
  '(function* () {}).constructor',
  '(async function* () {}).constructor',
];

/** A pause at a function's call: its caller's frame, where the call is, on top. */
type CallPaused = PausedStack & {
  reason: string;
  callFrames: { location: Location }[];
  hitBreakpoints?: string[];
  data?: { scriptId?: string };
};

export class ScriptCompiles {
  private readonly constructors: FunctionBreakpoints;
  /** Per session: the evals running there, and their instrumentation breakpoint's id once set. */
  private readonly evals = new Map<string | undefined, { count: number; breakpoint: Promise<string | undefined> }>();

  constructor(
    private readonly cdp: Cdp,
    private readonly code: ScriptCode,
  ) {
    this.constructors = new FunctionBreakpoints(cdp, CONSTRUCTORS);
  }

  /** Pauses the session's Function constructors (Runtime and Debugger are on there). */
  arm(sessionId: string | undefined): Promise<void> {
    return this.constructors.arm(sessionId);
  }

  /**
   * The agent's script is about to run in the session: until the returned function is called, each script that runs
   * there pauses before its first statement, the stack that led to it (async parents too) below, so one the script's
   * code compiled is known as the script's whoever's function compiled it (a direct eval, a timer's string).
   * Only then: Runtime.evaluate runs its code, and the microtasks it queues, exempt from the page's CSP and so from
   * Trusted Types (measured on Chromium 156), where the handler policy tells each later eval's and timer's string
   * (handler-policy.ts). Sent ahead of the script's evaluate on the same session, it stands before the script runs.
   */
  during(sessionId: string | undefined): () => void {
    const running = this.evals.get(sessionId);
    if (running) running.count += 1;
    else {
      const breakpoint = this.cdp
        .send<{ breakpointId: string }>(
          'Debugger.setInstrumentationBreakpoint',
          { instrumentation: 'beforeScriptExecution' },
          sessionId,
        )
        .then(
          ({ breakpointId }) => breakpointId,
          () => undefined,
        );
      this.evals.set(sessionId, { count: 1, breakpoint });
    }
    return () => this.ended(sessionId);
  }

  /** True when the event was a pause at a Function constructor or before a script, told to the script's code and resumed. */
  onEvent(event: CdpEvent): boolean {
    this.constructors.onEvent(event);
    if (event.method !== 'Debugger.paused') return false;
    const paused = event.params as unknown as CallPaused;
    // A pause of a breakpoint removed while it was on its way is judged all the same.
    if (paused.reason === 'instrumentation') this.beforeScript(event.sessionId, paused);
    else if (this.constructors.ours(event.sessionId, paused.hitBreakpoints)) this.calling(event.sessionId, paused);
    else return false;
    void this.cdp.send('Debugger.resume', {}, event.sessionId).catch(() => undefined);
    return true;
  }

  private calling(sessionId: string | undefined, paused: CallPaused): void {
    const caller = paused.callFrames[0];
    if (caller) this.code.compiling(sessionId, caller.location, this.code.paused(sessionId, paused));
  }

  /** The script about to run is on top: the script's code below it (or on its async parents) compiled it. */
  private beforeScript(sessionId: string | undefined, paused: CallPaused): void {
    const scriptId = paused.data?.scriptId;
    const [, ...under] = paused.callFrames;
    if (scriptId !== undefined && this.code.paused(sessionId, { ...paused, callFrames: under }))
      this.code.compiledByScript(sessionId, scriptId);
  }

  private ended(sessionId: string | undefined): void {
    const running = this.evals.get(sessionId);
    if (!running || --running.count > 0) return;
    this.evals.delete(sessionId);
    void running.breakpoint.then(
      (breakpointId) =>
        breakpointId && this.cdp.send('Debugger.removeBreakpoint', { breakpointId }, sessionId).catch(() => undefined),
    );
  }
}
