// What a page's function compiles while the agent's script's evaluate runs, told by the order V8 parses code: from the
// script's own parse to an end mark the engine sends right behind it, whatever compiles with a creator is the script's.
import type { Cdp } from './cdp.js';
import { randomHex } from './random-hex.js';
import { SCRIPT_TAG } from './script-initiator.js';

// Our tag's scheme, so no host or log takes the mark for the page's code; never the tag of a script.
const END_TAG = `${SCRIPT_TAG}end/`;

/** Debugger.scriptParsed as the spans read it. */
export interface Parsed {
  url: string;
  stackTrace?: unknown;
  executionContextAuxData?: { type?: string };
}

/** The span of one session: open from the script's parse, until `end` parses with no creator. */
interface Span {
  end: string;
  open: boolean;
  /** The end mark was evaluated in a pause (it names the paused frame): another goes once the pause is over. */
  again: boolean;
}

/**
 * Runtime.evaluate runs the script and every microtask it queues exempt from CSP (measured on Chromium 156: a direct
 * eval after 101 `await 0` passes a page's CSP, one after a timer does not), so Trusted Types' default policy never hears
 * a page's function evaluating what the script hands it there, and that code's parse names only the page's function as
 * its creator. A session runs one task at a time and tells its parses in that order: the end mark, a command sent right
 * behind the script, runs as a task of its own once the script's task and its microtasks are over. A page task may run
 * between the two (measured: one in five with a page ticking a zero timer): what it compiles is held as the script's.
 * Code with no creator is never taken (the engine's own evaluates, a timer's string, a file the page loads), nor our
 * isolated worlds'. Later tasks of the script's go through Trusted Types (handler-policy.ts) and are judged by stack.
 */
export class EvalSpans {
  private readonly secret = randomHex(8);
  private serial = 0;
  private readonly spans = new Map<string | undefined, Span>();

  constructor(private readonly cdp: Cdp) {}

  /** The agent's script was just sent on the session: its end mark goes right behind it. */
  behind(sessionId: string | undefined): void {
    const span: Span = { end: '', open: false, again: false };
    this.spans.set(sessionId, span);
    this.mark(sessionId, span);
  }

  /** A pause of the session is over: an end mark evaluated in it is sent again. */
  resumed(sessionId: string | undefined): void {
    const span = this.spans.get(sessionId);
    if (span?.again) this.mark(sessionId, span);
  }

  /** Whether code parsed on the session now was compiled while the script ran (it also moves the span along). */
  parsed(sessionId: string | undefined, script: Parsed): boolean {
    const span = this.spans.get(sessionId);
    if (!span) return false;
    if (script.url === span.end) {
      // Evaluated while the script (or the page) was paused, the mark names the paused frame: the script may go on.
      if (script.stackTrace !== undefined) span.again = true;
      else this.spans.delete(sessionId);
      return false;
    }
    if (!span.open) {
      // A mark of an earlier span (one evaluated in a pause) opens none.
      span.open = script.url.startsWith(SCRIPT_TAG) && !script.url.startsWith(END_TAG);
      return false;
    }
    return script.stackTrace !== undefined && script.executionContextAuxData?.type !== 'isolated';
  }

  private mark(sessionId: string | undefined, span: Span): void {
    // On the code's own line, not a line of its own: the hosts take an expression ending in our tag's line for a script.
    span.end = `${END_TAG}${this.secret}/${++this.serial}`;
    span.again = false;
    const { end } = span;
    void this.cdp
      .send('Runtime.evaluate', { expression: `0//# sourceURL=${end}`, silent: true }, sessionId)
      .catch(() => {
        // Never run (the session is gone): nothing more is parsed there for it to end.
        if (this.spans.get(sessionId)?.end === end) this.spans.delete(sessionId);
      });
  }
}
