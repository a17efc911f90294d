// Code a function of the page's compiles for the agent's script (a helper calling new Function on what it is handed):
// V8 names only the page's function as its creator, so the call is paused at the constructor and judged by its stack.
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
type CallPaused = PausedStack & { callFrames: { location: Location }[]; hitBreakpoints?: string[] };

export class ScriptCompiles {
  private readonly constructors: FunctionBreakpoints;

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

  /** Sets the session's Function constructors' breakpoints again: a realm made since pauses there too. */
  rearm(sessionId: string | undefined): Promise<void> {
    return this.constructors.rearm(sessionId);
  }

  /** True when the event was a pause at a Function constructor, told to the script's code and resumed. */
  onEvent(event: CdpEvent): boolean {
    this.constructors.onEvent(event);
    if (event.method !== 'Debugger.paused') return false;
    const paused = event.params as unknown as CallPaused;
    if (!this.constructors.ours(event.sessionId, paused.hitBreakpoints)) return false;
    const caller = paused.callFrames[0];
    if (caller) this.code.compiling(event.sessionId, caller.location, this.code.paused(event.sessionId, paused));
    void this.cdp.send('Debugger.resume', {}, event.sessionId).catch(() => undefined);
    return true;
  }
}
